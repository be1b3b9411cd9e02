// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/experts"
)

// The phases of a restart, in the order they run (phasesOf reads them from the hyperparameters):
//
//	heldPhase   at a proposal, with ParamGateInitTrain "hard": the gates held at the proposal's
//	            element for up to ParamHeldSteps steps; no other phase runs
//	softPhase   the paper's training with soft gates: ParamSteps steps, or ParamUnproposedSteps for
//	            a restart not started at a proposal when the search ran
//	beamPhase   when the hard gates do not fit (ParamGateBeam > 0, not at a proposal): the gate beam;
//	            undone unless it fits
//	hardPhase   otherwise, when they do not fit (ParamHardSteps > 0): the gates held at their hard
//	            reading for up to ParamHardSteps steps; undone unless it fits
//
// A phase that ends with the hard gates fitting every training pair ends the restart. After the last
// phase, chooseGates picks hard or soft gates for prediction.

// phase is one stage of a restart's training.
type phase interface {
	// maxSteps is the most steps the phase may take (for Progress.MaxSteps).
	maxSteps(run *fitRun) int
	// run trains the learner's variables and reports whether the hard gates then fit every training
	// pair. Its steps continue the earlier phases' numbering.
	run(l *Learner, t *restartTraining) (fitted bool, err error)
}

// restartTraining is what the phases of one restart share.
type restartTraining struct {
	run   *fitRun
	rng   *rand.Rand
	start time.Time
	out   *restartOutcome
}

// phasesOf returns the phases the current restart of run (run.restart) trains through, in order.
func (l *Learner) phasesOf(run *fitRun) []phase {
	started := run.restart < len(run.starts)
	if started && run.held {
		return []phase{heldPhase{steps: run.heldSteps}}
	}
	soft := softPhase{steps: run.maxSteps}
	if !started { // unstartedSteps is maxSteps without Starts
		soft.steps = run.unstartedSteps
	}
	switch {
	case run.beam > 0 && l.hardStepExec != nil && !started && l.hasMaskExperts():
		return []phase{soft, beamPhase{}}
	case run.hardSteps > 0 && l.hardStepExec != nil:
		return []phase{soft, hardPhase{}}
	}
	return []phase{soft}
}

// fitOnce trains one restart of Fit through its phases and scores it on the training pairs. A phase
// that ends in a hard fit ends the restart; otherwise chooseGates picks the hard or the soft gates.
func (l *Learner) fitOnce(run *fitRun) (restartOutcome, error) {
	out := restartOutcome{restart: run.restart}
	t := &restartTraining{run: run, rng: l.rng, start: time.Now(), out: &out}
	if run.restart > 0 {
		t.rng = newAugmentationRNG(l.seed, run.restart)
	}
	run.resetOrder()
	phases := l.phasesOf(run)
	run.stepsCap = 0
	for _, p := range phases {
		run.stepsCap += p.maxSteps(run)
	}
	for _, p := range phases {
		if fitted, err := p.run(l, t); err != nil || fitted {
			return out, err
		}
	}
	return out, l.chooseGates(run.examples, &out)
}

// resetOrder restarts the minibatches from the examples' order. Every restart shuffles them with its
// own random stream.
func (run *fitRun) resetOrder() {
	if run.minibatch == 0 {
		return
	}
	for i := range run.order {
		run.order[i] = i
	}
	run.next = len(run.order)
}

// heldPhase trains a restart with its gates held at the proposal's element, for up to steps steps.
// Only the rest of the model learns.
type heldPhase struct{ steps int }

func (p heldPhase) maxSteps(*fitRun) int { return p.steps }

func (p heldPhase) run(l *Learner, t *restartTraining) (bool, error) {
	return l.trainPhase(t.run, l.hardStepExec, p.steps, t.out.steps, t.rng, t.start, t.out)
}

// softPhase trains with soft gates, as the paper does, for up to steps steps.
type softPhase struct{ steps int }

func (p softPhase) maxSteps(*fitRun) int { return p.steps }

func (p softPhase) run(l *Learner, t *restartTraining) (bool, error) {
	return l.trainPhase(t.run, l.stepExec, p.steps, t.out.steps, t.rng, t.start, t.out)
}

// hardPhase continues training with the gates held at their discretized values (ParamHardSteps), or
// until the loss stalls (ParamHardPatience). It ends in a hard fit or is undone, since the soft model
// may then be the better prediction. Undone steps still count.
type hardPhase struct{}

func (hardPhase) maxSteps(run *fitRun) int { return run.hardSteps }

