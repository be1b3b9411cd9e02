// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
)

// overlayExamples makes num pairs of a Boolean overlay of two halves, the kind of ARC task (0520fde7,
// 99b1bc43, e98196ab) whose element the search finds and whose table the soft-gated network did not
// learn: the input is a side x (2·side+1) grid, two side x side halves of colors 0 and 1 (left) and 0 and 3
// (right) split by a column of color 5; the output is the side x side grid with color 2 where op says so
// and 0 elsewhere (2 is a constant color of the rule: no input has it). Its element is the zero-fill
// shift by -(side+1) columns (the right half onto the left), its table op on (right, left). The grids sit
// at the top-left of a canvas x canvas canvas.
func overlayExamples(t testing.TB, rng *rand.Rand, op func(left, right bool) bool, side, canvas, num int) []Example {
	t.Helper()
	out := make([]Example, num)
	for i := range out {
		in := make(datasets.Grid, side)
		want := make(datasets.Grid, side)
		for r := range side {
			in[r] = make([]int, 2*side+1)
			want[r] = make([]int, side)
			in[r][side] = 5
			for c := range side {
				left, right := rng.IntN(2) == 1, rng.IntN(2) == 1
				if left {
					in[r][c] = 1
				}
				if right {
					in[r][side+1+c] = 3
				}
				if op(left, right) {
					want[r][c] = 2
				}
			}
		}
		var err error
		if out[i].Input, err = datasets.ToCanvas(in, canvas, canvas); err != nil {
			t.Fatal(err)
		}
		if out[i].Output, err = datasets.ToCanvas(want, canvas, canvas); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// exactCount counts the test pairs whose predicted canvas equals the expected output.
func exactCount(t testing.TB, l *Learner, test []Example) int {
	t.Helper()
	preds, err := l.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, p := range preds {
		if slices.Equal(p.Canvas.Cells, test[i].Output.Cells) {
			n++
		}
	}
	return n
}

// TestOverlayNoSearchGateBeam checks the search-free recipe on the AND of two halves (gates from their
// initialization, no lattice search): the z family's restart (shift bits at 0.5, zero fill on) trains 200
// soft steps, then the gate beam (train_gate_beam=4) holds each of the 4 elements its soft gates make most
// probable, the same element for every input, and continues the one with the lowest loss: the hard gates
// then fit every training pair and predict every held-out pair. Without the beam (the hard phase of
// train_hard_steps, which holds each input's own hard reading of the gates) the same restart does not fit.
func TestOverlayNoSearchGateBeam(t *testing.T) {
	backend := testutil.Backend(t)
	const recipe = "train_steps=200;train_hard_steps=200;train_restarts=1;train_restart_experts=z;train_gate_beam_steps=25"
	for _, beam := range []int{4, 0} {
		rng := rand.New(rand.NewPCG(41, 3))
		and := func(a, b bool) bool { return a && b }
		train := overlayExamples(t, rng, and, 3, 7, 5)
		test := overlayExamples(t, rng, and, 3, 7, 20)
		l := newTestLearner(t, backend, fmt.Sprintf("%s;train_gate_beam=%d", recipe, beam), 7)
		fit, err := l.Fit(train, nil, nil) // gate_init=paper: no search
		if err != nil {
			t.Fatal(err)
		}
		if fit.Starts != 0 {
			t.Fatalf("gate_init=paper: %d proposals; the recipe must not search", fit.Starts)
		}
		hardFit := fit.Fitted && fit.HardGates
		exact := exactCount(t, l, test)
		t.Logf("beam %d: hard fit %v after %d steps, %d of %d held-out pairs exact", beam, hardFit, fit.Steps, exact, len(test))
		if beam > 0 && (!hardFit || exact != len(test)) {
			t.Errorf("with the gate beam: hard fit %v, %d of %d held-out pairs exact; want a fit and all exact", hardFit, exact, len(test))
		}
		if beam == 0 && hardFit {
			t.Errorf("without the gate beam: hard fit after %d steps; the hard phase on each input's own reading was expected not to fit", fit.Steps)
		}
	}
}

// TestOverlayFitsWithHardGatesAtProposal checks the recipe of gate_init_train=hard on an AND and an XOR
// of two halves with a constant output color: started at the task's element (the one the lattice search
// finds: the zero-fill shift of the right half onto the left) with the gates held there,
// the network fits every training pair with hard gates within the step budget (train_held_steps) and
// predicts held-out pairs exactly; with the soft gates of the paper's training from the same element
// (gate_init_train=soft) and the same budget it does not fit (checked on the AND).
func TestOverlayFitsWithHardGatesAtProposal(t *testing.T) {
	backend := testutil.Backend(t)
	ops := map[string]func(a, b bool) bool{
		"and": func(a, b bool) bool { return a && b },
		"xor": func(a, b bool) bool { return a != b },
	}
	const base = "train_restarts=1;train_held_steps=150;train_steps=150"
	for name, op := range ops {
		rng := rand.New(rand.NewPCG(41, uint64(len(name))))
		train := overlayExamples(t, rng, op, 3, 7, 5)
		test := overlayExamples(t, rng, op, 3, 7, 20)
		modes := []string{ProposalTrainHard, ProposalTrainSoft}
		if name != "and" {
			modes = modes[:1] // the soft comparison once is enough (it costs the whole budget)
		}
		for _, train_ := range modes {
			l := newTestLearner(t, backend, base+";gate_init_train="+train_, 7)
			expert := l.Expert()
			el := experts.Element{Shift: [2]int{0, -4}, ZeroFill: [2]bool{false, true}}
			fit, err := l.Fit(train, &Starts{Expert: expert, Elements: []experts.Element{el}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fit.Starts == 0 || fit.StartedAt != 0 {
				t.Fatalf("%s: %d proposals, kept restart started at %d; want the start", name, fit.Starts, fit.StartedAt)
			}
			hardFit := fit.Fitted && fit.HardGates
			exact := exactCount(t, l, test)
			t.Logf("%s, gates %s: hard fit %v in %d steps, %d of %d held-out pairs exact", name, train_, hardFit, fit.Steps, exact, len(test))
			switch train_ {
			case ProposalTrainHard:
				if !hardFit || fit.Steps >= 150 || exact != len(test) {
					t.Errorf("%s, gates held at the proposal: hard fit %v in %d steps (budget 150), %d of %d held-out pairs exact; want a fit within the budget and all exact",
						name, hardFit, fit.Steps, exact, len(test))
				}
			case ProposalTrainSoft:
				if hardFit {
					t.Errorf("%s, soft gates from the proposal: hard fit in %d steps; the soft mask was expected not to fit within 150", name, fit.Steps)
				}
			}
		}
	}
}
