// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/experts"
)

// stepInputs are the inputs of a training step's graph. T is shapes.Shape to compile the graph,
// *tensors.Tensor to call it and *Node inside it. fields is the one place that orders them.
type stepInputs[T any] struct {
	// tokens and targets are [batch, n] int32 canvases.
	tokens, targets T
	// cond is [batch, condDim] float32, only when the learner has conditioning vectors.
	cond T
	// rows is [batch] bool, false for the padding rows, only when ParamPadPairs > 1.
	rows T
	// frames (framesShape) are the frames of an anchor-relative expert (Example.Frame or Frames).
	frames T
}

// fields returns the inputs the learner's step graph takes, in their order.
func (in *stepInputs[T]) fields(l *Learner) []*T {
	out := []*T{&in.tokens, &in.targets}
	if l.condDim > 0 {
		out = append(out, &in.cond)
	}
	if l.padPairs > 1 {
		out = append(out, &in.rows)
	}
	if l.anchored {
		out = append(out, &in.frames)
	}
	return out
}

// list returns the inputs in the order of the graph's parameters.
func (in stepInputs[T]) list(l *Learner) []T { return values(in.fields(l)) }

// stepInputsOf unpacks the inputs of a step graph.
func stepInputsOf[T any](l *Learner, list []T) stepInputs[T] {
	var in stepInputs[T]
	unpack(in.fields(l), list)
	return in
}

// stepInputShapes are the input shapes of the step graph for batch rows.
func stepInputShapes(l *Learner, batch int) []shapes.Shape {
	in := stepInputs[shapes.Shape]{tokens: canvasShape(l, batch), targets: canvasShape(l, batch),
		rows: shapes.Make(dtypes.Bool, batch), frames: l.framesShape(batch)}
	if l.condDim > 0 {
		in.cond = shapes.Make(dtypes.Float32, batch, l.condDim)
	}
	return in.list(l)
}

// predictInputs are the inputs of a prediction graph: tokens [predictChunk, n] int32, previous, the
// output canvas decoded so far (autoregressive only), and cond [predictChunk, condDim] float32.
type predictInputs[T any] struct {
	tokens, previous, cond, frames T
}

// fields returns the inputs the learner's prediction graphs take, in their order.
func (in *predictInputs[T]) fields(l *Learner) []*T {
	out := []*T{&in.tokens}
	if l.arch.Autoregressive() {
		out = append(out, &in.previous)
	}
	if l.condDim > 0 {
		out = append(out, &in.cond)
	}
	if l.anchored {
		out = append(out, &in.frames)
	}
	return out
}

// list returns the inputs in the order of the graph's parameters.
func (in predictInputs[T]) list(l *Learner) []T { return values(in.fields(l)) }

// predictInputsOf unpacks the inputs of a prediction graph.
func predictInputsOf[T any](l *Learner, list []T) predictInputs[T] {
	var in predictInputs[T]
	unpack(in.fields(l), list)
	return in
}

// predictInputShapes are the input shapes of the prediction graphs.
func predictInputShapes(l *Learner) []shapes.Shape {
	in := predictInputs[shapes.Shape]{tokens: canvasShape(l, predictChunk), previous: canvasShape(l, predictChunk),
		frames: l.framesShape(predictChunk)}
	if l.condDim > 0 {
		in.cond = shapes.Make(dtypes.Float32, predictChunk, l.condDim)
	}
	return in.list(l)
}

// canvasShape is the shape of batch canvases of the learner's: [batch, rows*cols] int32.
func canvasShape(l *Learner, batch int) shapes.Shape {
	return shapes.Make(dtypes.Int32, batch, l.rows*l.cols)
}

// values returns the values fields point to.
func values[T any](fields []*T) []T {
	out := make([]T, len(fields))
	for i, f := range fields {
		out[i] = *f
	}
	return out
}

// unpack sets the fields to the values of list, in order; their numbers must agree.
func unpack[T any](fields []*T, list []T) {
	if len(list) != len(fields) {
		exceptions.Panicf("latformer: the graph has %d inputs, the learner's input layout %d", len(list), len(fields))
	}
	for i, f := range fields {
		*f = list[i]
	}
}

// callArgs converts tensors to the arguments of model.Exec.Call.
func callArgs(list []*tensors.Tensor) []any {
	out := make([]any, len(list))
	for i, t := range list {
		out[i] = t
	}
	return out
}

// condTensor is the conditioning input of the examples repeated copies times, copy c of example e at
// row c*len(examples)+e.
func (l *Learner) condTensor(examples []Example, copies int) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, copies*len(examples), l.condDim))
	tensors.MustMutableFlatData[float32](t, func(flat []float32) {
		for c := range copies {
			for e, ex := range examples {
				copy(flat[(c*len(examples)+e)*l.condDim:], ex.Cond)
			}
		}
	})
	return t
}

// framesShape is the shape of the frames input: [batch, FrameLen] or [batch, K, FrameLen] int32.
func (l *Learner) framesShape(batch int) shapes.Shape {
	if l.frameCandidates > 0 {
		return shapes.Make(dtypes.Int32, batch, l.frameCandidates, experts.FrameLen)
	}
	return shapes.Make(dtypes.Int32, batch, experts.FrameLen)
}

// framesTensor is the frames input of the examples repeated copies times: each example's Frame, or its
// candidate Frames padded with zeros.
func (l *Learner) framesTensor(examples []Example, copies int) *tensors.Tensor {
	t := tensors.FromShape(l.framesShape(copies * len(examples)))
	per := experts.FrameLen * max(1, l.frameCandidates)
	tensors.MustMutableFlatData[int32](t, func(flat []int32) {
		for c := range copies {
			for e, ex := range examples {
				row := flat[(c*len(examples)+e)*per:]
				if l.frameCandidates == 0 {
					copy(row, ex.Frame[:])
					continue
				}
				for k, f := range ex.Frames[:min(len(ex.Frames), l.frameCandidates)] {
					copy(row[k*experts.FrameLen:], f[:])
				}
			}
		}
	})
	return t
}

// makeRunTensors makes the step inputs that stay the same every step: the padding rows' mask, the
// conditioning vectors and the frames.
func (l *Learner) makeRunTensors(run *fitRun) {
	if l.padPairs > 1 {
		real := make([]bool, run.batch)
		for r := range real {
			real[r] = r%run.pairs < run.real
		}
		run.rowMask = tensors.FromValue(real)
	}
	if l.condDim > 0 {
		run.cond = l.condTensor(run.padded, run.copies)
	}
	if l.anchored {
		run.frames = l.framesTensor(run.padded, run.copies)
	}
}

// release frees the tensors of makeRunTensors.
func (run *fitRun) release() {
	for _, t := range []*tensors.Tensor{run.rowMask, run.cond, run.frames} {
		if t != nil {
			t.MustFinalizeAll()
		}
	}
}
