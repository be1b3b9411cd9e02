// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/experts"
)

// modelOutputs builds the architecture's outputs. previous is the output canvas so far, for an
// autoregressive architecture.
func (l *Learner) modelOutputs(scope *model.Scope, tokens, previous, cond, frames *Node) *Outputs {
	if frames != nil {
		scope.SetGraphParam(tokens.Graph(), FramesGraphParam, frames)
	}
	if l.arch.Autoregressive() {
		return l.arch.BuildAutoregressive(scope, l.rows, l.cols, tokens, previous, cond)
	}
	return l.arch.Build(scope, l.rows, l.cols, tokens, cond)
}

// stepGraph is the graph function of a training step, with the gates held discretized when hard.
func (l *Learner) stepGraph(opt optimizer.Interface, hard bool) func(scope *model.Scope, inputs []*Node) []*Node {
	return func(scope *model.Scope, inputs []*Node) []*Node {
		if hard {
			scope.SetGraphParam(inputs[0].Graph(), experts.HardGatesGraphParam, true)
		}
		return l.trainStep(scope, opt, stepInputsOf(l, inputs), hard)
	}
}

// trainStep builds one training step. It computes the batch's loss (the cross-entropy, plus any
// regularization the architecture added with train.AddRegularizationLoss) and the optimizer's update.
// It also returns the cell accuracy and per-example exactness of the predictions before the update.
//
// With frozenGates, the update leaves out the gating FFNs' variables, optimizer momentum included, so
// the gates stay exactly where the soft training left them.
func (l *Learner) trainStep(
	scope *model.Scope, opt optimizer.Interface, in stepInputs[*Node], frozenGates bool,
) []*Node {
	g := in.tokens.Graph()
	scope.Store().SetTraining(g, true)
	// Teacher forcing for an autoregressive model.
	out := l.modelOutputs(scope, in.tokens, in.targets, in.cond, in.frames)
	theLoss := crossEntropy(out.Logits, in.targets, in.rows)
	if out.SmoothedLogits != nil {
		// Section 4.2: the sum of the cross-entropies of the plain and smoothed predictions.
		theLoss = Add(theLoss, crossEntropy(out.SmoothedLogits, in.targets, in.rows))
	}
	if reg := train.GetRegularizationLoss(g); reg != nil {
		// The architecture's own loss terms, added with GoMLX's train.AddRegularizationLoss.
		theLoss = Add(theLoss, reg)
	}
	if frozenGates {
		defer freezeGates(scope.Store())()
	}
	opt.UpdateGraph(scope, g, theLoss)
	return []*Node{theLoss, cellAccuracy(out.Logits, in.targets, in.rows), exactPerExample(out.Logits, in.targets)}
}

// freezeGates makes the trainable variables of the gating FFNs untrainable and returns the function that
// makes them trainable again.
func freezeGates(store *model.Store) (thaw func()) {
	var frozen []*model.Variable
	for v := range store.IterVariables() {
		if v.Trainable && isGateVariable(v.Path()) {
			v.SetTrainable(false)
			frozen = append(frozen, v)
		}
	}
	return func() {
		for _, v := range frozen {
			v.SetTrainable(true)
		}
	}
}

// isGateVariable says whether a variable path belongs to a gating FFN of a mask expert.
func isGateVariable(path string) bool {
	_, ok := experts.GateVariableOf(path)
	return ok
}

// crossEntropy is the mean cross-entropy of logits [batch, n, tokens] against targets [batch, n] over
// all cells, pad cells included (Appendix B.2). rows ([batch] bool, may be nil) leaves out the batch's
// padding rows (ParamPadPairs); GoMLX's loss takes it as a [batch, n] mask.
func crossEntropy(logits, targets, rows *Node) *Node {
	labels := []*Node{ExpandAxes(targets, -1)}
	if rows != nil {
		labels = append(labels, rowsMask(rows, targets))
	}
	return loss.SparseCategoricalCrossEntropyLogits(labels, []*Node{logits})
}

// rowsMask broadcasts rows [batch] bool to the cells of x [batch, n].
func rowsMask(rows, x *Node) *Node {
	return BroadcastToDims(ExpandAxes(rows, -1), x.Shape().Dimensions...)
}

// cellAccuracy is the fraction of cells whose argmax prediction equals the target, over the rows set in
// rows (all when nil).
func cellAccuracy(logits, targets, rows *Node) *Node {
	right := ConvertDType(Equal(ConvertDType(ArgMax(logits, -1), targets.DType()), targets), dtypes.Float32)
	if rows == nil {
		return ReduceAllMean(right)
	}
	return MaskedReduceAllMean(right, rowsMask(rows, right))
}

// exactPerExample returns [batch] float32: 1 where every cell of the argmax prediction equals targets.
func exactPerExample(logits, targets *Node) *Node {
	pred := ConvertDType(ArgMax(logits, -1), targets.DType())
	return ConvertDType(LogicalAll(Equal(pred, targets), -1), dtypes.Float32)
}

// predictGraph is the graph function of prediction with hard or soft gates. It returns the argmax
// canvas [predictChunk, n] int32, then the gate tensors of the first layer's expert(s).
func (l *Learner) predictGraph(hard bool) func(scope *model.Scope, inputs []*Node) []*Node {
	return func(scope *model.Scope, inputs []*Node) []*Node {
		in := predictInputsOf(l, inputs)
		scope.SetGraphParam(in.tokens.Graph(), experts.HardGatesGraphParam, hard)
		out := l.modelOutputs(scope, in.tokens, in.previous, in.cond, in.frames)
		outs := []*Node{ConvertDType(ArgMax(out.Logits, -1), dtypes.Int32)}
		if out.Gates != nil {
			outs = append(outs, out.Gates.GateTensors()...)
		}
		if out.Gates2 != nil {
			outs = append(outs, out.Gates2.GateTensors()...)
		}
		return outs
	}
}
