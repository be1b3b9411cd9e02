// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

// From a task's examples to the graphs' inputs, in the order Fit and Predict take them: the examples checked
// (checkExamples), a Fit's batch laid out (newFitRun), the graphs compiled for its shapes (prepare), and the input
// tensors of a training step and of a prediction chunk (runChunk).

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
)

// checkExamples checks that the examples fit the learner's canvas and that their conditioning vectors
// have the length the first examples set.
func (l *Learner) checkExamples(examples []Example, needOutput bool) error {
	if len(examples) == 0 {
		return fmt.Errorf("no examples")
	}
	for i, ex := range examples {
		if ex.Input.Rows != l.rows || ex.Input.Cols != l.cols || len(ex.Input.Cells) != l.rows*l.cols {
			return fmt.Errorf("example %d: input canvas is %dx%d, the learner's is %dx%d", i, ex.Input.Rows,
				ex.Input.Cols, l.rows, l.cols)
		}
		if needOutput &&
			(ex.Output.Rows != l.rows || ex.Output.Cols != l.cols || len(ex.Output.Cells) != l.rows*l.cols) {
			return fmt.Errorf("example %d: output canvas is %dx%d, the learner's is %dx%d", i, ex.Output.Rows,
				ex.Output.Cols, l.rows, l.cols)
		}
		if l.frameCandidates > 0 && (len(ex.Frames) < 1 || len(ex.Frames) > l.frameCandidates) {
			return fmt.Errorf("example %d: %d candidate frames (Example.Frames: arcsolver.WithFrameCandidates), "+
				"want 1 to %s=%d", i, len(ex.Frames), experts.ParamFrameCandidates, l.frameCandidates)
		}
		if l.anchored && l.frameCandidates == 0 && needOutput && (ex.Frame[2] < 1 || ex.Frame[3] < 1) {
			return fmt.Errorf("example %d: the anchor-relative expert (%s=%s) needs each training example's frame "+
				"(Example.Frame: arcsolver.WithFrames with an anchored proposal), got %v", i, experts.ParamLattice,
				experts.LatticeAnchored, ex.Frame)
		}
		if l.condDim >= 0 && len(ex.Cond) != l.condDim {
			return fmt.Errorf("example %d: conditioning vector has length %d, want %d", i, len(ex.Cond), l.condDim)
		}
		if l.condDim < 0 {
			l.condDim = len(ex.Cond)
		}
	}
	return nil
}

