// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"maps"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/norm"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/fastgraph"
)

// Hyperparameters of the LatFormer layer, read from the model.Store by LatFormer (Param). Defaults in
// brackets; DefaultParams lists them.
const (
	// ParamNumHeads is the number of attention heads [1].
	ParamNumHeads = "latformer_heads"
	// ParamFFNDim is the hidden width of the feed-forward network; 0 means 4 x the model dimension (128
	// for the paper's d = 32) [0].
	ParamFFNDim = "latformer_ffn_dim"
	// ParamAttention chooses how the layer attends. AttentionFull is the paper's masked attention,
	// softmax(Q Kᵀ/√d) ⊙ M renormalized (Section 3.1). AttentionMaskOnly drops the query-key term and
	// attends with the mask alone, (M / rowsum(M)) V, computed per lattice axis without the n x n mask
	// (KroneckerMaskAttention). The two agree when the softmax is uniform; mask-only has no query and key
	// projections, so it cannot weigh cells by their content [full].
	ParamAttention = "latformer_attention"
	// ParamActions is the number of group actions a layer attends with, 1 or 2. With 2 the layer has a
	// second mask expert and a second masked attention (own gates, projections and output), both added to
	// the residual, so that y = f(g₁·x, g₂·x, x). Mirror tilings and symmetry completion need it: they see
	// the input and its mirror image side by side [1].
	ParamActions = "latformer_actions"
)

// The scopes of a layer's mask experts.
const (
	// ExpertScope is the first expert's scope.
	ExpertScope = "expert"
	// SecondExpertScope is the second action's expert's scope (ParamActions = 2).
	SecondExpertScope = "expert_2"
)

// Values of ParamAttention.
const (
	AttentionFull     = "full"
	AttentionMaskOnly = "mask_only"
)

// params declares every Param* key of this package with its default and allowed values.
var params = hparams.NewTable(
	hparams.Def(ParamNumHeads, 1).AtLeast(1),
	hparams.Def(ParamFFNDim, 0).AtLeast(0),
	hparams.Def(ParamAttention, AttentionFull).OneOf(AttentionFull, AttentionMaskOnly),
	hparams.Def(ParamActions, 1).OneOf(1, 2),
)

// defaultParams holds the defaults of params.
var defaultParams = params.Defaults()

// Params returns the declarations of the LatFormer layer's hyperparameters (the Param* keys).
func Params() hparams.Table { return maps.Clone(params) }

// DefaultParams returns the layer's hyperparameters with their defaults, in a new map.
func DefaultParams() map[string]any { return params.Defaults() }

// Param returns the value of the layer hyperparameter key (a Param* constant) in scope, or its default.
// T must be the default's type: int for ParamNumHeads, ParamFFNDim and ParamActions, string for
// ParamAttention. A value of another type, such as an int given as a float64, is converted as
// model.GetParamOr does.
func Param[T any](scope *model.Scope, key string) T {
	return model.GetParamOr(scope, key, defaultParams[key].(T))
}

// LatFormerBuilder configures a LatFormer layer. Create it with LatFormer and call Done.
type LatFormerBuilder struct {
	scope     *model.Scope
	x, cond   *Node
	expert    experts.Expert
	numHeads  int
	ffnDim    int
	attention string
	smoothing bool
	extent    *Node
	actions   int
}

// LatFormer creates a builder for the LatFormer layer of Figure 3a: a post-LN Transformer encoder layer
// whose self-attention weights are modulated by the soft mask of a lattice mask expert:
//
//	M = expert(x, cond)                          (experts.Expert: gates from x and the conditioning vector)
//	h = LayerNorm(x + MaskedAttention(x; M))     (Section 3.1, multi-head, learned projections)
//	y = LayerNorm(h + FFN([h, cond]))            (ReLU FFN; cond is broadcast to every cell)
//
// x is [batch, n, d] with n = expert.Rows*expert.Cols cells in row-major order. The hyperparameters
// come from scope (ParamNumHeads, ParamFFNDim, and the experts.Param* keys that
// experts.ExpertFromScope reads). The With* methods override them. With two actions (ParamActions),
// the attention term is the sum of two masked attentions, each with its own expert:
//
//	h = LayerNorm(x + MaskedAttention(x; M₁) + MaskedAttention(x; M₂))
func LatFormer(scope *model.Scope, x *Node, expert experts.Expert) *LatFormerBuilder {
	if x.Rank() != 3 || x.Shape().Dimensions[1] != expert.N() {
		exceptions.Panicf("LatFormer: x must be [batch, %d, d] for a %dx%d canvas, got %s", expert.N(), expert.Rows,
			expert.Cols, x.Shape())
	}
	return &LatFormerBuilder{
		scope: scope, x: x, expert: expert,
		numHeads:  Param[int](scope, ParamNumHeads),
		ffnDim:    Param[int](scope, ParamFFNDim),
		attention: Param[string](scope, ParamAttention),
		actions:   Param[int](scope, ParamActions),
	}
}

