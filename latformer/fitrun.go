// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
)

// fitRun is one Fit: its settings and what its restarts share as they run.
type fitRun struct {
	fitSettings
	// order is the minibatches' order, a permutation of the examples reshuffled after each pass.
	order []int
	next  int
	// restart is the restart under way, stepsCap the most steps it may take (its phases together), for
	// Progress.
	restart, stepsCap int
	// rowMask ([batch] bool, ParamPadPairs > 1) and cond (conditioning vectors) and frames are inputs of
	// every step.
	rowMask, cond, frames *tensors.Tensor
	progress              func(Progress)
}

// fitSettings is what a Fit reads before any training: the hyperparameters, the examples, the layout
// of a step's batch and the restarts' starts.
type fitSettings struct {
	examples, padded     []Example
	pairs, copies, batch int
	// real is the number of real (not padding) pairs of a step: all examples, or minibatch of them.
	real int
	// minibatch > 0: every step trains on this many examples, the next ones of fitRun.order.
	minibatch          int
	augment            datasets.AugmentOptions
	maxSteps, patience int
	hardSteps          int // ParamHardSteps
	hardPatience       int // ParamHardPatience
	// beam and beamSteps are ParamGateBeam and ParamGateBeamSteps.
	beam, beamSteps int
	beamNeighbors   bool // ParamGateBeamNeighbors
	restarts        int
	// schedule holds the entries of ParamRestartExperts, freeMasks their experts.Expert.FreeGates masks.
	schedule  []string
	freeMasks [][]float32
	// margin is ParamGateInitMargin.
	margin float64
	// starts are the first ParamRestarts of Starts.Elements; restart r < len(starts) starts at starts[r].
	starts []experts.Element
	// hasStarts says whether Fit was given Starts, maybe with no elements.
	hasStarts bool
	// held says whether a restart at an element trains with its gates held there, for heldSteps steps.
	held      bool
	heldSteps int
	// unstartedSteps is the soft-step budget of the restarts not started at an element.
	unstartedSteps int
}

// hardCheckEvery is how often (in steps) Fit checks the hard-gated model once the soft one fits.
const hardCheckEvery = 10

// needHard says whether the run trains with hard gates: ParamHardSteps, ParamGateBeam, or starts held at
// their elements (ParamGateInitTrain "hard").
func (run *fitRun) needHard() bool {
	return run.hardSteps > 0 || run.beam > 0 || (run.hasStarts && run.held)
}

// drawMinibatch sets run.padded to the next run.minibatch examples, reshuffling after each pass.
func (run *fitRun) drawMinibatch(rng *rand.Rand) {
	batch := make([]Example, 0, run.pairs)
	for len(batch) < run.minibatch {
		if run.next == len(run.order) {
			rng.Shuffle(len(run.order), func(i, j int) { run.order[i], run.order[j] = run.order[j], run.order[i] })
			run.next = 0
		}
		batch = append(batch, run.examples[run.order[run.next]])
		run.next++
	}
	for len(batch) < run.pairs {
		batch = append(batch, run.examples[0])
	}
	run.padded = batch
}

// trainPhase runs up to steps training steps of exec, the soft-gated or the hard-gated training graph,
// and records them in out. Its steps are numbered after the done steps of earlier phases. It returns
// true, and marks out as a hard fit, when the trained model has fitted every augmented copy for
// run.patience steps and the hard-gated model predicts every training pair exactly.
func (l *Learner) trainPhase(
	run *fitRun, exec *model.Exec, steps, done int, rng *rand.Rand, start time.Time, out *restartOutcome,
) (bool, error) {
	return l.trainPhaseUntil(run, exec, steps, done, rng, start, out, 0)
}

