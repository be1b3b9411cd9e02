// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"fmt"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/latformer"
)

// LatticeSearch is the model name of the lattice search alone (`latformer arc --model lattice_search`): no
// network is trained; the top proposal of latformer.Proposals on the task's training pairs (the element of
// the experts' group and the one color table that map every training input to its output), its table
// generalized to the color pairs no training cell has (annotate.Proposal.Generalize), is applied to each
// test input. What a program search over the experts' group, with a color table, gets. With
// gate_init_grid (the default), a task that no canvas element fits is searched again over the size-relative
// elements (latformer.LatticeProposals). Where no plain table fits on either lattice, or the top proposal's
// plain table cannot map a test input, its color-role table (annotate.RoleTable: the pair's background and
// free color named by role) predicts.
const LatticeSearch = "lattice_search"

// solveBySearch solves a task with the lattice search alone: the top proposal's element and color table
// (generalized) applied to each test input. A task without a proposal, or a test input with a color pair the
// generalized table still cannot map, gets no prediction (unsolved).
func (s *Solver) solveBySearch(task datasets.Task) (TaskResult, error) {
	res := TaskResult{ID: task.ID, Model: LatticeSearch}
	canvas := s.Canvas(task)
	res.Canvas = canvas
	start := time.Now()
	train, test, err := taskExamples(task, canvas, nil)
	if err != nil {
		return res, err
	}
	expert := experts.ExpertFromScope(s.store.RootScope(), canvas, canvas)
	proposals, used, err := latformer.LatticeProposals(expert, train, 1, s.grid)
	if err != nil {
		return res, fmt.Errorf("task %s: %w", task.ID, err)
	}
	res.Source, res.Lattice = SourceSearch, "canvas"
	if used.GridLattice {
		res.Lattice = "grid"
	}
	preds := make([]*datasets.Canvas, len(test))
	if len(proposals) > 0 {
		res.Action, res.Fitted, res.HardGates = proposals[0].Action.String(), true, true
		if preds, err = proposalPredictions(proposals[0].Proposal, test); err != nil {
			return res, fmt.Errorf("task %s: %w", task.ID, err)
		}
	}
	res.Seconds = time.Since(start).Seconds()
	res.score(task, preds)
	return res, nil
}
