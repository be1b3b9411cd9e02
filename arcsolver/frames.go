// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// Step 4 of a task (doc.go): the frames fit, a second learner whose expert learns its frame among candidate frames
// read off the inputs (fitFrames).

import (
	"fmt"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/search"
)

// tryFrames says whether a task goes on to the candidate frames (fitFrames). It does when the solver
// has them, the search did not start the fit, and no restart's hard gates fitted on the canvas (as
// rankedFit ranks the fit).
func (s *Solver) tryFrames(start *Search, fit latformer.FitResult) bool {
	return s.frames > 0 && start == nil && s.opts.Architecture.Name == latformer.LatFormerArchitecture().Name &&
		!(fit.Fitted && fit.HardGates)
}

// fitFrames fits a second learner, whose expert acts on a frame it learns among the task's candidate
// frames (FrameCandidates). It keeps that learner when it fits better than the canvas fit as ranked
// (latformer.FitResult.BetterThan, rankedFit) and returns it, else nil. sol.Fit gets the kept fit, with
// the restarts and steps of both counted and the other fit's SoftTop after the kept one's.
func (s *Solver) fitFrames(
	sol *Solution, ranked latformer.FitResult, train []latformer.Example, progress func(latformer.Progress),
) (*latformer.Learner, error) {
	rules := FrameCandidates(train, s.frames)
	if _, ok := experts.FrameExperts(s.learning); len(rules) == 0 || !ok {
		return nil, nil
	}
	cache, err := s.framesVariant(len(rules))
	if err != nil {
		return nil, err
	}
	learner, _, err := cache.Learner(train[0].Input.Rows, train[0].Input.Cols)
	if err != nil {
		return nil, err
	}
	fit, err := learner.Fit(WithFrameCandidates(rules, train), nil, progress)
	if err != nil {
		return nil, fmt.Errorf("the candidate frames: %w", err)
	}
	fit.SoftTop = ruleElements(fit.SoftTop, rules)
	if !keepStage(sol, ranked, fit) {
		s.last.fit = sol.Fit
		return nil, nil
	}
	s.last.learner, s.last.fit, s.last.frames = learner, sol.Fit, rules
	return learner, nil
}

// keepStage joins a later stage's fit to sol.Fit, the fit kept so far, which ranks as ranked (rankedFit).
// When fit ranks above it (latformer.FitResult.BetterThan), fit becomes sol.Fit, with the restarts,
// steps and time of the fits before it counted, and their SoftTop after its own; it returns true. Else
// sol.Fit counts fit's restarts, steps and time, with fit's SoftTop after its own.
func keepStage(sol *Solution, ranked, fit latformer.FitResult) bool {
	if !fit.BetterThan(ranked) {
		sol.Fit.SoftTop = append(sol.Fit.SoftTop, fit.SoftTop...)
		sol.Fit.Restarts += fit.Restarts
		sol.Fit.TotalSteps += fit.TotalSteps
		sol.Fit.Elapsed += fit.Elapsed
		sol.Fit.Compile += fit.Compile
		return false
	}
	before := sol.Fit
	fit.Restart += before.Restarts
	fit.Restarts += before.Restarts
	fit.RestartsFitted += before.RestartsFitted
	fit.TotalSteps += before.TotalSteps
	fit.Elapsed += before.Elapsed
	fit.Compile += before.Compile
	fit.SoftTop = append(fit.SoftTop, before.SoftTop...)
	sol.Fit = fit
	return true
}

// FrameCandidates returns up to k candidate frame rules of a task (search.FrameCandidates). Only the
// inputs are read: the outputs never choose a candidate (TestFrameCandidatesReadNoOutput).
func FrameCandidates(train []latformer.Example, k int) []search.FrameRule {
	inputs := make([]datasets.Canvas, len(train))
	for i, ex := range train {
		inputs[i] = ex.Input
	}
	return search.FrameCandidates(inputs, k)
}

// framesVariant returns the learners whose expert learns its frame among n candidates (fitFrames). The
// expert is anchored, with the solver's experts but the translation. n is rounded up to a multiple of
// 8, so that tasks with about as many candidates share compiled graphs. They train ParamFrameCopies
// copies with frameRestarts.
func (s *Solver) framesVariant(n int) (*latformer.LearnerCache, error) {
	k := min(s.frames, (n+7)/8*8)
	list, _ := experts.FrameExperts(s.learning)
	settings := s.learning.With(list, hparams.Setting{Key: experts.ParamLattice, Value: experts.LatticeAnchored},
		hparams.Setting{Key: experts.ParamFrameCandidates, Value: k})
	if s.frameCopies > 0 {
		settings = settings.With(hparams.Setting{Key: latformer.ParamAugment, Value: s.frameCopies})
	}
	settings = settings.With(hparams.Setting{Key: latformer.ParamRestartExperts, Value: frameRestarts(
		latformer.Param[string](s.store, latformer.ParamRestartExperts))})
	return s.variant(fmt.Sprintf("frames%d", k), settings)
}

// frameRestarts is the restart schedule (ParamRestartExperts) of a fit on candidate frames. It is the
// solver's, with z, v and h read as t: a frame expert has no translation, so they free the frame gates
// alone.
func frameRestarts(list string) string {
	return strings.NewReplacer("z", "t", "v", "t", "h", "t").Replace(list)
}
