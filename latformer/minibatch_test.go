// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/latformer/latformer/lattice"
)

// TestDrawMinibatch checks that minibatches are shuffled passes: within a pass every example is drawn
// exactly once, and two passes come in different orders.
func TestDrawMinibatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	exs := make([]Example, 24)
	for i := range exs {
		exs[i].Cond = []float32{float32(i)} // an id to recognize the example by
	}
	run := fitRun{fitSettings: fitSettings{examples: exs, minibatch: 4, pairs: 4}, order: make([]int, len(exs))}
	for i := range run.order {
		run.order[i] = i
	}
	run.next = len(run.order)
	var passes [2][]int
	for p := range passes {
		for range len(exs) / run.minibatch {
			run.drawMinibatch(rng)
			if len(run.padded) != 4 {
				t.Fatalf("minibatch of %d examples, want 4", len(run.padded))
			}
			for _, ex := range run.padded {
				passes[p] = append(passes[p], int(ex.Cond[0]))
			}
		}
		sorted := slices.Sorted(slices.Values(passes[p]))
		for i, id := range sorted {
			if id != i {
				t.Fatalf("pass %d drew %v: not every example once", p, passes[p])
			}
		}
	}
	if slices.Equal(passes[0], passes[1]) {
		t.Errorf("two passes in the same order %v: not reshuffled", passes[0])
	}
}

// TestMinibatchFit checks train_batch_pairs: with minibatches of 8 of 24 pairs the learner still learns a
// translation exactly on held-out inputs, and a minibatch at least as large as the training set trains
// exactly as without minibatches (same steps, same loss).
func TestMinibatchFit(t *testing.T) {
	backend := testutil.Backend(t)
	action := lattice.Translation{Deltas: []int{1, 2}}
	rng := rand.New(rand.NewPCG(5, 99))
	train, _ := examples(t, rng, action, 6, 4, 24)
	test, want := examples(t, rng, action, 6, 4, 20)
	l := newTestLearner(t, backend, "train_steps=400;augment_copies=4;train_batch_pairs=8;train_restarts=1", 6)
	res, preds := fitPredict(t, l, train, test)
	exact := 0
	for i, p := range preds {
		if slices.Equal(p.Canvas.Cells, want[i].Cells) {
			exact++
		}
	}
	t.Logf("minibatches of 8 of 24 pairs: %d steps, fitted %v, test %d/%d", res.Steps, res.Fitted, exact, len(preds))
	if !res.Fitted || exact != len(preds) {
		t.Errorf("minibatches: fitted %v, test exact %d/%d; want a fit and every test pair", res.Fitted, exact, len(preds))
	}

	few := train[:6]
	a := newTestLearner(t, backend, "train_steps=30;augment_copies=2;train_restarts=1", 6)
	b := newTestLearner(t, backend, "train_steps=30;augment_copies=2;train_restarts=1;train_batch_pairs=6", 6)
	ra, _ := fitPredict(t, a, few, test)
	rb, _ := fitPredict(t, b, few, test)
	if ra.Steps != rb.Steps || ra.Loss != rb.Loss {
		t.Errorf("train_batch_pairs=6 on 6 pairs: %d steps, loss %g; without: %d steps, loss %g; want the same", rb.Steps, rb.Loss, ra.Steps, ra.Loss)
	}
}
