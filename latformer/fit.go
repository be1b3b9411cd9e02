// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"time"

	"github.com/latformer/latformer/experts"
)

// Progress reports one training step to the callback of Fit.
type Progress struct {
	Step, MaxSteps int
	// Restart counts from 0 to Restarts-1 (ParamRestarts); Step starts again from 1 at each restart.
	Restart, Restarts int
	// Loss, CellAccuracy and Exact are the batch's loss, fraction of correct cells and fraction of exact
	// canvases, before this step's update.
	Loss, CellAccuracy, Exact float64
	Elapsed                   time.Duration
	// Held says whether the step trained with the gates held at their discretized values.
	Held bool
	// Start is the index in Starts.Elements the restart started at, -1 for none.
	Start int
}

// Starts are where Fit's first restarts start: restart r < len(Elements) starts with its gates set to
// select Elements[r]. An ARC solver makes them with a lattice search.
type Starts struct {
	// Expert is the expert whose elements they are: it must be the learner's.
	Expert   experts.Expert
	Elements []experts.Element
	// Keep are colors the augmentation never permutes (those a frame rule reads), besides the
	// output-only colors of ParamAugmentFixOutputColors.
	Keep []int32
}

// FitResult summarizes a Fit.
type FitResult struct {
	// Steps is the number of training steps of the kept restart. Training stops early when the soft
	// model has fitted all augmented copies for ParamFitPatience steps and the hard-gated model fits the
	// training pairs.
	Steps int
	// Fitted says whether the model used for prediction predicts every training canvas exactly.
	Fitted bool
	// HardGates says whether prediction uses the discretized gates (else the soft ones).
	HardGates bool
	Loss      float64
	Exact     float64
	// Restarts is the number of restarts that ran (ParamRestarts, fewer when one fitted before the last).
	// RestartsFitted of them fitted the training pairs with hard gates. Restart is the one kept, from 0;
	// Steps, Loss and Exact are its. TotalSteps counts the steps of all of them.
	Restarts, RestartsFitted, Restart, TotalSteps int
	// Elapsed is the time of the whole Fit, and Compile the part spent compiling graphs.
	Elapsed, Compile time.Duration
	// Starts is the number of restarts that start at an element of Fit's Starts. StartedAt is the start
	// of the kept restart, -1 for none.
	Starts, StartedAt int
	// SoftTop names the SoftTopCount elements that the kept restart's soft gates make most probable,
	// averaged over the training examples, most probable first (experts.Expert.LikelyElements). Where a
	// fit failed, they show what gradient descent was choosing between. It is nil without mask experts. A
	// Solver that also fitted candidate frames appends that fit's.
	SoftTop []string
}

// SoftTopCount is the number of elements FitResult.SoftTop names.
const SoftTopCount = 3

// Fit trains on the examples with Adam and the cross-entropy over all canvas cells. Every step uses
// ParamAugment color-permuted copies of all examples (Appendix B.2). The first copy keeps the original
// colors, and each copy's permutation is shared by all examples, inputs and outputs alike.
// ParamAugmentKeepBlack and ParamAugmentFixOutputColors restrict the permutations. Training stops after
// ParamSteps steps, or when the training canvases are all exact for ParamFitPatience steps in a row.
// progress, when not nil, is called after every step.
//
// With ParamRestarts = R > 1, training runs up to R times. Each restart has its own initialization (seed
// ParamSeed + 7919·r) and augmentation stream. The restart kept for prediction is the best by, in order:
// its discretized gates predict every training pair exactly; the fraction of training pairs predicted
// exactly, with hard or soft gates; the lower final training loss. The first restart whose hard gates
// fit ends the restarts. Restart 0 is what R = 1 trains. Canvases of more than ParamMaxCells cells
// (when > 0) train once.
//
// starts, when not nil, holds the elements the first restarts start at; its Expert must be the
// learner's. Restart r < min(R, len(starts.Elements)) starts at Elements[r]: after the usual
// initialization, the first mask expert's gates of every layer are set to select it (startAt). These
// restarts also run on canvases above ParamMaxCells. The later restarts start at the paper's
// initialization with ParamUnproposedSteps soft steps. With starts nil, every restart starts at the
// paper's initialization.
func (l *Learner) Fit(examples []Example, starts *Starts, progress func(Progress)) (FitResult, error) {
	if err := l.checkExamples(examples, true); err != nil {
		return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %w", err)
	}
	run, err := l.newFitRun(examples, starts, progress)
	if err != nil {
		return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %w", err)
	}
	start := time.Now()
	res := FitResult{StartedAt: -1}
	if res.Compile, err = l.prepare(run.batch, run.needHard()); err != nil {
		return res, fmt.Errorf("latformer.Learner.Fit: %w", err)
	}
	l.makeRunTensors(run)
	defer run.release()
	if res.Starts = len(run.starts); starts != nil && !l.hasMaskExperts() {
		return res, fmt.Errorf("latformer.Learner.Fit: starts set mask experts' gates, and model %q has none",
			l.arch.Name)
	}

	var best *restartOutcome
	for r := range run.restarts {
		out, err := l.restart(run, r)
		if err != nil {
			return res, fmt.Errorf("latformer.Learner.Fit: restart %d: %w", r, err)
		}
		res.count(out)
		last := r+1 == run.restarts || out.hardFit
		if best, err = l.keepBetter(best, out, last); err != nil {
			return res, fmt.Errorf("latformer.Learner.Fit: keeping restart %d: %w", r, err)
		}
		if last {
			break
		}
	}
	if err := l.restoreKept(best); err != nil {
		return res, fmt.Errorf("latformer.Learner.Fit: bringing back restart %d: %w", best.restart, err)
	}
	res.keep(best)
	if l.hasMaskExperts() {
		top, err := l.likelyElements(examples, SoftTopCount)
		if err != nil {
			return res, fmt.Errorf("latformer.Learner.Fit: the soft gates' top elements: %w", err)
		}
		expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
		for _, el := range top {
			res.SoftTop = append(res.SoftTop, expert.ElementName(el))
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// BetterThan orders fits as Fit orders its restarts. A tie keeps other.
func (res FitResult) BetterThan(other FitResult) bool {
	if hard, otherHard := res.Fitted && res.HardGates, other.Fitted && other.HardGates; hard != otherHard {
		return hard
	}
	if res.Exact != other.Exact {
		return res.Exact > other.Exact
	}
	return res.Loss < other.Loss
}
