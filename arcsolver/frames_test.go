// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
)

// cropTask returns num examples on a 7x7 canvas whose input is a grid of black (0) with one block of
// h x w non-black cells somewhere, and whose output is that block: crop(fg). h, w: 2 or 3 each, random per
// example unless size > 0 fixes both.
func cropTask(t *testing.T, rng *rand.Rand, num, size int) []latformer.Example {
	t.Helper()
	out := make([]latformer.Example, num)
	for k := range out {
		gh, gw := 5+rng.IntN(3), 5+rng.IntN(3)
		h, w := 2+rng.IntN(2), 2+rng.IntN(2)
		if size > 0 {
			h, w = size, size
		}
		in, block := datasets.NewGrid(gh, gw, 0), datasets.NewGrid(h, w, 0)
		r0, c0 := rng.IntN(gh-h+1), rng.IntN(gw-w+1)
		for i := range h {
			for j := range w {
				block[i][j] = 1 + rng.IntN(9)
				in[r0+i][c0+j] = block[i][j]
			}
		}
		x, err := datasets.ToCanvas(in, 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		y, err := datasets.ToCanvas(block, 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = latformer.Example{Input: x, Output: y}
	}
	return out
}

// TestFrameCandidatesReadNoOutput checks that a task's candidate frames (FrameCandidates, WithFrameCandidates)
// are read off its inputs alone: with every output replaced by a canvas of another size and other colors
// (all of one size, as outputs often are, and then of several sizes), the rules and every example's frames
// are the same. Cases: crop tasks whose outputs share one size, and the ARC training tasks whose element the
// lattice search reads as a frame (with $LATFORMER_DATA).
func TestFrameCandidatesReadNoOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 2))
	tasks := [][]latformer.Example{cropTask(t, rng, 4, 3), cropTask(t, rng, 4, 2), cropTask(t, rng, 3, 0)}
	if dir := arcDirOrEmpty(t); dir != "" {
		all, err := datasets.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		frameTasks := []string{"23b5c85d", "7468f01a", "b9b7f026", "91714a58", "9ecd008a", "ac0a08a4", "05f2a901",
			"b91ae062", "d9fac9be", "7b7f7511", "88a62173", "662c240a"}
		for _, task := range all {
			if slices.Contains(frameTasks, task.ID) {
				tasks = append(tasks, onCanvas(t, task))
			}
		}
	}
	compared := 0
	for i, train := range tasks {
		rules := FrameCandidates(train, 64)
		if len(rules) == 0 {
			t.Fatalf("task %d: no candidate frames", i)
		}
		want := WithFrameCandidates(rules, train)
		for _, sizes := range [][2]int{{1, 1}, {4, 6}, {0, 0}} {
			other := slices.Clone(train)
			for k := range other {
				h, w := sizes[0], sizes[1]
				if h == 0 { // several sizes
					h, w = 1+k, 2+k
				}
				h, w = min(h, other[k].Output.Rows), min(w, other[k].Output.Cols)
				g := datasets.NewGrid(h, w, (k+3)%10)
				c, err := datasets.ToCanvas(g, other[k].Output.Rows, other[k].Output.Cols)
				if err != nil {
					t.Fatal(err)
				}
				other[k].Output = c
			}
			again := FrameCandidates(other, 64)
			if !slices.Equal(ruleNames(again), ruleNames(rules)) {
				t.Fatalf("task %d, outputs %v: candidates %v, with the true outputs %v", i, sizes, ruleNames(again),
					ruleNames(rules))
			}
			got := WithFrameCandidates(again, other)
			for k := range got {
				if !slices.Equal(got[k].Frames, want[k].Frames) {
					t.Fatalf("task %d, outputs %v, example %d: frames differ", i, sizes, k)
				}
			}
			compared++
		}
	}
	if compared < 9 {
		t.Fatalf("%d comparisons, want at least 9", compared)
	}
	t.Logf("%d tasks x 3 kinds of other outputs: the same candidates and frames", len(tasks))
}

// arcDirOrEmpty is the ARC training split's directory, "" without $LATFORMER_DATA.
func arcDirOrEmpty(t *testing.T) string {
	t.Helper()
	data := os.Getenv(datasets.EnvDataDir)
	if data == "" {
		return ""
	}
	dir, err := datasets.ARCSplitDir(data, "training")
	if err != nil {
		return ""
	}
	return dir
}

// onCanvas places a task's training pairs on its canvas (datasets.TaskCanvas), as the ARC experiment does.
func onCanvas(t *testing.T, task datasets.Task) []latformer.Example {
	t.Helper()
	return placed(t, task.Train, datasets.TaskCanvas(task))
}

// placed places pairs on a side x side canvas.
func placed(t *testing.T, pairs []datasets.Pair, side int) []latformer.Example {
	t.Helper()
	var out []latformer.Example
	for _, p := range pairs {
		x, err := datasets.ToCanvas(p.Input, side, side)
		if err != nil {
			t.Fatal(err)
		}
		y, err := datasets.ToCanvas(p.Output, side, side)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, latformer.Example{Input: x, Output: y})
	}
	return out
}

// TestSolverFrameCandidates solves a crop task without the search (gate_init=paper): the canvas fit cannot
// fit outputs of another size than the input, so the solver fits the candidate frames (fitFrames), whose hard
// gates choose the foreground's box; the test outputs are exact, the restarts of both fits are counted (the
// zero-fill restart z runs on the frames as the frame alone: frameRestarts), and the element names its rule.
func TestSolverFrameCandidates(t *testing.T) {
	backend := testutil.Backend(t)
	task := cropTask(t, rand.New(rand.NewPCG(67, 5)), 5, 0)
	train, test := task[:3], task[3:]
	s, err := New(backend, parse(t, "gate_init=paper;train_steps=200;augment_copies=4;train_restarts=2;"+
		"train_restart_experts=z,all;train_gate_beam=2;train_hard_steps=100;train_max_cells=0;expert_frame_candidates=16"),
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sol, err := s.Solve(train, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sol.Anchor, "crop(") || sol.Source != SourceNetwork || !sol.Fit.Fitted || !sol.Fit.HardGates {
		t.Fatalf("anchor %q, source %s, fitted %v (hard %v), %+v: want the network's hard gates on a crop", sol.Anchor,
			sol.Source, sol.Fit.Fitted, sol.Fit.HardGates, sol.Fit)
	}
	if sol.Fit.Restarts < 3 || sol.Fit.Restart < 2 {
		t.Errorf("restarts %d, kept %d: want the canvas' 2 and the frames' 1 or 2, a frames' one kept",
			sol.Fit.Restarts, sol.Fit.Restart)
	}
	for i, ex := range test {
		if p := sol.Predictions[i]; p == nil || !slices.Equal(p.Cells, ex.Output.Cells) {
			t.Errorf("test %d: predicted %v, want %v (element %s)", i, p, ex.Output.Cells, sol.ActionName())
		}
	}
	t.Logf("element %s, %d restarts, %d steps", sol.ActionName(), sol.Fit.Restarts, sol.Fit.TotalSteps)
}
