package latformer

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/lattice"
)

// TestHardSteps checks the hard phase (train_hard_steps): its steps are counted, a hard phase that
// does not end in a hard fit is undone (the learner predicts as without it), and during it the gating
// FFNs do not move at all while the rest of the model trains.
func TestHardSteps(t *testing.T) {
	backend := testBackend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	test, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	const base = "train_steps=10;augment_copies=3;fit_patience=0;train_restarts=1"
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
	run := &fitRun{examples: train, padded: train, pairs: len(train), copies: 3, batch: 3 * len(train)}
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

// TestRestartExperts checks train_restart_experts: a restart limited to translations learns a mirror
// task with no flip, rotation or scaling open, and a bad schedule entry is an error naming the key.
func TestRestartExperts(t *testing.T) {
	backend := testBackend(t)
	rng := rand.New(rand.NewPCG(31, 32))
	mirror := lattice.Reflection{Axis: 1}
	train, _ := examples(t, rng, mirror, 6, 4, 3)
	test, _ := examples(t, rng, mirror, 6, 4, 2)
	const base = "train_steps=40;augment_copies=3;train_restarts=1"
	_, preds := fitPredict(t, newTestLearner(t, backend, base+";train_restart_experts=t", 6), train, test)
	for i, p := range preds {
		for _, name := range []string{"reflection", "rotation", "transpose"} {
			for _, v := range p.Gates[name] {
				if v != 0 {
					t.Errorf("prediction %d: %s gates %v with translation-only restarts", i, name, p.Gates[name])
				}
			}
		}
		if s := p.Gates["scale"]; s[0] != 1 || s[len(s)/2] != 1 {
			t.Errorf("prediction %d: scaling gates %v, want factor 1 on both axes", i, s)
		}
	}
	l := newTestLearner(t, backend, "train_steps=2;augment_copies=2;train_restarts=2;train_restarts_stop_at_fit=false;train_restart_experts=all,q", 6)
	if _, err := l.Fit(train, nil); err == nil || !strings.Contains(err.Error(), ParamRestartExperts) {
		t.Errorf("bad schedule: error %v, want one naming %s", err, ParamRestartExperts)
	}
}
