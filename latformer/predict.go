// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

// Prediction, and the scores on the training pairs by which Fit picks the gates and keeps the best restart
// (scoreOnTraining, restartOutcome, keepBetter), and the elements the soft gates make likely (likelyElements).

import (
	"fmt"
	"slices"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/lattice"
	latlayers "github.com/latformer/latformer/layers"
)

// predictChunk is the batch size of prediction. Padded chunks let one compiled graph serve any number
// of inputs.
const predictChunk = 16

// Prediction is the model's output for one input.
type Prediction struct {
	// Canvas is the predicted output canvas (argmax per cell, pad cells included).
	Canvas datasets.Canvas
	// Gates are the (discretized) gates of the first layer's expert, and Action the group element they
	// select (experts.Expert.Action).
	Gates  experts.GateValues
	Action lattice.Action
	// Gates2 and Action2 are those of the second action (layers.ParamActions = 2; else nil).
	Gates2  experts.GateValues
	Action2 lattice.Action
}

// ActionName names the prediction's group element: ActionName(p.Action, p.Action2).
func (p Prediction) ActionName() string { return ActionName(p.Action, p.Action2) }

// ActionName names the elements of one or two actions: "a", or "a + a2". It is "" when a is nil.
func ActionName(a, a2 lattice.Action) string {
	if a == nil {
		return ""
	}
	if a2 == nil {
		return a.String()
	}
	return a.String() + " + " + a2.String()
}

// Predict predicts the output canvases of the inputs with discretized gates (Section 4.1). After a Fit
// where only the soft model fitted the training pairs, it uses soft gates.
func (l *Learner) Predict(inputs []Example) ([]Prediction, error) {
	return l.predict(inputs, l.useSoft)
}

// predict is Predict with soft or hard gates.
func (l *Learner) predict(inputs []Example, soft bool) ([]Prediction, error) {
	if err := l.checkExamples(inputs, false); err != nil {
		return nil, fmt.Errorf("latformer.Learner.Predict: %w", err)
	}
	if _, err := l.prepare(0, false); err != nil {
		return nil, fmt.Errorf("latformer.Learner.Predict: %w", err)
	}
	exec := l.predExec
	if soft {
		exec = l.softExec
	}
	preds := make([]Prediction, 0, len(inputs))
	for start := 0; start < len(inputs); start += predictChunk {
		chunk := inputs[start:min(start+predictChunk, len(inputs))]
		outs, err := l.runChunk(exec, chunk)
		if err != nil {
			return nil, fmt.Errorf("prediction: %w", err)
		}
		chunkPreds, err := l.decodeChunk(outs, len(chunk))
		for _, o := range outs {
			o.MustFinalizeAll()
		}
		if err != nil {
			return nil, err
		}
		preds = append(preds, chunkPreds...)
	}
	return preds, nil
}

// decodeChunk turns a prediction graph's outputs into the predictions of the chunk's first size inputs.
func (l *Learner) decodeChunk(outs []*tensors.Tensor, size int) ([]Prediction, error) {
	n := l.rows * l.cols
	expert := experts.ExpertFromScope(l.store.Scope(""), l.rows, l.cols)
	actions := latlayers.Param[int](l.store.RootScope(), latlayers.ParamActions)
	cells := tensors.MustCopyFlatData[int32](outs[0])
	var gates, gates2 []experts.GateValues
	var err error
	numGateTensors := (len(outs) - 1) / actions
	if numGateTensors > 0 { // else a model without mask experts
		if gates, err = expert.DecodeGates(outs[1 : 1+numGateTensors]); err != nil {
			return nil, err
		}
	}
	if actions == 2 && numGateTensors > 0 {
		if gates2, err = expert.DecodeGates(outs[1+numGateTensors:]); err != nil {
			return nil, err
		}
	}
	preds := make([]Prediction, size)
	for i := range preds {
		p := &preds[i]
		p.Canvas = datasets.Canvas{Rows: l.rows, Cols: l.cols, Cells: append([]int32(nil), cells[i*n:(i+1)*n]...)}
		if gates != nil {
			p.Gates, p.Action = gates[i], expert.Action(gates[i])
		}
		if gates2 != nil {
			p.Gates2, p.Action2 = gates2[i], expert.Action(gates2[i])
		}
	}
	return preds, nil
}

// decodeAutoregressive predicts an autoregressive model's cells one by one, in row-major order. Pass k
// feeds the cells fixed so far and keeps the prediction of cell k. It returns the last pass's outputs,
// with the decoded canvas as outs[0].
func decodeAutoregressive(call func(previous []int32) ([]*tensors.Tensor, error), n int) ([]*tensors.Tensor, error) {
	previous := make([]int32, predictChunk*n)
	var outs []*tensors.Tensor
	for k := range n {
		for _, o := range outs {
			o.MustFinalizeAll()
		}
		var err error
		if outs, err = call(previous); err != nil {
			return nil, err
		}
		pred := tensors.MustCopyFlatData[int32](outs[0])
		for i := range predictChunk {
			previous[i*n+k] = pred[i*n+k]
		}
	}
	outs[0].MustFinalizeAll()
	outs[0] = tensors.FromFlatDataAndDimensions(previous, predictChunk, n)
	return outs, nil
}

