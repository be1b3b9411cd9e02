// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/experts"
)

// The phases of a restart, in the order they run (phasesOf reads the recipe from the hyperparameters):
//
//	heldPhase   a restart started at a proposal with ParamGateInitTrain "hard": the gates held at the
//	            proposal's element for up to ParamHeldSteps steps, nothing else
//	softPhase   the paper's training, soft gates: ParamSteps steps, or ParamUnproposedSteps for a restart
//	            not started at a proposal when the search ran
//	beamPhase   if the soft gates' hard reading does not fit (ParamGateBeam > 0, not at a proposal): each of
//	            the likeliest elements held for ParamGateBeamSteps steps, the best continued, held, up to
//	            ParamHardSteps; undone unless it fits
//	hardPhase   else, if it does not fit (ParamHardSteps > 0): the gates held at their hard reading for up to
//	            ParamHardSteps steps; undone unless it fits
//
// A phase that ends with the hard gates fitting every training pair ends the restart; after the last one
// chooseGates picks hard or soft gates for prediction.

// phase is one stage of a restart's training.
type phase interface {
	// maxSteps is the most steps the phase may take (for Progress.MaxSteps).
	maxSteps(run *fitRun) int
	// run trains the learner's variables, numbering its steps after those of the phases before it (in
	// t.out.steps), and reports whether the hard gates then fit every training pair.
	run(l *Learner, t *restartTraining) (fitted bool, err error)
}

// restartTraining is what the phases of one restart share: the run, the restart's augmentation stream,
// when it started, and its outcome so far.
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

// fitOnce trains the current variables (one restart of Fit) through its phases (phasesOf) and scores the
// result on the training pairs: a phase that ends in a hard fit ends the restart, else chooseGates picks
// the hard or the soft gates.
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

// heldPhase trains a restart started at a proposal with its gates held at the proposal's element
// (ParamGateInitTrain "hard") for up to steps steps (ParamHeldSteps): only the rest of the model learns.
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

// hardPhase continues training with the gates held at their discretized values (ParamHardSteps). It either
// ends in a hard fit or is undone: the soft model it started from may fit the training pairs where the
// hard one does not, and is then the better prediction (its undone steps still count).
type hardPhase struct{}

func (hardPhase) maxSteps(run *fitRun) int { return run.hardSteps }

func (hardPhase) run(l *Learner, t *restartTraining) (bool, error) {
	return l.keepIfFits(t, func(map[string]*tensors.Tensor) (bool, error) {
		return l.trainPhase(t.run, l.hardStepExec, t.run.hardSteps, t.out.steps, t.rng, t.start, t.out)
	})
}

// keepIfFits runs try from a snapshot of the learner's weights (before, which try may restore between its
// attempts): a try that ends in a hard fit is kept; otherwise the weights and the restart's outcome go back to
// the soft model's, but for the steps the try took, which still count.
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

// beamPhase continues a restart with the gate beam (ParamGateBeam): each of the run.beam elements its soft
// gates make most probable (and, with ParamGateBeamNeighbors, the first one's translation neighbors) is held
// for run.beamSteps steps from the soft model's weights, and the one with the lowest loss trains on, held,
// until run.hardSteps steps of the phase in all. Like hardPhase it ends in a hard fit or is undone (its
// steps still count).
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
				// One step's loss is one draw of the minibatch's pairs: with minibatches, the probe's
				// mean loss is the candidate's (without, every step sees every pair).
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
			return l.trainPhase(run, l.hardStepExec, rest, steps, t.rng, t.start, out)
		}
		return false, nil
	})
}

// withNeighbors appends to the beam's candidates the translation neighbors of the first
// (experts.Expert.ShiftNeighbors) that are not among them already (ParamGateBeamNeighbors).
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

// likelyElements returns the k elements that the soft gates of the first mask expert, averaged over the
// examples, make most probable (experts.Expert.LikelyElements).
func (l *Learner) likelyElements(examples []Example, k int) ([]experts.Element, error) {
	preds, err := l.predict(examples, true)
	if err != nil {
		return nil, err
	}
	mean := experts.GateValues{}
	for _, p := range preds {
		for name, vals := range p.Gates {
			if mean[name] == nil {
				mean[name] = make([]float64, len(vals))
			}
			for i, v := range vals {
				mean[name][i] += v / float64(len(preds))
			}
		}
	}
	expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
	return expert.LikelyElements(mean, k), nil
}

// chooseGates ends a restart whose training did not end with the hard gates fitting the training pairs:
// it predicts with whichever of hard or soft gates fits them best (model selection on training data only).
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