// WithActions sets the number of group actions the layer attends with, 1 or 2 (ParamActions).
func (b *LatFormerBuilder) WithActions(n int) *LatFormerBuilder { b.actions = n; return b }

// WithConditioning sets a conditioning vector cond [batch, dc], fed to the expert's gates and the FFN.
// LARC uses a T5 sentence embedding (Section 5.3).
func (b *LatFormerBuilder) WithConditioning(cond *Node) *LatFormerBuilder { b.cond = cond; return b }

// WithNumHeads sets the number of attention heads.
func (b *LatFormerBuilder) WithNumHeads(n int) *LatFormerBuilder { b.numHeads = n; return b }

// WithFFNDim sets the FFN hidden width (0: 4 x the model dimension).
func (b *LatFormerBuilder) WithFFNDim(d int) *LatFormerBuilder { b.ffnDim = d; return b }

// WithAttention sets how the layer attends: AttentionFull (the paper's) or AttentionMaskOnly (see
// ParamAttention).
func (b *LatFormerBuilder) WithAttention(kind string) *LatFormerBuilder { b.attention = kind; return b }

// WithSmoothing also computes the prediction with the smoothed mask of Section 4.2, in
// LatFormerOutput.Smoothed.
func (b *LatFormerBuilder) WithSmoothing(smoothing bool) *LatFormerBuilder {
	b.smoothing = smoothing
	return b
}

// WithExtents sets each input grid's rows and columns, [batch, 2] int32 (experts.GridExtents). A
// size-relative expert needs them.
func (b *LatFormerBuilder) WithExtents(extent *Node) *LatFormerBuilder {
	b.extent = extent
	return b
}

// LatFormerOutput is what a LatFormer layer computes.
type LatFormerOutput struct {
	// Output is the layer output [batch, n, d].
	Output *Node
	// Smoothed is the output with the smoothed mask (nil unless WithSmoothing).
	Smoothed *Node
	// Gates are the expert's gates, and Mask its (factored) mask.
	Gates *experts.Gates
	Mask  *experts.LatticeMask
	// Gates2 and Mask2 are those of the second action's expert (nil with one action).
	Gates2 *experts.Gates
	Mask2  *experts.LatticeMask
}

// Done builds the layer.
func (b *LatFormerBuilder) Done() *LatFormerOutput {
	scope, x := b.scope, b.x
	d := x.Shape().Dimensions[2]
	if b.actions != 1 && b.actions != 2 {
		exceptions.Panicf("LatFormer: %s must be 1 or 2, got %d", ParamActions, b.actions)
	}
	out := &LatFormerOutput{}
	// attend returns the masked attention of one action, and its smoothed variant.
	attend := func(expertScope, attnScope *model.Scope) ([]*Node, *experts.Gates, *experts.LatticeMask) {
		gates := b.expert.GatesFor(expertScope, x, b.cond, b.extent)
		lm := b.expert.Mask(gates)
		lms := []*experts.LatticeMask{lm}
		if b.smoothing {
			lms = append(lms, b.expert.SmoothedMask(gates))
		}
		switch b.attention {
		case AttentionFull:
			return MultiLatticeMaskedAttention(attnScope, x, lms, b.numHeads), gates, lm
		case AttentionMaskOnly:
			return MultiMaskOnlyAttention(attnScope, x, lms, b.numHeads), gates, lm
		}
		exceptions.Panicf("LatFormer: attention %q unknown (want %q or %q)",
			b.attention, AttentionFull, AttentionMaskOnly)
		return nil, nil, nil
	}
	var attn []*Node
	attn, out.Gates, out.Mask = attend(scope.In(ExpertScope), scope.In("attention"))
	if b.actions == 2 {
		var attn2 []*Node
		attn2, out.Gates2, out.Mask2 = attend(scope.In(SecondExpertScope), scope.In("attention_2"))
		for i := range attn {
			attn[i] = Add(attn[i], attn2[i])
		}
	}
	ffnDim := b.ffnDim
	if ffnDim <= 0 {
		ffnDim = 4 * d
	}
	outs := make([]*Node, len(attn))
	for i, a := range attn {
		// Each prediction shares all weights (norm, FFN) with the others.
		h := norm.LayerNorm(scope.At("norm1"), Add(x, a), -1).Done()
		ffnIn := h
		if b.cond != nil {
			batch, n := h.Shape().Dimensions[0], h.Shape().Dimensions[1]
			c := ConvertDType(b.cond, h.DType())
			c = BroadcastToDims(Reshape(c, batch, 1, c.Shape().Dimensions[1]), batch, n, c.Shape().Dimensions[1])
			ffnIn = Concatenate([]*Node{h, c}, -1)
		}
		f := fastgraph.Dense(scope.At("ffn_hidden"), ffnIn, true, ffnDim)
		f = fastgraph.Dense(scope.At("ffn_output"), fastgraph.Relu(f), true, d)
		outs[i] = norm.LayerNorm(scope.At("norm2"), Add(h, f), -1).Done()
	}
	out.Output = outs[0]
	if b.smoothing {
		out.Smoothed = outs[1]
	}
	return out
}

