// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/experts"
	latlayers "github.com/latformer/latformer/layers"
)

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
