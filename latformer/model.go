// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/fastgraph"
	latlayers "github.com/latformer/latformer/layers"
)

// Model builds the LatFormer graph for a rows x cols canvas.
type Model struct {
	Rows, Cols int
}

// FramesGraphParam is the graph parameter that holds an anchor-relative expert's frames,
// [batch, experts.FrameLen] int32. The learner sets it before Build.
const FramesGraphParam = "latformer_frames"

// Outputs are the graph outputs of Model.Build.
type Outputs struct {
	// Logits are the per-cell logits over the 11 tokens (10 colors + pad): [batch, n, 11].
	Logits *Node
	// SmoothedLogits are the logits of the smoothed-mask prediction (nil unless ParamSmoothing).
	SmoothedLogits *Node
	// Gates are the gates of the first layer's expert, and Expert its configuration.
	Gates  *experts.Gates
	Expert experts.Expert
	// Gates2 are the gates of the first layer's second action (layers.ParamActions = 2; else nil).
	Gates2 *experts.Gates
}

// Build builds the model on tokens [batch, n], int32 tokens 0..10 on the row-major canvas (n =
// Rows*Cols). cond [batch, dc] is an optional conditioning vector, such as a T5 embedding, or nil:
//
//	x = onehot(tokens) W_embed        (with ParamNoise = w: ((1-w) onehot + w 1) W_embed, Appendix B.4)
//	x = LatFormer layer(s)(x, cond)   (layers.LatFormer; the gates are per example)
//	logits = x W_head + b
func (m Model) Build(scope *model.Scope, tokens, cond *Node) *Outputs {
	if tokens.Rank() != 2 || tokens.Shape().Dimensions[1] != m.Rows*m.Cols {
		exceptions.Panicf("latformer.Model: tokens must be [batch, %d] for a %dx%d canvas, got %s", m.Rows*m.Cols,
			m.Rows, m.Cols, tokens.Shape())
	}
	d := param[int](scope, ParamDim)
	numLayers := param[int](scope, ParamNumLayers)
	smoothing := param[bool](scope, ParamSmoothing)
	noise := param[float64](scope, ParamNoise)

	onehot := noisyOneHot(scope, tokens, noise, param[bool](scope, ParamNoiseRandom))
	x := fastgraph.Dense(scope.In("embedding"), onehot, false, d)
	expert := experts.ExpertFromScope(scope, m.Rows, m.Cols)
	out := &Outputs{Expert: expert}
	var smoothX, extent *Node
	if expert.Lattice == experts.Anchored {
		// Every layer acts on the frames read off each input (experts.ParamLattice "anchored", Example.Frame).
		frames := model.GetGraphParamOr[*Node](scope, tokens.Graph(), FramesGraphParam, nil)
		if frames == nil {
			exceptions.Panicf("latformer.Model: an anchor-relative expert (%s=%s) needs the frames as the graph "+
				"parameter %q (the learner sets it from Example.Frame)", experts.ParamLattice, experts.LatticeAnchored,
				FramesGraphParam)
		}
		extent = frames
	} else if expert.Lattice.SizeRelative() {
		// Every layer acts on the input grid's lattice (experts.ParamLattice "grid").
		extent = experts.GridExtents(tokens, m.Rows, m.Cols, datasets.PadToken)
	}
	for i := range numLayers {
		lf := latlayers.LatFormer(scope.In("latformer_%d", i), x, expert).WithConditioning(cond).WithExtents(extent).
			WithSmoothing(smoothing && i == numLayers-1).Done()
		if i == 0 {
			out.Gates, out.Gates2 = lf.Gates, lf.Gates2
		}
		x = lf.Output
		smoothX = lf.Smoothed
	}
	head := scope.In("head")
	out.Logits = fastgraph.Dense(head, x, true, datasets.NumTokens)
	if smoothX != nil {
		out.SmoothedLogits = fastgraph.Dense(scope.At("head"), smoothX, true, datasets.NumTokens)
	}
	return out
}

// noisyOneHot is the one-hot encoding [batch, n, NumTokens] of tokens with the noise of Appendix B.4:
// (1-w) onehot + w 1, or (1-w) onehot + w u with u ~ U(0,1) per entry when random.
func noisyOneHot(scope *model.Scope, tokens *Node, w float64, random bool) *Node {
	onehot := OneHot(tokens, datasets.NumTokens, dtypes.Float32)
	if w <= 0 {
		return onehot
	}
	if random {
		return Add(MulScalar(onehot, 1-w), MulScalar(scope.RandomUniform(tokens.Graph(), onehot.Shape()), w))
	}
	return AddScalar(MulScalar(onehot, 1-w), w)
}