func (hardPhase) run(l *Learner, t *restartTraining) (bool, error) {
	return l.keepIfFits(t, func(map[string]*tensors.Tensor) (bool, error) {
		return l.trainPhaseUntil(t.run, l.hardStepExec, t.run.hardSteps, t.out.steps, t.rng, t.start, t.out,
			t.run.hardPatience)
	})
}

// keepIfFits runs try from a snapshot of the learner's weights, before, which try may restore between
// attempts. A try that ends in a hard fit is kept. Otherwise the weights and the restart's outcome go
// back to the soft model's, except for the step count.
func (l *Learner) keepIfFits(
	t *restartTraining, try func(before map[string]*tensors.Tensor) (bool, error),
) (bool, error) {
	before, err := l.snapshot()
	if err != nil {
		return false, err
	}
	defer finalizeAll(before)
	soft := *t.out
	if fitted, err := try(before); err != nil || fitted {
		return fitted, err
	}
	if err := l.restore(before); err != nil {
		return false, err
	}
	soft.steps = t.out.steps
	*t.out = soft
	return false, nil
}

// beamPhase continues a restart with the gate beam (ParamGateBeam). Each of the run.beam elements its
// soft gates make most probable is held for run.beamSteps steps from the soft model's weights; with
// ParamGateBeamNeighbors, so are the first one's translation neighbors. The one with the lowest loss
// trains on, held, up to run.hardSteps steps of the phase in all, or until its loss stalls
// (ParamHardPatience). Like hardPhase, it ends in a hard fit or is undone.
type beamPhase struct{}

func (beamPhase) maxSteps(run *fitRun) int {
	tries := run.beam
	if run.beamNeighbors {
		tries += 4 // experts.Expert.ShiftNeighbors: at most one each way on each axis
	}
	return tries*run.beamSteps + max(0, run.hardSteps-run.beamSteps)
}

func (beamPhase) run(l *Learner, t *restartTraining) (bool, error) {
	run, out := t.run, t.out
	candidates, err := l.likelyElements(run.examples, run.beam)
	if err != nil || len(candidates) == 0 {
		return false, err
	}
	expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
	if run.beamNeighbors {
		candidates = withNeighbors(expert, candidates)
	}
	return l.keepIfFits(t, func(before map[string]*tensors.Tensor) (bool, error) {
		var best map[string]*tensors.Tensor
		defer func() { finalizeAll(best) }()
		bestLoss, steps := math.Inf(1), out.steps
		for i, el := range candidates {
			if i > 0 {
				if err := l.restore(before); err != nil {
					return false, err
				}
			}
			if err := l.setGateLogits(expert.LogitsFor(el, float32(run.margin)), true); err != nil {
				return false, err
			}
			if fitted, err := l.trainPhase(
				run, l.hardStepExec, run.beamSteps, steps, t.rng, t.start, out); err != nil || fitted {
				return fitted, err
			}
			steps = out.steps
			loss := out.loss
			if run.minibatch > 0 && out.lossSteps > 0 {
				// With minibatches, one step's loss is one draw of pairs, so use the probe's mean.
				loss = out.lossSum / float64(out.lossSteps)
			}
			if loss < bestLoss {
				finalizeAll(best)
				var err error
				if best, err = l.snapshot(); err != nil {
					return false, err
				}
				bestLoss = loss
			}
		}
		if rest := run.hardSteps - run.beamSteps; rest > 0 && best != nil {
			if err := l.restore(best); err != nil {
				return false, err
			}
			return l.trainPhaseUntil(run, l.hardStepExec, rest, steps, t.rng, t.start, out, run.hardPatience)
		}
		return false, nil
	})
}

// withNeighbors appends the first candidate's translation neighbors that are not candidates already.
func withNeighbors(expert experts.Expert, candidates []experts.Element) []experts.Element {
	seen := map[string]bool{}
	for _, el := range candidates {
		seen[expert.ElementName(el)] = true
	}
	for _, n := range expert.ShiftNeighbors(candidates[0]) {
		if key := expert.ElementName(n); !seen[key] {
			seen[key] = true
			candidates = append(candidates, n)
		}
	}
	return candidates
}

// chooseGates ends a restart whose hard gates do not fit the training pairs. It picks whichever of
// hard or soft gates fits them better.
func (l *Learner) chooseGates(examples []Example, out *restartOutcome) error {
	hard, err := l.scoreOnTraining(examples, false)
	if err != nil {
		return err
	}
	soft, err := l.scoreOnTraining(examples, true)
	if err != nil {
		return err
	}
	out.hardFit = hard == 1
	out.useSoft = soft > hard
	out.score = max(hard, soft)
	return nil
}
