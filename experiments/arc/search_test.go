// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"reflect"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
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

	s, err := NewSolver(testutil.Backend(t), Options{Model: LatticeSearch})
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

// gridFlipTask is a task whose grids differ in size from pair to pair and whose outputs reverse the rows of
// the inputs: no canvas element fits it, the size-relative flip does.
func gridFlipTask() datasets.Task {
	flip := func(g datasets.Grid) datasets.Grid {
		out := make(datasets.Grid, len(g))
		for r := range g {
			out[r] = append([]int(nil), g[len(g)-1-r]...)
		}
		return out
	}
	ins := []datasets.Grid{{{1, 2, 3}, {0, 3, 1}}, {{3, 3}, {2, 1}, {0, 0}, {1, 2}}, {{0, 1, 2, 4}, {3, 0, 0, 1}, {1, 1, 3, 0}}}
	task := datasets.Task{ID: "gridflip"}
	for _, g := range ins {
		task.Train = append(task.Train, datasets.Pair{Input: g, Output: flip(g)})
	}
	test := datasets.Grid{{2, 1}, {3, 0}, {1, 4}, {0, 2}, {4, 4}}
	task.Test = []datasets.Pair{{Input: test, Output: flip(test)}}
	return task
}

// TestSolveBySearchGridNeverSeesTestOutputs checks the search alone on a size-relative task: solved with
// the grid lattice (search_lattices), unsolved without it; and a copy of the task whose test output is
// scrambled gets the same action and the same predictions (the search reads training pairs only).
func TestSolveBySearchGridNeverSeesTestOutputs(t *testing.T) {
	task := gridFlipTask()
	s, err := NewSolver(testutil.Backend(t), Options{Model: LatticeSearch})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Solve(task, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Solved || res.Lattice != "grid" || res.Action != "reflect(0)" || res.Source != SourceSearch {
		t.Errorf("grid flip: solved %v, lattice %q, action %q, source %q; want solved by the grid's reflect(0)", res.Solved, res.Lattice, res.Action, res.Source)
	}
	scrambled := task
	scrambled.Test = []datasets.Pair{{Input: task.Test[0].Input, Output: datasets.Grid{{9, 9, 9}, {9, 8, 9}}}}
	res2, err := s.Solve(scrambled, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Action != res.Action || !reflect.DeepEqual(res2.Predictions, res.Predictions) || res2.Solved {
		t.Errorf("scrambled test output: action %q, predictions %v (solved %v); want %q, %v, unsolved", res2.Action, res2.Predictions, res2.Solved, res.Action, res.Predictions)
	}

	off, err := NewSolver(testutil.Backend(t), Options{Model: LatticeSearch, Settings: parse(t, "search_lattices=canvas")})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	if res, err := off.Solve(task, nil, nil); err != nil || res.Solved || res.Action != "" {
		t.Errorf("search_lattices=canvas: solved %v, action %q, %v; want unsolved, no element", res.Solved, res.Action, err)
	}
}

// TestSolveFallback checks search_fallback on the network: with no training steps the network's hard
// gates start at the proposal but its untrained output cannot fit the training pairs, so the top proposal
// predicts (source search, the network's own predictions unsolved), on the grid lattice; with the fallback
// off the network's predictions stand. With gate_init=paper there is no search at all.
func TestSolveFallback(t *testing.T) {
	task := gridFlipTask()
	const base = "train_steps=0;train_held_steps=0;train_restarts=1;augment_copies=1"
	cases := []struct {
		settings      string
		solved        bool
		source, latt  string
		networkSolved bool
	}{
		{base, true, SourceSearch, "grid", false},
		{base + ";search_fallback=false", false, SourceNetwork, "grid", false},
		{base + ";gate_init=paper", false, SourceNetwork, "", false},
	}
	for _, c := range cases {
		res, err := SolveTask(testutil.Backend(t), task, parse(t, c.settings), 0, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.settings, err)
		}
		if res.Solved != c.solved || res.Source != c.source || res.Lattice != c.latt || res.NetworkSolved != c.networkSolved {
			t.Errorf("%s: solved %v, source %q, lattice %q, network solved %v; want %v, %q, %q, %v", c.settings,
				res.Solved, res.Source, res.Lattice, res.NetworkSolved, c.solved, c.source, c.latt, c.networkSolved)
		}
	}
}

// TestUnproposedMaxCells checks train_max_cells: a task the search finds no element for
// (two training pairs with the same input and different outputs: no element and table fit both) is not
// trained on a canvas above the limit (no steps, unsolved, no prediction) and is trained at or below it;
// with gate_init=paper the limit does not apply.
func TestUnproposedMaxCells(t *testing.T) {
	in := datasets.Grid{{1, 0, 1}, {0, 0, 0}, {0, 1, 0}}
	task := datasets.Task{ID: "contradiction", Train: []datasets.Pair{
		{Input: in, Output: datasets.Grid{{2, 0, 2}, {0, 0, 0}, {0, 2, 0}}},
		{Input: in, Output: datasets.Grid{{3, 0, 3}, {0, 0, 0}, {0, 3, 0}}},
	}, Test: []datasets.Pair{{Input: in, Output: datasets.Grid{{2, 0, 2}, {0, 0, 0}, {0, 2, 0}}}}}
	const base = "train_steps=2;train_unproposed_steps=2;train_restarts=1;augment_copies=1"
	cases := []struct {
		settings string
		steps    int
	}{
		{base + ";train_max_cells=8", 0}, // the 3 x 3 canvas has 9 cells: not trained
		{base + ";train_max_cells=9", 2},
		{base + ";train_max_cells=0", 2},
		{base + ";train_max_cells=8;gate_init=paper", 2},
	}
	for _, c := range cases {
		res, err := SolveTask(testutil.Backend(t), task, parse(t, c.settings), 0, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.settings, err)
		}
		if res.HasProposal || res.TotalSteps != c.steps || res.Solved {
			t.Errorf("%s: proposal %v, %d steps, solved %v; want no proposal, %d steps, unsolved", c.settings, res.HasProposal, res.TotalSteps, res.Solved, c.steps)
		}
		if c.steps == 0 && (res.Predictions[0] != nil || res.Source != SourceSearch) {
			t.Errorf("%s: untrained task predicted %v (source %q); want no prediction", c.settings, res.Predictions[0], res.Source)
		}
	}
	if _, err := NewSolver(testutil.Backend(t), Options{Settings: hparams.Settings{{Key: latformer.ParamMaxCells, Value: -1}}}); err == nil {
		t.Error("train_max_cells=-1: no error")
	}
}
