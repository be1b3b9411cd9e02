// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// TestSolverSearchesOnce checks that Solve runs the lattice search once per task and only when a setting
// asks for it: with gate_init=search once, and the kept restart started at its first proposal (Fit
// searches nothing itself), on a canvas task and on a size-relative one (solved with the grid lattice);
// with gate_init=paper never; with gate_init=paper and search_screen once, its proposals unused.
func TestSolverSearchesOnce(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(3, 37))
	translate, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	flip := gridFlipTask(t, rng, 0, 4)
	const base = "train_steps=150;augment_copies=2;train_restarts=2"
	cases := []struct {
		name, settings string
		train          []latformer.Example
		searches       int
		lattice        string
		proposals      bool
	}{
		{"search, canvas", base, translate, 1, "canvas", true},
		{"search, grid", base, flip, 1, "grid", true},
		{"paper", base + ";gate_init=paper", translate, 0, "", false},
		{"paper, screen", base + ";gate_init=paper;search_screen=true", translate, 1, "canvas", false},
	}
	for _, c := range cases {
		s, err := New(backend, parse(t, c.settings), Options{})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(c.train, c.train[:1], nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.searches != c.searches || sol.Lattice != c.lattice || (sol.Fit.Starts > 0) != c.proposals {
			t.Errorf("%s: %d searches, lattice %q, %d restarts started at a proposal; want %d, %q, proposals %v",
				c.name, s.searches, sol.Lattice, sol.Fit.Starts, c.searches, c.lattice, c.proposals)
		}
		if c.proposals && (sol.Fit.StartedAt != 0 || sol.Source != SourceNetwork || !sol.Fit.Fitted) {
			t.Errorf("%s: kept restart started at %d, source %q, fitted %v; want proposal 0, the network, fitted", c.name, sol.Fit.StartedAt, sol.Source, sol.Fit.Fitted)
		}
	}
}

// TestFitTakesTheSearchGiven checks Fit's side of the contract: a search whose proposals are elements of
// another expert (the grid lattice's, for a canvas learner) is an error, and so is a search given to a
// model without mask experts; with the learner's own search the kept restart starts at its first proposal.
func TestFitTakesTheSearchGiven(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 37))
	train := gridFlipTask(t, rng, 1, 4)
	props, used, err := LatticeProposals(experts.DefaultExpert(7, 7), train, 2, true)
	if err != nil || len(props) == 0 || !used.Lattice.SizeRelative() {
		t.Fatalf("grid proposals: %d, grid lattice %v, %v", len(props), used.Lattice, err)
	}
	grid := (&Search{Proposals: props, Expert: used}).starts(train)
	const settings = "train_steps=5;augment_copies=1;train_restarts=1"
	if _, err := newTestLearner(t, backend, settings, 7).Fit(train, grid, nil); err == nil || !strings.Contains(err.Error(), "another expert") {
		t.Errorf("grid proposals for a canvas learner: error %v, want one naming another expert", err)
	}
	l := newTestLearner(t, backend, settings+";expert_lattice=grid", 7)
	fit, err := l.Fit(train, grid, nil)
	if err != nil || fit.Starts != 1 || fit.StartedAt != 0 {
		t.Errorf("grid proposals for a grid learner: %d started at a proposal, kept %d, %v; want 1 and 0", fit.Starts, fit.StartedAt, err)
	}
	arch := perCell()
	cell, err := latformer.NewLearnerFor(arch, backend, mustStore(t, arch, settings), 7, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cell.Fit(train, &latformer.Starts{Expert: cell.Expert()}, nil); err == nil || !strings.Contains(err.Error(), "mask experts") {
		t.Errorf("a search for a model without mask experts: error %v", err)
	}
}

// TestUseProposal checks the fallback's rule: the top proposal predicts when no restart's hard gates fit
// the training pairs, or when they fit with the proposal's own element and predict otherwise; never when
// the hard gates fit another element, nor when its table leaves a test input without a prediction (a
// network prediction is not replaced by an empty one).
func TestUseProposal(t *testing.T) {
	one := &datasets.Canvas{Rows: 1, Cols: 1, Cells: []int32{1}}
	two := &datasets.Canvas{Rows: 1, Cols: 1, Cells: []int32{2}}
	hard := latformer.FitResult{Fitted: true, HardGates: true}
	cases := []struct {
		name              string
		fit               latformer.FitResult
		same              bool
		network, searched []*datasets.Canvas
		want              bool
	}{
		{"hard fit, same element, same predictions", hard, true, []*datasets.Canvas{one}, []*datasets.Canvas{one}, false},
		{"hard fit, same element, other predictions", hard, true, []*datasets.Canvas{one}, []*datasets.Canvas{two}, true},
		{"hard fit, another element", hard, false, []*datasets.Canvas{one}, []*datasets.Canvas{two}, false},
		{"hard fit, same element, proposal leaves one empty", hard, true, []*datasets.Canvas{one, one}, []*datasets.Canvas{two, nil}, false},
		{"soft fit only", latformer.FitResult{Fitted: true}, false, []*datasets.Canvas{one, one}, []*datasets.Canvas{one, two}, true},
		{"no fit", latformer.FitResult{}, false, []*datasets.Canvas{one}, []*datasets.Canvas{two}, true},
		{"no fit, one test input unpredicted", latformer.FitResult{}, false, []*datasets.Canvas{one, one}, []*datasets.Canvas{one, nil}, false},
		{"soft fit, the only test input unpredicted", latformer.FitResult{Fitted: true}, false, []*datasets.Canvas{one}, []*datasets.Canvas{nil}, false},
	}
	for _, c := range cases {
		if got := useProposal(c.fit, c.same, c.network, c.searched); got != c.want {
			t.Errorf("%s: useProposal %v, want %v", c.name, got, c.want)
		}
	}
}
