// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"

	"github.com/gomlx/gomlx/ml/model/checkpoint"
)

// SaveCheckpoint saves the learner's store (its variables, gates and optimizer state included, and its
// hyperparameters) in dir (empty) with GoMLX's checkpoint package; the handler is detached from the store
// afterwards (the store's loader is put back). LearnerCache.LoadCheckpoint reads it back.
func (l *Learner) SaveCheckpoint(dir string) error {
	prev := l.store.Loader()
	defer l.store.SetLoader(prev)
	h, err := checkpoint.Build(l.store).Dir(dir).Done()
	if err != nil {
		return err
	}
	return h.Save()
}

// LoadCheckpoint makes a learner of the cache's architecture and hyperparameters on a rows x cols canvas,
// its variables loaded from the checkpoint Learner.SaveCheckpoint wrote in dir, predicting with soft gates
// (softGates) or hard ones, for conditioning vectors of condDim (0: none). It builds the prediction graphs
// and checks that every variable they use was in the checkpoint (none initialized anew). The learner is
// not the cache's: Close it.
func (c *LearnerCache) LoadCheckpoint(dir string, rows, cols int, softGates bool, condDim int) (*Learner, error) {
	store, err := NewStoreFor(c.arch, c.settings)
	if err != nil {
		return nil, err
	}
	if _, err := checkpoint.Load(store).Dir(dir).ExcludeAllParams().Immediate().Done(); err != nil {
		return nil, fmt.Errorf("loading the checkpoint: %w", err)
	}
	saved := map[string]bool{}
	for v := range store.IterVariables() {
		saved[v.Path()] = true
	}
	l, err := NewLearnerFor(c.arch, c.backend, store, rows, cols)
	if err != nil {
		return nil, err
	}
	l.useSoft, l.condDim = softGates, condDim
	if _, err := l.prepare(0, false); err != nil {
		l.close()
		return nil, err
	}
	for v := range store.IterVariables() {
		if !saved[v.Path()] {
			l.close()
			return nil, fmt.Errorf("variable %s of the model is not in the checkpoint", v.Path())
		}
	}
	return l, nil
}

// SoftGates reports whether the learner predicts with soft gates (Fit keeps them when only they fit the
// training pairs).
func (l *Learner) SoftGates() bool { return l.useSoft }

// CondDim is the length of the conditioning vectors the learner was fitted with (0: none; -1 before Fit).
func (l *Learner) CondDim() int { return l.condDim }

// Close releases the compiled graphs and variables of a learner that is not a LearnerCache's (one
// LoadCheckpoint made, or NewLearner's); the cache closes its own.
func (l *Learner) Close() { l.close() }
