// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

// TestGateBeamNeighbors checks train_gate_beam_neighbors inside Fit, without a search: on a circular
// translation by one row of a 6 × 6 canvas, a restart with the translation gates alone free, no soft steps
// (train_steps=0) and a beam of one element holds the gates' initial reading, the identity, which cannot fit;
// with the neighbors the beam also holds the four elements one step from it, translate(1,0) among them, and
// the restart fits the training pairs with hard gates and predicts every held-out pair (on minibatches of 4
// pairs, so the candidates are compared by their probe's mean loss).
func TestGateBeamNeighbors(t *testing.T) {
	backend := testutil.Backend(t)
	const recipe = "expert_zero_fill=false;train_steps=0;train_restarts=1;train_restart_experts=t;" +
		"train_gate_beam=1;train_gate_beam_steps=25;train_hard_steps=150;train_batch_pairs=4;augment_copies=4"
	for _, neighbors := range []string{"true", "false"} {
		rng := rand.New(rand.NewPCG(7, 1))
		action := lattice.Translation{Deltas: []int{1, 0}}
		train, _ := examples(t, rng, action, 6, 4, 8)
		test, _ := examples(t, rng, action, 6, 4, 20)
		l := newTestLearner(t, backend, recipe+";train_gate_beam_neighbors="+neighbors, 6)
		fit, err := l.Fit(train, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		hardFit := fit.Fitted && fit.HardGates
		exact := exactCount(t, l, test)
		t.Logf("neighbors %s: hard fit %v after %d steps, %d of %d held-out pairs exact", neighbors, hardFit, fit.Steps, exact, len(test))
		switch neighbors {
		case "true":
			if !hardFit || exact != len(test) {
				t.Errorf("with the neighbors: hard fit %v, %d of %d held-out pairs exact; want a fit and all exact", hardFit, exact, len(test))
			}
		case "false":
			if hardFit {
				t.Errorf("without the neighbors: hard fit after %d steps; the beam's one element (the identity) was expected not to fit", fit.Steps)
			}
		}
	}
}

// TestFitChecksStoreValues checks that Fit rejects, before any training, a hyperparameter value set in the
// store directly (not through ParseSettings) that its declaration does not accept, naming the key.
func TestFitChecksStoreValues(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(7, 1))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 0}}, 6, 4, 4)
	for key, bad := range map[string]any{ParamGateBeamSteps: 0, ParamRestarts: 0, ParamGateInitTrain: "held", ParamBatchPairs: -1} {
		l := newTestLearner(t, backend, "train_steps=1", 6)
		l.store.SetParam(key, bad)
		if _, err := l.Fit(train, nil, nil); err == nil || !strings.Contains(err.Error(), key+"=") {
			t.Errorf("%s=%v: got %v, want an error naming the key", key, bad, err)
		}
	}
}