// scoreOnTraining returns the fraction of training examples predicted exactly, with soft or hard gates.
func (l *Learner) scoreOnTraining(examples []Example, soft bool) (float64, error) {
	preds, err := l.predict(examples, soft)
	if err != nil {
		return 0, err
	}
	exact := 0
	for i, p := range preds {
		if slices.Equal(p.Canvas.Cells, examples[i].Output.Cells) {
			exact++
		}
	}
	return float64(exact) / float64(len(preds)), nil
}

// exactOnTraining says whether every training example is predicted exactly, with soft or hard gates.
func (l *Learner) exactOnTraining(examples []Example, soft bool) (bool, error) {
	score, err := l.scoreOnTraining(examples, soft)
	return score == 1, err
}

// TrainBatch runs one training step on tokens and targets, [batch, n] int32 canvases, without
// augmentation, and returns the loss. `latformer bench` times it; Fit is the usual entry point.
func (l *Learner) TrainBatch(tokens, targets *tensors.Tensor) (float64, error) {
	if l.condDim < 0 {
		l.condDim = 0
	}
	if l.condDim > 0 {
		return 0, fmt.Errorf("latformer.Learner.TrainBatch: the learner was fitted with conditioning vectors")
	}
	batch := tokens.Shape().Dimensions[0]
	if _, err := l.prepare(batch, false); err != nil {
		return 0, err
	}
	in := stepInputs[*tensors.Tensor]{tokens: tokens, targets: targets}
	if l.padPairs > 1 {
		all := make([]bool, batch)
		for i := range all {
			all[i] = true
		}
		in.rows = tensors.FromValue(all)
		defer in.rows.MustFinalizeAll()
	}
	outs, err := l.stepExec.Call(callArgs(in.list(l))...)
	if err != nil {
		return 0, err
	}
	lossValue := float64(tensors.ToScalar[float32](outs[0]))
	for _, o := range outs {
		o.MustFinalizeAll()
	}
	return lossValue, nil
}

// restartOutcome is the result of one restart of Fit.
type restartOutcome struct {
	restart, steps int
	loss, exact    float64
	// lossSum and lossSteps add up the losses of the last trainPhase's steps (the gate beam's probe).
	lossSum   float64
	lossSteps int
	// hardFit says whether the hard-gated model predicts every training pair exactly. Otherwise useSoft
	// says whether the soft gates predict more of them, and score is the better fraction.
	hardFit, useSoft bool
	score            float64
	variables        map[string]*tensors.Tensor // the trained variables, when kept for later
}

// better orders restarts: hard gates fitting first, then the fraction of training pairs predicted
// exactly, then the lower final loss. Ties keep the earlier.
func (o restartOutcome) better(than *restartOutcome) bool {
	if o.hardFit != than.hardFit {
		return o.hardFit
	}
	if o.score != than.score {
		return o.score > than.score
	}
	return o.loss < than.loss
}

// count adds a finished restart to the totals.
func (res *FitResult) count(out restartOutcome) {
	res.TotalSteps += out.steps
	res.Restarts++
	if out.hardFit {
		res.RestartsFitted++
	}
}

// keep reports the kept restart.
func (res *FitResult) keep(best *restartOutcome) {
	res.Restart = best.restart
	res.Steps, res.Loss, res.Exact = best.steps, best.loss, best.exact
	res.HardGates = !best.useSoft
	res.Fitted = best.hardFit || best.score == 1
	if best.restart < res.Starts {
		res.StartedAt = best.restart
	}
}

// keepBetter returns the better of best (nil at first) and out, releasing the other's variables. When
// out is kept and more restarts follow, it copies out's variables, which the next restart overwrites.
func (l *Learner) keepBetter(best *restartOutcome, out restartOutcome, last bool) (*restartOutcome, error) {
	if best != nil && !out.better(best) {
		return best, nil
	}
	if !last {
		var err error
		if out.variables, err = l.snapshot(); err != nil {
			return best, err
		}
	}
	if best != nil {
		finalizeAll(best.variables)
	}
	return &out, nil
}

// restoreKept brings back the kept restart's variables, if it was not the last, and its choice of
// hard or soft gates.
func (l *Learner) restoreKept(best *restartOutcome) error {
	if best.variables != nil {
		if err := l.restore(best.variables); err != nil {
			return err
		}
		finalizeAll(best.variables)
	}
	l.useSoft = best.useSoft
	return nil
}

// likelyElements returns the k elements the first mask expert's soft gates make most probable,
// averaged over the examples.
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
