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
// settings, the training pairs the lattice search runs on again, the fit). LoadSolution reads it back. Call it
// before the next Solve.
func (s *Solver) Save(dir string) error { return s.solver.Save(dir) }

// SavedSolution is a task's solution loaded from the directory Solver.Save wrote (arcsolver.SavedSolution
// for ARC tasks): Solve predicts the task's test outputs with it, nothing trained.
type SavedSolution struct {
	saved *arcsolver.SavedSolution
	model string
}

// LoadSolution loads the solution saved in dir (Solver.Save) on backend: the architecture (LatFormer, a
// baseline, or the lattice search alone) and the hyperparameters are the saved ones.
func LoadSolution(backend compute.Backend, dir string) (*SavedSolution, error) {
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
	return &SavedSolution{saved: saved, model: model}, nil
}

// Close releases the loaded model.
func (s *SavedSolution) Close() { s.saved.Close() }

// Solve predicts the task's test outputs with the saved solution (arcsolver.SavedSolution.Predict: the
// task's grids on the saved canvas) and records them as Solver.Solve does: for the task it was saved from,
// the same predictions, second guesses, sources and actions, to the bit; Steps and the fit are the saved
// training's, Seconds this prediction's. Its errors do not name the task, as Solver.Solve's.
func (s *SavedSolution) Solve(task datasets.Task) (Result, error) {
	rows, _ := s.saved.Canvas()
	res := Result{ID: task.ID, Model: s.model, Canvas: rows, Loaded: true}
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
