// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"slices"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
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

// runChunk runs the prediction graph exec on up to predictChunk inputs. It returns the predicted
// canvases, then the gate tensors.
func (l *Learner) runChunk(exec *model.Exec, chunk []Example) ([]*tensors.Tensor, error) {
	n := l.rows * l.cols
	padded := make([]Example, predictChunk)
	for i := range padded {
		padded[i] = chunk[min(i, len(chunk)-1)]
	}
	in := predictInputs[*tensors.Tensor]{tokens: tensors.FromShape(canvasShape(l, predictChunk))}
	tensors.MustMutableFlatData[int32](in.tokens, func(tok []int32) {
		for i, ex := range padded {
			copy(tok[i*n:], ex.Input.Cells)
		}
	})
	defer in.tokens.MustFinalizeAll()
	if l.condDim > 0 {
		in.cond = l.condTensor(padded, 1)
		defer in.cond.MustFinalizeAll()
	}
	if l.anchored {
		in.frames = l.framesTensor(padded, 1)
		defer in.frames.MustFinalizeAll()
	}
	if !l.arch.Autoregressive() {
		return exec.Call(callArgs(in.list(l))...)
	}
	return decodeAutoregressive(func(previous []int32) ([]*tensors.Tensor, error) {
		in.previous = tensors.FromFlatDataAndDimensions(previous, predictChunk, n)
		defer in.previous.MustFinalizeAll()
		return exec.Call(callArgs(in.list(l))...)
	}, n)
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
