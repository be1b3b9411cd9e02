// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

// TestSolveBySearch checks the lattice search alone (LatticeSearch): a task whose training pairs determine
// a flip of the columns with a recoloring is solved, with the element as its action and nothing trained; a
// test input with a color no training pair has gets no prediction (the table cannot map it) and is unsolved;
// a task with no consistent element gets no prediction and no action.
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
	// The rows of the first input in another order: a column flip pairs each cell with one of its own row,
	// so every (g·x, x) pair of the test input is one a training pair has.
	seen := datasets.Grid{{2, 0, 0}, {1, 2, 3}, {0, 3, 1}}
	unseen := datasets.Grid{{2, 0, 5}, {1, 2, 3}, {0, 3, 1}} // color 5 is in no training pair
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

	task.Test = []datasets.Pair{{Input: unseen, Output: flipRecolor(unseen)}}
	if res, err = s.Solve(task, nil, nil); err != nil || res.Solved || res.Predictions[0] != nil || res.Action != "reflect(1)" {
		t.Errorf("unseen test color: solved %v, prediction %v, action %q, %v; want unsolved, no prediction, the same element", res.Solved, res.Predictions[0], res.Action, err)
	}

	noise := datasets.Task{ID: "none", Train: []datasets.Pair{
		{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{5, 5}, {6, 7}}},
		{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{7, 6}, {5, 5}}}}, // same input, two outputs
		Test: []datasets.Pair{{Input: datasets.Grid{{1, 2}, {3, 4}}, Output: datasets.Grid{{5, 5}, {6, 7}}}}}
	if res, err = s.Solve(noise, nil, nil); err != nil || res.Solved || res.Action != "" || res.Predictions[0] != nil {
		t.Errorf("no consistent element: solved %v, action %q, prediction %v, %v; want unsolved without action or prediction", res.Solved, res.Action, res.Predictions[0], err)
	}
}