// newFitRun reads the training hyperparameters and checks them before any training. A store may be
// filled without Parse, so params.CheckScope checks them against their declarations. It takes the first
// elements of starts as the restarts' starts. It lays out a step's batch: ParamAugment copies of the
// pairs (all examples, or a minibatch of ParamBatchPairs), padded to a multiple of ParamPadPairs.
func (l *Learner) newFitRun(examples []Example, starts *Starts, progress func(Progress)) (*fitRun, error) {
	scope := l.store.RootScope()
	if err := params.CheckScope(scope); err != nil {
		return nil, err
	}
	run := &fitRun{progress: progress, fitSettings: fitSettings{
		examples: examples, copies: max(1, param[int](scope, ParamAugment)),
		augment: augmentOptions(scope, examples, starts), maxSteps: param[int](scope, ParamSteps),
		hardSteps: param[int](scope, ParamHardSteps), hardPatience: param[int](scope, ParamHardPatience),
		patience: param[int](scope, ParamFitPatience), restarts: param[int](scope, ParamRestarts),
		beam: param[int](scope, ParamGateBeam), beamSteps: param[int](scope, ParamGateBeamSteps),
		beamNeighbors: param[bool](scope, ParamGateBeamNeighbors)}}
	run.margin = param[float64](scope, ParamGateInitMargin)
	run.held = param[string](scope, ParamGateInitTrain) == ProposalTrainHard
	if run.heldSteps = param[int](scope, ParamHeldSteps); run.heldSteps == 0 || run.heldSteps > run.maxSteps {
		run.heldSteps = run.maxSteps
	}
	if run.unstartedSteps = param[int](scope, ParamUnproposedSteps); run.unstartedSteps == 0 ||
		run.unstartedSteps > run.maxSteps || starts == nil {
		run.unstartedSteps = run.maxSteps
	}
	expert := experts.ExpertFromScope(scope, l.rows, l.cols)
	if starts != nil {
		if starts.Expert != expert {
			return nil, fmt.Errorf("the starts are elements of another expert "+
				"(lattice %v) than the learner's (%v)", starts.Expert.Lattice, expert.Lattice)
		}
		run.starts, run.hasStarts = starts.Elements[:min(len(starts.Elements), run.restarts)], true
	}
	run.schedule = strings.Split(param[string](scope, ParamRestartExperts), ",")
	run.freeMasks = make([][]float32, len(run.schedule))
	for i := range run.schedule {
		run.schedule[i] = strings.TrimSpace(run.schedule[i])
		var err error
		if run.freeMasks[i], err = expert.FreeGates(run.schedule[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", ParamRestartExperts, err)
		}
	}
	if maxCells := param[int](scope, ParamMaxCells); maxCells > 0 && l.rows*l.cols > maxCells {
		run.restarts = max(1, len(run.starts)) // the restarts that start at an element run on any canvas
	}
	batchPairs := param[int](scope, ParamBatchPairs)
	run.real = len(examples)
	if batchPairs > 0 && len(examples) > batchPairs {
		// Minibatches: every step takes batchPairs of the pairs (trainPhase draws them), all real.
		run.minibatch, run.real = batchPairs, batchPairs
		run.order = make([]int, len(examples)) // set for each restart by resetOrder
	}
	run.pairs = (run.real + l.padPairs - 1) / l.padPairs * l.padPairs
	run.padded = examples[:run.real]
	for len(run.padded) < run.pairs {
		run.padded = append(run.padded[:len(run.padded):len(run.padded)], examples[0])
	}
	run.batch = run.copies * run.pairs
	return run, nil
}

// augmentOptions are the color permutations the augmentation may use on the examples.
func augmentOptions(scope *model.Scope, examples []Example, starts *Starts) datasets.AugmentOptions {
	augment := datasets.AugmentOptions{KeepBlack: param[bool](scope, ParamAugmentKeepBlack)}
	inputs, outputs := make([]datasets.Canvas, len(examples)), make([]datasets.Canvas, len(examples))
	for i, ex := range examples {
		inputs[i], outputs[i] = ex.Input, ex.Output
	}
	if param[bool](scope, ParamAugmentFixOutputColors) {
		augment.Fixed = datasets.OutputOnlyColors(inputs, outputs)
	}
	if starts != nil {
		for _, c := range starts.Keep {
			if !slices.Contains(augment.Fixed, c) {
				augment.Fixed = append(augment.Fixed, c)
			}
		}
		slices.Sort(augment.Fixed)
	}
	return augment
}

// prepare builds and compiles the prediction graphs and the training graphs for batch rows: none when
// batch is 0, and with hard also the hard-gated one. It initializes the new variables and keeps their
// initial values for Reset. It returns the time it took, zero when everything was already compiled.
func (l *Learner) prepare(batch int, hard bool) (time.Duration, error) {
	start := time.Now()
	if l.stepExec == nil {
		if err := l.buildExecs(); err != nil {
			return 0, err
		}
	}
	if hard && l.hardStepExec == nil {
		var err error
		if l.hardStepExec, err = model.NewExec(l.backend, l.store, l.stepGraph(l.opt, true)); err != nil {
			return 0, err
		}
	}
	predShapes := predictInputShapes(l)
	jobs := []compileJob{{l.predExec, predShapes}, {l.softExec, predShapes}}
	if batch > 0 {
		stepShapes := stepInputShapes(l, batch)
		jobs = append([]compileJob{{l.stepExec, stepShapes}}, jobs...)
		if l.hardStepExec != nil {
			jobs = append(jobs, compileJob{l.hardStepExec, stepShapes})
		}
	}
	compiled := false
	for _, j := range jobs {
		done, err := l.compile(j)
		if err != nil {
			return 0, err
		}
		compiled = compiled || done
	}
	if err := l.initializeVariables(); err != nil {
		return 0, err
	}
	if !compiled {
		return 0, nil
	}
	return time.Since(start), nil
}

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
