// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/latformer/latformer/lattice"
)

// TestHardSteps checks the hard phase (train_hard_steps): its steps are counted, a hard phase that
// does not end in a hard fit is undone (the learner predicts as without it), and during it the gating
// FFNs do not move at all while the rest of the model trains.
func TestHardSteps(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	test, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	const base = "train_steps=10;augment_copies=3;fit_patience=0;train_restarts=1;gate_init_train=soft"
	plainFit, plain := fitAndPredict(t, newTestLearner(t, backend, base, 6), train, test)
	l := newTestLearner(t, backend, base+";train_hard_steps=10", 6)
	hardFit, hard := fitAndPredict(t, l, train, test)
	if plainFit.TotalSteps != 10 || hardFit.TotalSteps != 20 {
		t.Errorf("total steps %d without and %d with 10 hard steps, want 10 and 20", plainFit.TotalSteps, hardFit.TotalSteps)
	}
	// fit_patience=0: the hard phase never stops at a fit, so it is undone.
	if hardFit.Fitted || math.Abs(hardFit.Loss-plainFit.Loss) > 1e-6 {
		t.Errorf("after an undone hard phase: fitted %v, loss %.6f; without it %.6f", hardFit.Fitted, hardFit.Loss, plainFit.Loss)
	}
	for i := range plain {
		if !slices.Equal(plain[i], hard[i]) {
			t.Fatalf("prediction %d differs after an undone hard phase", i)
		}
	}

	// Five more hard steps on the trained learner: gate variables bit-identical, the others moved.
	before, err := l.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer finalizeAll(before)
	run := &fitRun{fitSettings: fitSettings{examples: train, padded: train, pairs: len(train), copies: 3, batch: 3 * len(train)}}
	var out restartOutcome
	if _, err := l.trainPhase(run, l.hardStepExec, 5, 0, l.rng, time.Now(), &out); err != nil {
		t.Fatal(err)
	}
	after, err := l.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer finalizeAll(after)
	gates, moved := 0, 0
	for path, t0 := range before {
		same := t0.Equal(after[path])
		switch {
		case isGateVariable(path):
			gates++
			if !same {
				t.Errorf("gate variable %s moved during the hard phase", path)
			}
		case !same:
			moved++
		}
	}
	if gates == 0 || moved == 0 {
		t.Errorf("%d gate variables checked, %d other variables moved: want both > 0", gates, moved)
	}
}

// TestRestartExperts checks train_restart_experts through the soft gates after training: restricted to
// translations, the reflection, rotation and transpose gates are held shut (exactly 0: experts.TinyGate)
// and the scaling softmax on factor 1, while with every expert free the same gates sit near their initial sigmoid(-2);
// a bad entry anywhere in the schedule is an error naming the key, before any training.
func TestRestartExperts(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(31, 32))
	mirror := lattice.Reflection{Axis: 1}
	train, _ := examples(t, rng, mirror, 6, 4, 3)
	const base = "train_steps=20;augment_copies=3;train_restarts=1;fit_patience=0"
	softGates := func(families string) Prediction {
		l := newTestLearner(t, backend, base+";train_restart_experts="+families, 6)
		if _, err := l.Fit(train, nil, nil); err != nil {
			t.Fatal(err)
		}
		preds, err := l.predict(train[:1], true)
		if err != nil {
			t.Fatal(err)
		}
		return preds[0]
	}
	held, free := softGates("t"), softGates("all")
	for _, name := range []string{"reflection", "rotation", "transpose"} {
		for i, v := range held.Gates[name] {
			if v > 1e-6 {
				t.Errorf("translation only: %s gate %d = %g, want held shut", name, i, v)
			}
			if f := free.Gates[name][i]; f < 1e-3 {
				t.Errorf("every expert free: %s gate %d = %g, want near its initial value", name, i, f)
			}
		}
	}
	if s := held.Gates["scale"]; s[0] < 1-1e-6 || s[len(s)/2] < 1-1e-6 {
		t.Errorf("translation only: scaling gates %v, want factor 1 on both axes", s)
	}
	if tr := held.Gates["translation"]; slices.Equal(tr, make([]float64, len(tr))) {
		t.Errorf("translation only: translation gates %v all held too", tr)
	}
	// restart 3's entry is bad and restart 3 never runs (one restart): still an error, when the settings are
	// read; and in a store given the value directly, when Fit starts, before training.
	const bad = "all,t,q"
	if _, err := ParseSettings("train_steps=2;train_restarts=1;train_restart_experts=" + bad); err == nil || !strings.Contains(err.Error(), ParamRestartExperts) {
		t.Errorf("bad schedule in the settings: error %v, want one naming %s", err, ParamRestartExperts)
	}
	store, err := NewStore(parse(t, "train_steps=2;augment_copies=2;train_restarts=1"))
	if err != nil {
		t.Fatal(err)
	}
	store.SetParam(ParamRestartExperts, bad)
	l, err := NewLearner(backend, store, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Fit(train, nil, nil); err == nil || !strings.Contains(err.Error(), ParamRestartExperts) {
		t.Errorf("bad schedule in the store: error %v, want one naming %s", err, ParamRestartExperts)
	}
}

// TestHardPatience checks train_hard_patience: the held phase stops once its loss stalls (with a learning
// rate of 0 it never falls, so it stops at its first check, two windows in), and a falling loss goes on.
func TestHardPatience(t *testing.T) {
	falling, flat := make([]float64, 40), make([]float64, 40)
	for i := range falling {
		falling[i], flat[i] = math.Pow(0.99, float64(i)), 1
	}
	if stalled(falling, 10) || stalled(flat[:19], 10) || stalled(flat[:21], 10) || !stalled(flat[:20], 10) ||
		!stalled(flat[:30], 10) {
		t.Error("stalled: want true for a flat loss at 20 and 30 steps (windows of 10, checked every 10 steps), " +
			"false for a loss falling 1% a step, and between checks")
	}
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	const base = "train_steps=10;augment_copies=3;fit_patience=0;train_restarts=1;gate_init_train=soft;" +
		"learning_rate=0;train_hard_steps=100"
	for _, c := range []struct {
		set  string
		want int
	}{{"", 110}, {";train_hard_patience=5", 20}, {";train_hard_patience=20", 50}} {
		res, err := newTestLearner(t, backend, base+c.set, 6).Fit(train, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalSteps != c.want {
			t.Errorf("%q: %d steps, want %d", c.set, res.TotalSteps, c.want)
		}
	}
}
