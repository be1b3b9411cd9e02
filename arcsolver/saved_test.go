// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// sameCanvases reports whether two lists of predicted canvases are equal cell by cell (nil where nil).
func sameCanvases(a, b []*datasets.Canvas) bool {
	return slices.EqualFunc(a, b, func(x, y *datasets.Canvas) bool {
		return (x == nil) == (y == nil) && (x == nil || (x.Rows == y.Rows && x.Cols == y.Cols && slices.Equal(x.Cells, y.Cells)))
	})
}

// samePredictions reports whether two lists of network predictions are equal: canvases, gates and actions.
func samePredictions(a, b []latformer.Prediction) bool {
	return slices.EqualFunc(a, b, func(x, y latformer.Prediction) bool {
		return slices.Equal(x.Canvas.Cells, y.Canvas.Cells) && x.ActionName() == y.ActionName() &&
			maps.EqualFunc(x.Gates, y.Gates, slices.Equal[[]float64]) && maps.EqualFunc(x.Gates2, y.Gates2, slices.Equal[[]float64])
	})
}

// TestSaveLoadPredictsTheSame solves small tasks, saves each solution (GoMLX checkpoint and SolutionFile),
// loads it on a fresh solver and predicts again, nothing trained: the predictions, their source and element,
// the network's canvases and gates, the top proposal's predictions and the alternatives are those of the
// solve, to the bit; so are the loaded network's predictions of inputs the solve never saw, against the
// fitted learner's. Cases: a translation on a 5x5 canvas started at the search's proposals; the same with
// the paper's initialization and too few steps to fit (the prediction rests on the trained weights alone);
// a flip of grids of several sizes (the grid-lattice learner of Solver.learnersFor); the lattice search alone
// (no network saved); a crop without the search, by the candidate frames (Solver.fitFrames).
func TestSaveLoadPredictsTheSame(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(11, 46))
	translate, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 5, 4, 8)
	flip := gridFlipTask(t, rng, 0, 8)
	crop := cropTask(t, rand.New(rand.NewPCG(67, 5)), 8, 0)
	const base = "train_steps=30;augment_copies=2;train_restarts=2"
	cases := []struct {
		name, settings string
		opts           Options
		task           []latformer.Example // 3 training examples, 2 test, 3 unseen
		network        bool
	}{
		{"translation, search", base, Options{}, translate, true},
		{"translation, paper init, unfitted", "train_steps=6;augment_copies=1;train_restarts=1;gate_init=paper", Options{}, translate, true},
		{"flip, grid lattice", base, Options{Reuse: true}, flip, true},
		{"lattice search alone", base, Options{SearchOnly: true}, translate, false},
		{"crop, candidate frames", "gate_init=paper;train_steps=200;augment_copies=4;train_restarts=1;" +
			"train_gate_beam=2;train_hard_steps=100;expert_frame_candidates=16", Options{}, crop, true},
	}
	for _, c := range cases {
		train, test, unseen := c.task[:3], c.task[3:5], c.task[5:]
		s, err := New(backend, parse(t, c.settings), c.opts)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(train, test, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var fittedUnseen []latformer.Prediction
		if s.last.frames != nil { // the learner acts on the task's candidate frames
			unseen = WithFrameCandidates(s.last.frames, unseen)
		}
		if c.network {
			if fittedUnseen, err = s.last.learner.Predict(unseen); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(t.TempDir(), "task")
		if err := s.Save(dir); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s.Close()
		if got := hasCheckpoint(t, dir); got != c.network {
			t.Errorf("%s: checkpoint files %v, want %v", c.name, got, c.network)
		}

		loaded, err := LoadSolution(backend, dir, latformer.LatFormerArchitecture())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		again, err := loaded.Predict(test)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !sameCanvases(sol.Predictions, again.Predictions) || sol.Source != again.Source || sol.ActionName() != again.ActionName() ||
			sol.Lattice != again.Lattice || !samePredictions(sol.Network, again.Network) || !sameCanvases(sol.Searched, again.Searched) || !reflect.DeepEqual(sol.Fit, again.Fit) {
			t.Errorf("%s: loaded solution predicts otherwise:\nsolved: source %s %s %s, %d network predictions\nloaded: source %s %s %s, %d",
				c.name, sol.Source, sol.ActionName(), sol.Lattice, len(sol.Network), again.Source, again.ActionName(), again.Lattice, len(again.Network))
		}
		alts, err := sol.Alternatives(test)
		if err != nil {
			t.Fatal(err)
		}
		altsAgain, err := again.Alternatives(test)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(alts, altsAgain, func(a, b []Alternative) bool {
			return slices.EqualFunc(a, b, func(x, y Alternative) bool {
				return x.By == y.By && sameCanvases([]*datasets.Canvas{x.Canvas}, []*datasets.Canvas{y.Canvas})
			})
		}) {
			t.Errorf("%s: the alternatives differ after loading", c.name)
		}
		if c.network {
			if got, err := loaded.learner.Predict(unseen); err != nil || !samePredictions(got, fittedUnseen) {
				t.Errorf("%s: the loaded network predicts unseen inputs otherwise than the fitted one (%v)", c.name, err)
			}
		}
		if c.name == "translation, search" && (sol.Source != SourceNetwork || sol.ActionName() == "") {
			t.Errorf("%s: source %s, element %q: want the network's hard gates", c.name, sol.Source, sol.ActionName())
		}
		if c.name == "crop, candidate frames" && !strings.HasPrefix(sol.Anchor, "crop(") {
			t.Errorf("%s: element %q, want a crop by the candidate frames", c.name, sol.ActionName())
		}
		if c.name == "flip, grid lattice" && sol.Lattice != "grid" {
			t.Errorf("%s: lattice %q, want grid", c.name, sol.Lattice)
		}
		loaded.Close()
	}
}

// hasCheckpoint reports whether dir holds GoMLX checkpoint files beside SolutionFile.
func hasCheckpoint(t *testing.T, dir string) bool {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, SolutionFile)); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "checkpoint-*.bin"))
	return len(matches) == 1
}