// MultiLatticeMaskedAttention is the LatFormer layer's full attention: multi-head masked self-attention
// of x [batch, n, d] with several factored masks (MaskedAttentionCoreFactored). The masks share the
// projections and the softmax, as the plain and smoothed predictions of Section 4.2 do. It returns one
// output [batch, n, d] per mask. Each equals MaskedAttention(scope, x, x, x) with numHeads heads and
// that mask's Dense tensor, with the same variables under scope.
func MultiLatticeMaskedAttention(scope *model.Scope, x *Node, masks []*experts.LatticeMask, numHeads int) []*Node {
	batch, n, d := x.Shape().Dimensions[0], x.Shape().Dimensions[1], x.Shape().Dimensions[2]
	if d%numHeads != 0 {
		exceptions.Panicf("MultiLatticeMaskedAttention: model dimension %d is not divisible by %d heads", d, numHeads)
	}
	dh := d / numHeads
	project := func(name string) *Node { // [batch, heads, n, dh]
		return swapHeadsAndCells(fastgraph.Dense(scope.In("%s", name), x, true, numHeads, dh))
	}
	heads := MaskedAttentionCoreFactored(project("query"), project("key"), project("value"), masks)
	outs := make([]*Node, len(heads))
	for i, h := range heads {
		h = Reshape(swapHeadsAndCells(h), batch, n, d)
		outs[i] = fastgraph.Dense(scope.At("output"), h, true, d)
	}
	return outs
}

// swapHeadsAndCells turns [batch, n, heads, dh] into [batch, heads, n, dh] and back. For one head,
// where both layouts hold the same data, it reshapes instead of transposing.
func swapHeadsAndCells(x *Node) *Node {
	dims := x.Shape().Dimensions
	if dims[1] == 1 || dims[2] == 1 {
		return Reshape(x, dims[0], dims[2], dims[1], dims[3])
	}
	return TransposeAllDims(x, 0, 2, 1, 3)
}

// MultiMaskOnlyAttention is MultiLatticeMaskedAttention without the query-key term. Its weights are
// each mask's normalized rows, computed per lattice axis (KroneckerMaskAttention), so no n x n tensor
// is formed. It has MultiLatticeMaskedAttention's value and output projections, and no query or key
// projection.
func MultiMaskOnlyAttention(scope *model.Scope, x *Node, masks []*experts.LatticeMask, numHeads int) []*Node {
	batch, n, d := x.Shape().Dimensions[0], x.Shape().Dimensions[1], x.Shape().Dimensions[2]
	if d%numHeads != 0 {
		exceptions.Panicf("MultiMaskOnlyAttention: model dimension %d is not divisible by %d heads", d, numHeads)
	}
	dh := d / numHeads
	// [batch, n, heads, dh] -> [batch, n, heads*dh]: the mask is the same for every head.
	v := Reshape(fastgraph.Dense(scope.In("value"), x, true, numHeads, dh), batch, n, d)
	outs := make([]*Node, len(masks))
	for i, m := range masks {
		h := KroneckerMaskAttention(v, []int{m.Rows, m.Cols}, LatticeMaskTerms(m))
		outs[i] = fastgraph.Dense(scope.At("output"), h, true, d)
	}
	return outs
}
