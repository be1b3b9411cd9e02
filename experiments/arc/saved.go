// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"fmt"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
)

// Save saves the task the last Solve solved in dir (arcsolver.Solver.Save): the fitted learner with GoMLX's
// checkpoint package (variables, gates, hyperparameters) and what its prediction needs (the canvas, the
// settings, the training pairs the lattice search runs on again, the fit). LoadSaved reads it back. Call it
// before the next Solve.
func (s *Solver) Save(dir string) error { return s.solver.Save(dir) }

// Saved is a task's solution loaded from the directory Solver.Save wrote: Solve predicts the task's test
// outputs with it, nothing trained.
type Saved struct {
	saved *arcsolver.SavedSolution
	model string
}

// LoadSaved loads the solution saved in dir (Solver.Save) on backend: the architecture (LatFormer, a
// baseline, or the lattice search alone) and the hyperparameters are the saved ones.
func LoadSaved(backend compute.Backend, dir string) (*Saved, error) {
	name, searchOnly, err := arcsolver.ReadSavedArchitecture(dir)
	if err != nil {
		return nil, err
	}
	arch, err := ModelArchitecture(name)
	if err != nil {
		return nil, fmt.Errorf("saved solution %s: %w", dir, err)
	}
	saved, err := arcsolver.LoadSolution(backend, dir, arch)
	if err != nil {
		return nil, err
	}
	model := name
	if searchOnly {
		model = LatticeSearch
	}
	return &Saved{saved: saved, model: model}, nil
}

// Close releases the loaded model.
func (s *Saved) Close() { s.saved.Close() }

// Solve predicts the task's test outputs with the saved solution (arcsolver.SavedSolution.Predict: the
// task's grids on the saved canvas) and records them as Solver.Solve does: for the task it was saved from,
// the same predictions, second guesses, sources and actions, to the bit; Steps and the fit are the saved
// training's, Seconds this prediction's. Its errors do not name the task, as Solver.Solve's.
func (s *Saved) Solve(task datasets.Task) (TaskResult, error) {
	rows, _ := s.saved.Canvas()
	res := TaskResult{ID: task.ID, Model: s.model, Canvas: rows}
	start := time.Now()
	_, test, err := taskExamples(task, rows, nil)
	if err != nil {
		return res, err
	}
	sol, err := s.saved.Predict(test)
	if err != nil {
		return res, err
	}
	if err := res.fill(task, sol, test, s.model == LatticeSearch); err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
