// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

// How a restart of Fit begins: its variables' initial values (reinitialize; Reset for the learner's own), the
// experts whose gates learn (restrictExperts), and the snapshots of the variables that a restart keeps and brings
// back.

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/experts"
	latlayers "github.com/latformer/latformer/layers"
)

// restart runs restart r of Fit from its own initialization. Its entry of ParamRestartExperts says
// which experts' gates learn. For r < len(run.starts) the gates start at start r. Otherwise, for an
// entry with z, v or h (experts.ZeroFillFamily), the translation gates start at the centre of the
// zero-fill shifts (experts.Expert.ZeroFillStart).
func (l *Learner) restart(run *fitRun, r int) (restartOutcome, error) {
	if r > 0 {
		if err := l.reinitialize(r); err != nil {
			return restartOutcome{}, err
		}
	}
	entry := r % len(run.schedule)
	if err := l.restrictExperts(run.freeMasks[entry], run.schedule[entry]); err != nil {
		return restartOutcome{}, err
	}
	switch {
	case r < len(run.starts):
		if err := l.startAt(run.starts[r], run.margin); err != nil {
			return restartOutcome{}, fmt.Errorf("starting at element %d: %w", r, err)
		}
	case experts.ZeroFillFamily(run.schedule[entry]):
		if err := l.startZeroFill(); err != nil {
			return restartOutcome{}, fmt.Errorf("restart %d (%s=%s): %w",
				r, ParamRestartExperts, run.schedule[entry], err)
		}
	}
	run.restart = r
	return l.fitOnce(run)
}

// Reset makes the learner as good as new for another task on the same canvas, keeping the compiled
// graphs. Every variable, optimizer state included, gets back its initial value, and the augmentation's
// random numbers restart from the seed. Fit and Predict then give what a new learner with the same
// hyperparameters gives (TestLearnerResetMatchesNew). The conditioning vectors' length stays that of
// the first examples.
func (l *Learner) Reset() error {
	if err := l.restore(l.initial); err != nil {
		return fmt.Errorf("latformer.Learner.Reset: %w", err)
	}
	l.rng = newAugmentationRNG(l.seed, 0)
	l.useSoft = false
	return nil
}

// restartSeed is the initialization seed of restart r > 0.
func restartSeed(seed, r int) int64 { return int64(seed) + 7919*int64(r) }

// reinitialize gives every variable the initial value of restart r > 0. The trainable ones are drawn
// again by their initializers from restartSeed. They are drawn once and kept, so that a reused learner
// starts its restarts from the same values. The others, the optimizer's state, get their initial values.
func (l *Learner) reinitialize(r int) error {
	if init, ok := l.restartInitial[r]; ok {
		return l.restore(init)
	}
	if err := l.restore(l.initial); err != nil {
		return err
	}
	for v := range l.store.IterVariables() {
		if v.Trainable {
			if err := v.Reset(); err != nil {
				return err
			}
		}
	}
	if err := l.store.SetRNGStateFromSeed(restartSeed(l.seed, r)); err != nil {
		return err
	}
	if err := backend.InitializeVariables(l.store, l.backend); err != nil {
		return err
	}
	init, err := l.snapshot()
	if err != nil {
		return err
	}
	l.restartInitial[r] = init
	return nil
}

// snapshot copies every variable's current value.
func (l *Learner) snapshot() (map[string]*tensors.Tensor, error) {
	out := map[string]*tensors.Tensor{}
	for v := range l.store.IterVariables() {
		if !v.HasValue() {
			continue
		}
		value, err := v.Value()
		if err != nil {
			return nil, err
		}
		if out[v.Path()], err = value.LocalClone(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// restore sets every variable in values (a snapshot) to a copy of its value there.
func (l *Learner) restore(values map[string]*tensors.Tensor) error {
	for path, t := range values {
		v := l.store.GetVariable(path)
		if v == nil {
			return fmt.Errorf("variable %s is gone from the store", path)
		}
		value, err := t.LocalClone()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := v.SetValue(value); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// finalizeAll frees the tensors of a snapshot.
func finalizeAll(values map[string]*tensors.Tensor) {
	for _, t := range values {
		t.MustFinalizeAll()
	}
}

// restrictExperts sets the free-gate mask of every mask expert of the model (experts.Expert.FreeGates of
// families; "all": every gate free).
func (l *Learner) restrictExperts(free []float32, families string) error {
	found := false
	for v := range l.store.IterVariables() {
		if g, ok := experts.GateVariableOf(v.Path()); !ok || g.Part != experts.GateFree {
			continue
		}
		if got := v.Shape().Size(); got != len(free) {
			return fmt.Errorf("variable %s has %d gates, the expert %d", v.Path(), got, len(free))
		}
		if err := v.SetValue(tensors.FromValue(free)); err != nil {
			return err
		}
		found = true
	}
	if !found && families != "all" {
		return fmt.Errorf("%s=%s: the model has no mask expert (no free-gate variable, experts.GateFree)",
			ParamRestartExperts, families)
	}
	return nil
}

// firstExpertGate returns which gating part the variable at path is, when it is the last layer or the
// free-gate mask of a layer's first mask expert, else 0.
func firstExpertGate(path string) experts.GatePart {
	if g, ok := experts.GateVariableOf(path); ok && g.ExpertScopeName() == latlayers.ExpertScope {
		return g.Part
	}
	return 0
}
