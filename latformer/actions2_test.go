// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// mirrorCorners returns a pair of the two-action task: a random 3x3 grid x becomes the 6x6 grid with x
// top-left, x mirrored left-right top-right, x mirrored up-down bottom-left and black bottom-right. On
// the 6x6 canvas this is y = f(F₁·x, F₀·x, x) with F₁, F₀ the reflections of columns and rows: one action
// cannot bring the input to both corners.
func mirrorCorners(t *testing.T, rng *rand.Rand) Example {
	t.Helper()
	x := datasets.NewGrid(3, 3, 0)
	for i := range x {
		for j := range x[i] {
			x[i][j] = rng.IntN(10)
		}
	}
	y := datasets.NewGrid(6, 6, 0)
	for i := range 3 {
		for j := range 3 {
			y[i][j], y[i][5-j], y[5-i][j] = x[i][j], x[i][j], x[i][j]
		}
	}
	in, err := datasets.ToCanvas(x, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	out, err := datasets.ToCanvas(y, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	return Example{Input: in, Output: out}
}

// TestTwoActions checks layers.ParamActions = 2 on the mirror-corners task: the learner fits the training
// pairs with hard gates, predicts held-out pairs, and its two actions read back as the two reflections;
// with one action the training pairs do not fit. The experts are reflections only and the gates
// straight-through (experts.ParamStraightThrough): with soft gates both models fit the training pairs
// with a mixture of reflections (and their hard gates do not), and with every expert the gates do not
// find the pair of reflections in 600 steps.
func TestTwoActions(t *testing.T) {
	const settings = "experts=reflection;expert_straight_through=true;" +
		"train_steps=600;augment_copies=4;gate_init_train=soft;train_unproposed_steps=0;latformer_actions="
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	var train, test []Example
	for range 6 {
		train = append(train, mirrorCorners(t, rng))
	}
	for range 20 {
		test = append(test, mirrorCorners(t, rng))
	}
	for _, actions := range []int{2, 1} {
		l := newTestLearner(t, backend, settings+strconv.Itoa(actions), 6)
		fit, preds := fitPredict(t, l, train, test)
		exact := 0
		for i, p := range preds {
			if slices.Equal(p.Canvas.Cells, test[i].Output.Cells) {
				exact++
			}
		}
		t.Logf("%d action(s): fitted %v (hard gates %v) in %d steps, test exact %d/%d, actions %v / %v",
			actions, fit.Fitted, fit.HardGates, fit.Steps, exact, len(preds), preds[0].Action, preds[0].Action2)
		if actions == 1 {
			if fit.Fitted && fit.HardGates {
				t.Errorf("one action fits the two-action task with hard gates (%v)", preds[0].Action)
			}
			continue
		}
		if !fit.Fitted || !fit.HardGates || exact < len(preds)*9/10 {
			t.Errorf("two actions: fitted %v, hard gates %v, test exact %d/%d", fit.Fitted, fit.HardGates, exact, len(preds))
		}
		mask := func(a lattice.Action) *lattice.Matrix {
			m, err := a.Mask([]int{6, 6})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		f0, f1 := mask(lattice.Reflection{Axis: 0}), mask(lattice.Reflection{Axis: 1})
		g1, g2 := mask(preds[0].Action), mask(preds[0].Action2)
		if !(g1.Equal(f0, 0) && g2.Equal(f1, 0)) && !(g1.Equal(f1, 0) && g2.Equal(f0, 0)) {
			t.Errorf("two actions: learned %v and %v, want the two reflections", preds[0].Action, preds[0].Action2)
		}
	}
}
