// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"
)

// LearnerCache keeps one Learner per canvas and hands it out again, reset, for every later task on the
// same canvas. A task's graphs depend only on its canvas, its batch shape and the hyperparameters, so
// they are compiled once per canvas and batch shape instead of once per task. ParamPadPairs > 1 keeps
// the batch shapes few. This matters on XLA, where compiling takes seconds per task.
//
// A LearnerCache is not safe for concurrent use: give each worker its own, on its own backend.
type LearnerCache struct {
	arch     Architecture
	backend  compute.Backend
	settings hparams.Settings
	learners map[[2]int]*Learner
}

// NewLearnerCache returns an empty cache whose learners use the backend and settings. Bad settings are
// an error here, before any work.
func NewLearnerCache(backend compute.Backend, settings hparams.Settings) (*LearnerCache, error) {
	return NewLearnerCacheFor(LatFormerArchitecture(), backend, settings)
}

// NewLearnerCacheFor is NewLearnerCache for another architecture.
func NewLearnerCacheFor(arch Architecture, backend compute.Backend, settings hparams.Settings) (*LearnerCache, error) {
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	if settings, err = t.Check(settings); err != nil {
		return nil, err
	}
	return &LearnerCache{arch: arch, backend: backend, settings: settings, learners: map[[2]int]*Learner{}}, nil
}

// Learner returns a learner for a rows x cols canvas, as good as new, and whether it was reused.
func (c *LearnerCache) Learner(rows, cols int) (l *Learner, reused bool, err error) {
	key := [2]int{rows, cols}
	if l = c.learners[key]; l != nil {
		if err := l.Reset(); err != nil {
			return nil, false, err
		}
		return l, true, nil
	}
	store, err := NewStoreFor(c.arch, c.settings)
	if err != nil {
		return nil, false, err
	}
	if l, err = NewLearnerFor(c.arch, c.backend, store, rows, cols); err != nil {
		return nil, false, err
	}
	c.learners[key] = l
	return l, false, nil
}

// Len is the number of canvases the cache holds learners for.
func (c *LearnerCache) Len() int { return len(c.learners) }

// Close releases the compiled graphs and variables of every cached learner.
func (c *LearnerCache) Close() {
	for _, l := range c.learners {
		l.close()
	}
	c.learners = map[[2]int]*Learner{}
}

// close releases the learner's compiled graphs and variables.
func (l *Learner) close() {
	for _, e := range []*model.Exec{l.stepExec, l.hardStepExec, l.predExec, l.softExec} {
		if e != nil {
			e.Finalize()
		}
	}
	l.store.Finalize()
	l.stepExec, l.hardStepExec, l.predExec, l.softExec, l.opt = nil, nil, nil, nil, nil
}
