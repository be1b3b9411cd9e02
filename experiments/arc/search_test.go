// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

// TestSolveBySearch checks the lattice search alone (LatticeSearch): a task whose training pairs determine
// a flip of the columns with a recoloring is solved, with the element as its action and nothing trained,
// also on a test input whose color pairs no training cell has (the generalized table); a test input where
// the table depends on x at a color pair it has not seen is unsolved; a task with no consistent element
// gets no prediction and no action.
func TestSolveBySearch(t *testing.T) {
	flipRecolor := func(g datasets.Grid) datasets.Grid {
		out := make(datasets.Grid, len(g))
		for r, row := range g {
			out[r] = make([]int, len(row))
			for c := range row {
				v := row[len(row)-1-c]
				if v == 3 {
					v = 4 // a recoloring the table learns
				}
				out[r][c] = v
			}
		}
		return out
	}
	ins := []datasets.Grid{{{1, 2, 3}, {0, 3, 1}, {2, 0, 0}}, {{3, 3, 1}, {2, 1, 0}, {0, 0, 2}}, {{0, 1, 2}, {3, 0, 0}, {1, 1, 3}}}
	task := datasets.Task{ID: "flip"}
	for _, g := range ins {
		task.Train = append(task.Train, datasets.Pair{Input: g, Output: flipRecolor(g)})
	}
	// New color pairs (g·x, x) and a color (5) that no training pair has: the generalized table maps them
	// (the recoloring does not depend on x; 5 is kept).
	seen := datasets.Grid{{2, 1, 3}, {3, 0, 1}, {1, 5, 0}}
	task.Test = []datasets.Pair{{Input: seen, Output: flipRecolor(seen)}}

	s, err := NewSolver(testutil.Backend(t), "", SolverOptions{Search: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Solve(task, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Solved || res.Model != LatticeSearch || res.Steps != 0 || res.Action != "reflect(1)" {
		t.Errorf("flip with recoloring: solved %v, model %q, steps %d, action %q; want solved by reflect(1), no steps", res.Solved, res.Model, res.Steps, res.Action)
	}

	// A task where the output depends on x: where g·x is 1, the output is 1 over a 0 of x and 2 over a 3.
	// Its test input pairs g·x = 1 with x = 2, which no training cell does: no output can be read off.
	xor := datasets.Task{ID: "xor", Train: []datasets.Pair{
		{Input: datasets.Grid{{1, 0}}, Output: datasets.Grid{{1, 0}}},
		{Input: datasets.Grid{{1, 3}}, Output: datasets.Grid{{2, 3}}}},
		Test: []datasets.Pair{{Input: datasets.Grid{{1, 2}}, Output: datasets.Grid{{1, 2}}}}}
	if res, err = s.Solve(xor, nil, nil); err != nil || res.Solved || res.Predictions[0] != nil {
		t.Errorf("a key the table cannot generalize: solved %v, prediction %v, %v; want unsolved without a prediction", res.Solved, res.Predictions[0], err)
	}

	noise := datasets.Task{ID: "none", Train: []datasets.Pair{
		{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{5, 5}, {6, 7}}},
		{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{7, 6}, {5, 5}}}}, // same input, two outputs
		Test: []datasets.Pair{{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{5, 5}, {6, 7}}}}}
	if res, err = s.Solve(noise, nil, nil); err != nil || res.Solved || res.Action != "" || res.Predictions[0] != nil {
		t.Errorf("no consistent element: solved %v, action %q, prediction %v, %v; want unsolved without action or prediction", res.Solved, res.Action, res.Predictions[0], err)
	}
}