// TestSaveErrors checks Save's and LoadSolution's errors: nothing solved yet, a non-empty directory that
// holds no saved solution (refused, left as it was), an earlier saved solution (replaced), another
// architecture, a canvas that is not the solution's.
func TestSaveErrors(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(12, 46))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{0, 1}}, 4, 3, 3)
	s, err := New(backend, parse(t, "train_steps=5;augment_copies=1;train_restarts=1"), Options{Reuse: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Save(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no task solved") {
		t.Errorf("Save before Solve: %v", err)
	}
	if _, err := s.Solve(train, train[:1], nil); err != nil {
		t.Fatal(err)
	}
	precious := t.TempDir()
	if err := os.WriteFile(filepath.Join(precious, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(precious); err == nil || !strings.Contains(err.Error(), "holds no saved solution") {
		t.Errorf("Save into a directory of other files: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(precious, "notes.txt")); string(data) != "mine" {
		t.Error("Save changed a directory it refused")
	}
	dir := filepath.Join(t.TempDir(), "a", "task")
	for range 2 { // the second replaces the first
		if err := s.Save(dir); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("%d entries beside the saved solution after replacing it, want 1 (no temporary directory left)", len(entries))
	}
	if _, err := LoadSolution(backend, dir, perCell()); err == nil || !strings.Contains(err.Error(), `architecture "latformer", not "per_cell"`) {
		t.Errorf("another architecture: %v", err)
	}
	loaded, err := LoadSolution(backend, dir, latformer.LatFormerArchitecture())
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	other, _ := examples(t, rng, lattice.Translation{Deltas: []int{0, 1}}, 5, 3, 1)
	if _, err := loaded.Predict(other); err == nil || !strings.Contains(err.Error(), "5x5 canvas, the solution's is 4x4") {
		t.Errorf("test example on another canvas: %v", err)
	}
	if _, err := LoadSolution(backend, t.TempDir(), latformer.LatFormerArchitecture()); err == nil || !strings.Contains(err.Error(), SolutionFile) {
		t.Errorf("a directory without a saved solution: %v", err)
	}
}