// trainPhaseUntil is trainPhase that also stops, without a fit, once the loss stalls over windows of
// plateau steps (stalled); 0 never stops early.
func (l *Learner) trainPhaseUntil(run *fitRun, exec *model.Exec, steps, done int, rng *rand.Rand, start time.Time,
	out *restartOutcome, plateau int,
) (bool, error) {
	streak := 0
	out.lossSum, out.lossSteps = 0, 0
	var losses []float64
	for step := done; step < done+steps; step++ {
		cellAcc, err := l.trainOneStep(run, exec, rng, out)
		if err != nil {
			return false, fmt.Errorf("training step %d: %w", step, err)
		}
		out.steps = step + 1
		out.lossSum += out.loss
		out.lossSteps++
		if run.progress != nil {
			started := -1
			if run.restart < len(run.starts) {
				started = run.restart
			}
			run.progress(Progress{Step: step + 1, MaxSteps: run.stepsCap, Restart: run.restart, Restarts: run.restarts,
				Loss: out.loss, CellAccuracy: cellAcc, Exact: out.exact, Elapsed: time.Since(start),
				Held: exec == l.hardStepExec, Start: started})
		}
		if out.exact == 1 {
			streak++
		} else {
			streak = 0
		}
		if run.patience > 0 && streak >= run.patience && (streak-run.patience)%hardCheckEvery == 0 {
			// The soft model fits. Stop when the hard gates, which prediction uses, fit too.
			hardExact, err := l.exactOnTraining(run.examples, false)
			if err != nil {
				return false, err
			}
			if hardExact {
				out.hardFit, out.score = true, 1
				return true, nil
			}
		}
		if plateau > 0 {
			if losses = append(losses, out.loss); stalled(losses, plateau) {
				return false, nil
			}
		}
	}
	return false, nil
}

// stallRatio is how far below the mean loss of the window before the last window's mean must be for the
// loss to count as falling (ParamHardPatience).
const stallRatio = 0.95

// stalled says whether the losses have stopped falling: every hardCheckEvery steps once there are two
// windows of w, whether the last window's mean loss is above stallRatio times the window's before.
func stalled(losses []float64, w int) bool {
	n := len(losses)
	if n < 2*w || (n-2*w)%hardCheckEvery != 0 {
		return false
	}
	var last, before float64
	for i := range w {
		last += losses[n-w+i]
		before += losses[n-2*w+i]
	}
	return last > stallRatio*before
}

// trainOneStep runs one training step of exec on the next batch. It sets out's loss and exact fraction
// and returns the batch's cell accuracy.
func (l *Learner) trainOneStep(run *fitRun, exec *model.Exec, rng *rand.Rand, out *restartOutcome) (float64, error) {
	in := l.nextBatch(run, rng)
	defer func() {
		in.tokens.MustFinalizeAll()
		in.targets.MustFinalizeAll()
		if in.cond != run.cond {
			in.cond.MustFinalizeAll()
		}
		if in.frames != run.frames {
			in.frames.MustFinalizeAll()
		}
	}()
	outs, err := exec.Call(callArgs(in.list(l))...)
	if err != nil {
		return 0, err
	}
	defer func() {
		for _, o := range outs {
			o.MustFinalizeAll()
		}
	}()
	out.loss = float64(tensors.ToScalar[float32](outs[0]))
	exact := 0.0
	for r, v := range tensors.MustCopyFlatData[float32](outs[2]) {
		if r%run.pairs < run.real {
			exact += float64(v)
		}
	}
	out.exact = exact / float64(run.copies*run.real)
	return float64(tensors.ToScalar[float32](outs[1])), nil
}

// nextBatch draws the next step's batch: run.copies color-permuted copies of the pairs, copy c of pair
// e at row c*run.pairs+e.
func (l *Learner) nextBatch(run *fitRun, rng *rand.Rand) stepInputs[*tensors.Tensor] {
	in := stepInputs[*tensors.Tensor]{cond: run.cond, rows: run.rowMask, frames: run.frames}
	if run.minibatch > 0 {
		run.drawMinibatch(rng)
		if run.cond != nil {
			in.cond = l.condTensor(run.padded, run.copies)
		}
		if run.frames != nil {
			in.frames = l.framesTensor(run.padded, run.copies)
		}
	}
	n := l.rows * l.cols
	in.tokens = tensors.FromShape(canvasShape(l, run.batch))
	in.targets = tensors.FromShape(canvasShape(l, run.batch))
	tensors.MustMutableFlatData[int32](in.tokens, func(tok []int32) {
		tensors.MustMutableFlatData[int32](in.targets, func(tgt []int32) {
			for c, perm := range datasets.AugmentationPermutationsWith(rng, run.copies, run.augment) {
				for e, ex := range run.padded {
					off := (c*run.pairs + e) * n
					perm.Apply(tok[off:off+n], ex.Input.Cells)
					perm.Apply(tgt[off:off+n], ex.Output.Cells)
				}
			}
		})
	})
	return in
}
