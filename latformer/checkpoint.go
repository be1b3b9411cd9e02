// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"

	"github.com/gomlx/gomlx/ml/model/checkpoint"
)

// SaveCheckpoint saves the learner's store, variables and hyperparameters, in the empty dir with GoMLX's
// checkpoint package. LearnerCache.LoadCheckpoint reads it back.
func (l *Learner) SaveCheckpoint(dir string) error {
	prev := l.store.Loader()
	defer l.store.SetLoader(prev)
	h, err := checkpoint.Build(l.store).Dir(dir).Done()
	if err != nil {
		return err
	}
	return h.Save()
}

// LoadCheckpoint makes a learner on a rows x cols canvas from the checkpoint that Learner.SaveCheckpoint
// wrote in dir, with the cache's architecture and hyperparameters. It predicts with soft gates when
// softGates is set, else with hard ones; condDim is the conditioning vectors' length (0: none). It
// checks that the checkpoint holds every variable the prediction graphs use. The caller must Close the
// learner.
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

// Close releases the graphs and variables of a learner that is not a LearnerCache's.
func (l *Learner) Close() { l.close() }
