// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// Step 5 of a task (doc.go): the shift-softmax fit, the canvas learner again with its translation gates a
// softmax over each axis's shifts (fitShifts).

import (
	"fmt"
	"strings"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// laterStages says whether the search-free solver may fit again after the canvas fit: on candidate
// frames (fitFrames) or with softmax shifts (fitShifts).
func (s *Solver) laterStages() bool { return s.frames > 0 || s.shiftRestarts != "" }

// tryShifts says whether a task goes on to the shift-softmax fit (fitShifts). It does when the solver
// has ParamShiftRestarts, the search did not start the fit, and the fit kept so far, as rankedFit ranks
// it, has no hard gates that fit the training pairs.
func (s *Solver) tryShifts(start *Search, fit latformer.FitResult) bool {
	return s.shiftRestarts != "" && start == nil &&
		s.opts.Architecture.Name == latformer.LatFormerArchitecture().Name && !(fit.Fitted && fit.HardGates)
}

// shiftsVariant returns the learners of the shift-softmax fit: the solver's, with softmax translation
// gates, one restart per entry of ParamShiftRestarts, and only the experts those restarts free
// (experts.FreedExperts: the others would stay at the identity in every restart, so the graph leaves
// them out, and "t" trains the translation expert alone).
func (s *Solver) shiftsVariant() (*latformer.LearnerCache, error) {
	schedule := strings.Split(s.shiftRestarts, ",")
	freed, err := experts.FreedExperts(experts.Param[string](s.store.RootScope(), experts.ParamExperts), schedule)
	if err != nil {
		return nil, err
	}
	if freed == "" {
		return nil, fmt.Errorf("%s=%s frees none of the model's experts (%s)", ParamShiftRestarts, s.shiftRestarts,
			experts.Param[string](s.store.RootScope(), experts.ParamExperts))
	}
	return s.variant("shifts", s.learning.With(
		hparams.Setting{Key: experts.ParamExperts, Value: freed},
		hparams.Setting{Key: experts.ParamTranslationGates, Value: experts.TranslationGatesSoftmax},
		hparams.Setting{Key: latformer.ParamRestarts, Value: len(schedule)},
		hparams.Setting{Key: latformer.ParamRestartExperts, Value: s.shiftRestarts}))
}

// fitShifts fits the shift-softmax learner on the training examples. It keeps that learner when it fits
// better than the fit kept so far, as ranked (keepStage), and returns it, else nil.
func (s *Solver) fitShifts(
	sol *Solution, ranked latformer.FitResult, train []latformer.Example, progress func(latformer.Progress),
) (*latformer.Learner, error) {
	cache, err := s.shiftsVariant()
	if err != nil {
		return nil, err
	}
	learner, _, err := cache.Learner(train[0].Input.Rows, train[0].Input.Cols)
	if err != nil {
		return nil, err
	}
	fit, err := learner.Fit(train, nil, progress)
	if err != nil {
		return nil, fmt.Errorf("the softmax shifts: %w", err)
	}
	if !keepStage(sol, ranked, fit) {
		s.last.fit = sol.Fit
		return nil, nil
	}
	s.last.learner, s.last.fit, s.last.frames, s.last.shifts = learner, sol.Fit, nil, true
	return learner, nil
}
