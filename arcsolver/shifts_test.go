// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// TestKeepStage checks how a later stage's fit joins the fit kept so far: it replaces it only when it
// ranks above the kept fit as ranked (a demoted hard fit loses to a later hard fit), and either way the
// restarts, steps and time of both are counted, the kept fit's SoftTop first.
func TestKeepStage(t *testing.T) {
	canvas := latformer.FitResult{Fitted: true, HardGates: true, Exact: 1, Loss: 0.1, Restarts: 2, RestartsFitted: 1,
		Restart: 1, TotalSteps: 700, Elapsed: 7, Compile: 1, SoftTop: []string{"a"}}
	demoted := canvas
	demoted.Fitted = false // rankedFit: its test prediction is not a grid
	later := latformer.FitResult{Fitted: true, HardGates: true, Exact: 1, Loss: 0.2, Restarts: 2, RestartsFitted: 1,
		Restart: 0, TotalSteps: 300, Elapsed: 3, Compile: 2, SoftTop: []string{"b"}}
	unfitted := later
	unfitted.Fitted, unfitted.Exact = false, 0.5
	cases := []struct {
		name        string
		ranked, fit latformer.FitResult
		kept        bool
		restart     int
		fitted      int
		softTop     []string
	}{
		{"a hard fit after a demoted one", demoted, later, true, 2, 2, []string{"b", "a"}},
		{"a hard fit with a higher loss after a hard fit", canvas, later, false, 1, 1, []string{"a", "b"}},
		{"no fit after a demoted one", demoted, unfitted, false, 1, 1, []string{"a", "b"}},
	}
	for _, c := range cases {
		sol := Solution{Fit: canvas}
		if got := keepStage(&sol, c.ranked, c.fit); got != c.kept {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.kept)
		}
		f := sol.Fit
		if f.Restarts != 4 || f.TotalSteps != 1000 || f.Elapsed != 10 || f.Compile != 3 || f.Restart != c.restart ||
			f.RestartsFitted != c.fitted || !slices.Equal(f.SoftTop, c.softTop) || !f.Fitted || !f.HardGates {
			t.Errorf("%s: %+v; want a hard fit, 4 restarts, 1000 steps, time 10 (compile 3), restart %d kept, %d fitted, soft top %v",
				c.name, f, c.restart, c.fitted, c.softTop)
		}
	}
}

// TestSolverShiftSoftmax solves a shift task (shift(-1,0) of 4x4 grids on a 6x6 canvas) without the search
// where the canvas fit cannot: its restarts
// free the rotation gates alone (train_restart_experts=r) and no candidate frames are set. The shift-softmax
// fit (train_shift_restarts=t) then fits, is kept, and predicts the test outputs exactly; its restart is
// counted after the canvas fit's, and a saved solution predicts the same after loading. With the third fit
// off, the same task stays unfitted.
func TestSolverShiftSoftmax(t *testing.T) {
	backend := testutil.Backend(t)
	task, _ := examples(t, rand.New(rand.NewPCG(67, 6)), lattice.Shift{Deltas: []int{-1, 0}}, 6, 4, 6)
	train, test := task[:3], task[3:]
	const base = "gate_init=paper;train_steps=200;augment_copies=4;train_restarts=1;train_restart_experts=r;" +
		"train_gate_beam=4;train_gate_beam_steps=25;train_hard_steps=150;train_hard_patience=20;train_max_cells=0"
	for _, third := range []bool{false, true} {
		settings := base
		if third {
			settings += ";train_shift_restarts=t"
		}
		s, err := New(backend, parse(t, settings), Options{})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(train, test, nil)
		if err != nil {
			t.Fatal(err)
		}
		fitted := sol.Fit.Fitted && sol.Fit.HardGates
		if !third {
			if fitted || sol.Fit.Restarts != 1 {
				t.Errorf("canvas fit alone: fitted %v with %d restarts (%s); want no fit, 1 restart", fitted,
					sol.Fit.Restarts, sol.ActionName())
			}
			s.Close()
			continue
		}
		if !fitted || sol.Fit.Restarts != 2 || sol.Fit.Restart != 1 || !s.last.shifts {
			t.Fatalf("fitted %v, restarts %d, kept %d, shifts %v (%s): want the shift-softmax restart's hard fit kept",
				fitted, sol.Fit.Restarts, sol.Fit.Restart, s.last.shifts, sol.ActionName())
		}
		for i, ex := range test {
			if p := sol.Predictions[i]; p == nil || !slices.Equal(p.Cells, ex.Output.Cells) {
				t.Errorf("test %d: predicted %v, want %v (element %s)", i, p, ex.Output.Cells, sol.ActionName())
			}
		}
		dir := filepath.Join(t.TempDir(), "task")
		if err := s.Save(dir); err != nil {
			t.Fatal(err)
		}
		s.Close()
		loaded, err := LoadSolution(backend, dir, latformer.LatFormerArchitecture())
		if err != nil {
			t.Fatal(err)
		}
		again, err := loaded.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		if !sameCanvases(sol.Predictions, again.Predictions) || sol.ActionName() != again.ActionName() {
			t.Errorf("loaded: %s predicts otherwise than the fitted %s", again.ActionName(), sol.ActionName())
		}
		loaded.Close()
		t.Logf("element %s, %d restarts, %d steps", sol.ActionName(), sol.Fit.Restarts, sol.Fit.TotalSteps)
	}
}

// TestMalformedFitTriesFrames solves ARC's 67a3c6ac with the nosearch recipe: a mirror of grids of three
// widths (4, 7 and 6; the test's is 3). The canvas fit's hard gates fit the training pairs with
// shift(0,-3)∘reflect(1), which mirrors only a grid of width 4 in place and leaves the test's grid short of
// its first column: its prediction is no grid. That fit counts as no fit (rankedFit), so the candidate frames
// fit too, mirror each input's own grid (crop(grid)∘reflect(1)) and predict the test output exactly. Without
// the rule the canvas fit predicts, and the task is lost. Skipped without ARC data.
func TestMalformedFitTriesFrames(t *testing.T) {
	dir := arcDirOrEmpty(t)
	if dir == "" {
		t.Skip("no ARC data ($" + datasets.EnvDataDir + ")")
	}
	task, err := datasets.LoadTask(filepath.Join(dir, "67a3c6ac.json"))
	if err != nil {
		t.Fatal(err)
	}
	train, test := onCanvas(t, task), placed(t, task.Test, datasets.TaskCanvas(task))
	s, err := New(testutil.Backend(t), RecipeNoSearch.Settings, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sol, err := s.Solve(train, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Fit.Restarts < 3 || sol.Fit.Restart < 2 || sol.Anchor != "crop(grid)" {
		t.Errorf("restarts %d, kept %d, frame %q (%s): want the candidate frames' fit on crop(grid) kept after the "+
			"canvas fit's 2 restarts", sol.Fit.Restarts, sol.Fit.Restart, sol.Anchor, sol.ActionName())
	}
	for i, ex := range test {
		if p := sol.Predictions[i]; p == nil || !slices.Equal(p.Cells, ex.Output.Cells) {
			t.Errorf("test %d: predicted %v, want %v (element %s)", i, p, ex.Output.Cells, sol.ActionName())
		}
	}
}
