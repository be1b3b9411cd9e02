// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package baselines

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/layers/attention"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/gomlx/gomlx/ml/layers/norm"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/zoo/transformer"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// architecture is a baseline: its name, the default of ParamLayers, and its graph from the tokens and
// the number of layers, depth (the tokens checked against the canvas first).
func architecture(
	name string, defaultLayers int,
	build func(scope *model.Scope, rows, cols, depth int, tokens *Node) *latformer.Outputs,
) latformer.Architecture {
	return latformer.Architecture{
		Name:   name,
		Params: params(defaultLayers),
		Build: func(scope *model.Scope, rows, cols int, tokens, _ *Node) *latformer.Outputs {
			check(name, rows, cols, tokens.Shape().Dimensions)
			return build(scope, rows, cols, numLayers(scope, defaultLayers), tokens)
		},
	}
}

func dim(scope *model.Scope) int   { return param[int](scope, ParamDim) }
func heads(scope *model.Scope) int { return param[int](scope, ParamHeads) }

// embed maps tokens [batch, n] to [batch, n, d] with a learned table.
func embed(scope *model.Scope, tokens *Node, d int) *Node {
	return layers.Embedding(scope, tokens, dtypes.Float32, datasets.NumTokens, d)
}

// head maps [batch, n, d] to the per-cell logits [batch, n, NumTokens].
func head(scope *model.Scope, x *Node) *latformer.Outputs {
	return &latformer.Outputs{Logits: layers.Dense(scope, x, true, datasets.NumTokens)}
}

// ffnBlock is the second half of a post-LN encoder layer, as in the LatFormer layer:
// LayerNorm(h + W2 ReLU(W1 h)), with a hidden width of 4d.
func ffnBlock(scope *model.Scope, h *Node) *Node {
	d := h.Shape().Dimensions[h.Rank()-1]
	f := layers.Dense(scope.In("ffn_hidden"), h, true, 4*d)
	f = layers.Dense(scope.In("ffn_output"), activation.Relu(f), true, d)
	return norm.LayerNorm(scope.In("norm2"), Add(h, f), -1).Done()
}

// CNN is the convolutional baseline: the embedded canvas [batch, rows, cols, d] through baseline_layers
// [4] residual 3 x 3 convolutions with ReLU (the first without the residual), then a per-cell linear head.
// Its receptive field is 2·layers+1 cells: a CNN sees only local neighbourhoods, which is why it cannot
// learn a long translation or a rotation of the whole canvas.
func CNN() latformer.Architecture {
	return architecture("cnn", 4, func(scope *model.Scope, rows, cols, depth int, tokens *Node) *latformer.Outputs {
		batch, d := tokens.Shape().Dimensions[0], dim(scope)
		x := Reshape(embed(scope.In("embed"), tokens, d), batch, rows, cols, d)
		for l := range depth {
			h := activation.Relu(conv3x3(scope.In("conv_%d", l), x, d))
			if l == 0 {
				x = h
			} else {
				x = Add(x, h)
			}
		}
		return head(scope.In("head"), Reshape(x, batch, rows*cols, d))
	})
}

// conv3x3 is layers.Convolution(scope, x).Channels(d).KernelSize(3).PadSame().Done() for x [batch, rows,
// cols, channels], computed as one matrix product: the kernel is the same "weights" variable
// [3, 3, channels, d] (with "biases" [d]) that layers.Convolution creates in the scope's "conv"
// sub-scope, and the input is zero-padded and unrolled into the 9 shifted copies of each cell's
// neighbourhood ("im2col"). Same function and parameters (TestConv3x3 checks the two agree); on the
// pure-Go backend the product and its gradient run on the SIMD matrix multiplication instead of the
// backend's generic convolution loop (docs/arc-baselines.md has the timings of both).
func conv3x3(scope *model.Scope, x *Node, d int) *Node { return maskedConv3x3(scope, x, d, nil) }

// The PixelCNN masks of a 3 x 3 kernel (van den Oord et al. 2016), row-major over (dy, dx): mask A lets a
// cell see the cells before it (the row above and the cell to its left), mask B also the cell itself.
var (
	pixelMaskA = []float32{1, 1, 1, 1, 0, 0, 0, 0, 0}
	pixelMaskB = []float32{1, 1, 1, 1, 1, 0, 0, 0, 0}
)

// maskedConv3x3 is conv3x3 with the kernel's taps multiplied by mask (9 values in row-major (dy, dx)
// order, nil for none): the masked convolution of PixelCNN.
func maskedConv3x3(scope *model.Scope, x *Node, d int, mask []float32) *Node {
	batch, rows, cols, ch := x.Shape().Dimensions[0], x.Shape().Dimensions[1], x.Shape().Dimensions[2],
		x.Shape().Dimensions[3]
	scope = scope.In("conv")
	kernel := scope.VariableWithShape("weights", shapes.Make(x.DType(), 3, 3, ch, d)).NodeValue(x.Graph())
	if mask != nil {
		maskNode := Const(x.Graph(), tensors.FromFlatDataAndDimensions(mask, 3, 3, 1, 1))
		kernel = Mul(kernel, ConvertDType(maskNode, x.DType()))
	}
	bias := scope.VariableWithShape("biases", shapes.Make(x.DType(), d)).NodeValue(x.Graph())
	// Zero padding by concatenation: the pure-Go backend has no gradient for Pad.
	zr := ZerosLike(Slice(x, AxisRange(), AxisRange(0, 1)))
	padded := Concatenate([]*Node{zr, x, zr}, 1)
	zc := ZerosLike(Slice(padded, AxisRange(), AxisRange(), AxisRange(0, 1)))
	padded = Concatenate([]*Node{zc, padded, zc}, 2)
	patches := make([]*Node, 0, 9)
	for dy := range 3 {
		for dx := range 3 {
			patches = append(patches,
				Slice(padded, AxisRange(), AxisRange(dy, dy+rows), AxisRange(dx, dx+cols), AxisRange()))
		}
	}
	unrolled := Reshape(Concatenate(patches, -1), batch*rows*cols, 9*ch)
	out := Add(Dot(unrolled, Reshape(kernel, 9*ch, d)).Product(), ExpandAxes(bias, 0))
	return Reshape(out, batch, rows, cols, d)
}

// PixelCNN is the autoregressive baseline (van den Oord et al. 2016, conditional PixelCNN): the output
// canvas so far (previous) goes through a masked 3 x 3 convolution of type A, then baseline_layers-1 [4]
// residual masked convolutions of type B, each with ReLU and the input canvas added through an unmasked
// 3 x 3 convolution (the conditioning), then a per-cell head. The logits of cell k depend on previous only
// through the cells before k (TestPixelCNNCausal); the learner trains it by teacher forcing and decodes
// the output cell by cell (latformer.Architecture.BuildAutoregressive).
func PixelCNN() latformer.Architecture {
	const pixelCNNLayers = 4 // the default of ParamLayers
	return latformer.Architecture{
		Name:   "pixelcnn",
		Params: params(pixelCNNLayers),
		BuildAutoregressive: func(scope *model.Scope, rows, cols int, tokens, previous, _ *Node) *latformer.Outputs {
			check("pixelcnn", rows, cols, tokens.Shape().Dimensions)
			check("pixelcnn", rows, cols, previous.Shape().Dimensions)
			batch, d := tokens.Shape().Dimensions[0], dim(scope)
			x := Reshape(embed(scope.In("embed_input"), tokens, d), batch, rows, cols, d)
			h := Reshape(embed(scope.In("embed_output"), previous, d), batch, rows, cols, d)
			for l := range numLayers(scope, pixelCNNLayers) {
				mask := pixelMaskB
				if l == 0 {
					mask = pixelMaskA
				}
				f := activation.Relu(Add(maskedConv3x3(scope.In("masked_%d", l), h, d, mask),
					conv3x3(scope.In("input_%d", l), x, d)))
				if l == 0 {
					h = f
				} else {
					h = Add(h, f)
				}
			}
			return head(scope.In("head"), Reshape(h, batch, rows*cols, d))
		},
	}
}

// AttentionAbs is self-attention with absolute positional encodings: the cell embeddings plus a learned
// embedding of each cell's index (GoMLX attention/pos.Learned), then baseline_layers [1] post-LN
// layers of multi-head self-attention (GoMLX attention.SelfAttention) and a ReLU FFN: the LatFormer
// layer with positions instead of a mask.
func AttentionAbs() latformer.Architecture {
	return architecture("attention_abs", 1, func(scope *model.Scope, rows, cols, depth int,
		tokens *Node) *latformer.Outputs {
		n, d, h := rows*cols, dim(scope), heads(scope)
		x := embed(scope.In("embed"), tokens, d)
		x = pos.NewLearned(scope.In("position"), n, d).PreEncode(x, Iota(x.Graph(), shapes.Make(dtypes.Int32, n), 0), 1)
		for l := range depth {
			ls := scope.In("layer_%d", l)
			a := attention.SelfAttention(ls.In("attention"), x, h, d/h).Done()
			x = ffnBlock(ls, norm.LayerNorm(ls.In("norm1"), Add(x, a), -1).Done())
		}
		return head(scope.In("head"), x)
	})
}

// AttentionRel is self-attention with relative positional encodings (Shaw, Uszkoreit and Vaswani 2018),
// extended to two dimensions with one table per axis: the attention logit of cell i for cell j is
//
//	(q_i·k_j + q_i·(a_r[clip(row_j - row_i)] + a_c[clip(col_j - col_i)])) / √d_h
//
// with offsets clipped to ±baseline_max_relative [29] and the tables shared by the heads (Shaw et al.
// share them across heads too). Shaw et al.'s second term, relative embeddings added to the values,
// is left out: their own ablation finds it adds nothing on translation, and it would need a
// [n, n, d] tensor. Otherwise the layer is AttentionAbs's, without absolute positions.
func AttentionRel() latformer.Architecture {
	return architecture("attention_rel", 1, func(scope *model.Scope, rows, cols, depth int,
		tokens *Node) *latformer.Outputs {
		d, h := dim(scope), heads(scope)
		clip := param[int](scope, ParamMaxRelative)
		x := embed(scope.In("embed"), tokens, d)
		for l := range depth {
			ls := scope.In("layer_%d", l)
			a := relativeAttention(ls.In("attention"), x, rows, cols, h, clip)
			x = ffnBlock(ls, norm.LayerNorm(ls.In("norm1"), Add(x, a), -1).Done())
		}
		return head(scope.In("head"), x)
	})
}

// relativeAttention is multi-head self-attention of x [batch, rows*cols, d] with AttentionRel's 2-D
// relative key term: the projections are made here, because the term needs the queries, and GoMLX's
// attention (pre-projected inputs, the term as its additive score bias) does the rest.
func relativeAttention(scope *model.Scope, x *Node, rows, cols, numHeads, clip int) *Node {
	batch, n, d := x.Shape().Dimensions[0], x.Shape().Dimensions[1], x.Shape().Dimensions[2]
	dh := d / numHeads
	q := layers.Dense(scope.In("query"), x, true, numHeads*dh) // [batch, n, heads·dh]
	k := layers.Dense(scope.In("key"), x, true, numHeads*dh)
	v := layers.Dense(scope.In("value"), x, true, numHeads*dh)
	qHeads := TransposeAllDims(Reshape(q, batch, n, numHeads, dh), 0, 2, 1, 3) // [batch, heads, n, dh]
	// The attention scales q·k by 1/√dh and then adds the bias; Shaw et al. scale the sum.
	bias := MulScalar(relativeLogits(scope, qHeads, rows, cols, clip), 1/math.Sqrt(float64(dh)))
	return attention.MultiHeadAttention(scope, q, k, v, numHeads, dh).
		WithPreProjected(true).
		WithAttentionBias(bias).
		Done()
}

// relativeLogits returns AttentionRel's relative key term q_i·(a_r[Δrow] + a_c[Δcol]) for q [batch, heads,
// rows*cols, dh], as [batch, heads, n, n], from one table of clipped offsets per axis.
func relativeLogits(scope *model.Scope, q *Node, rows, cols, clip int) *Node {
	batch, numHeads, n, dh := q.Shape().Dimensions[0], q.Shape().Dimensions[1], q.Shape().Dimensions[2],
		q.Shape().Dimensions[3]
	qaR, ohR := relTerm(scope.In("relative_rows"), q, rows, clip, dh)
	qaC, ohC := relTerm(scope.In("relative_cols"), q, cols, clip, dh)
	// Rows: [b, h, ri, ci, r] x [ri, rj, r] -> [b, h, ri, ci, rj], broadcast over cj.
	termR := Einsum("bhxcr,xyr->bhxcy", Reshape(qaR, batch, numHeads, rows, cols, 2*clip+1), ohR)
	termR = BroadcastToDims(ExpandAxes(termR, -1), batch, numHeads, rows, cols, rows, cols)
	// Columns: [b, h, ri, ci, r] x [ci, cj, r] -> [b, h, ri, ci, cj], broadcast over rj.
	termC := Einsum("bhxcr,cyr->bhxcy", Reshape(qaC, batch, numHeads, rows, cols, 2*clip+1), ohC)
	termC = BroadcastToDims(ExpandAxes(termC, 4), batch, numHeads, rows, cols, rows, cols)
	return Reshape(Add(termR, termC), batch, numHeads, n, n)
}

// relTerm returns q·a for every clipped offset of one axis, [batch, heads, n, 2·clip+1], and the constant
// one-hot [side_i, side_j, 2·clip+1] of the offset between positions i and j of that axis.
func relTerm(scope *model.Scope, q *Node, side, clip, dh int) (*Node, *Node) {
	r := 2*clip + 1
	table := scope.VariableWithShape("embeddings", shapes.Make(q.DType(), r, dh)).NodeValue(q.Graph())
	offset := make([][]int32, side) // clipped offset from position a to position b, shifted to 0..r-1
	for a := range side {
		offset[a] = make([]int32, side)
		for b := range side {
			offset[a][b] = int32(min(max(b-a, -clip), clip) + clip)
		}
	}
	return Einsum("bhid,rd->bhir", q, table), OneHot(Const(q.Graph(), offset), r, q.DType())
}

// transformerModel is the GoMLX zoo Transformer encoder the two Transformer baselines share: no causal
// mask, learned absolute positions, baseline_layers [4] layers of baseline_heads [4] heads, width
// baseline_dim [32] and an FFN of 4 x that.
func transformerModel(scope *model.Scope, n, depth int) (*transformer.Model, *pos.Learned) {
	d, h := dim(scope), heads(scope)
	positions := pos.NewLearned(scope.In("position"), n, d)
	m := transformer.New(scope).WithVocabSize(datasets.NumTokens).WithEmbedDim(d).WithNumLayers(depth).
		WithNumHeads(h).WithHeadDim(d / h).WithFFNDim(4 * d).WithMaxPosEmbed(n).WithCausalMask(false).
		WithPositionalEncoder(positions)
	return m, positions
}

// encoderLayers runs the zoo Transformer's positional encoding and layers on embeddings x [batch, n, d]
// that the caller built (Model.AllLayers does the same from token ids, which TransformerAug cannot use):
// learned positions 0..n-1, every layer at position 0 without a cache, no final normalization (the
// zoo's default).
func encoderLayers(m *transformer.Model, positions *pos.Learned, x *Node) *Node {
	m.PopulateKVCacheConfigs()
	g := x.Graph()
	batch, n := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	ids := BroadcastToDims(ExpandAxes(Iota(g, shapes.Make(dtypes.Int32, n), 0), 0), batch, n)
	x = positions.PreEncode(x, ids, 1)
	zero := ScalarZero(g, dtypes.Int32)
	for l := range m.NumLayers {
		x = m.ForwardLayer(m.Scope.In("layer_%d", l), l, x, zero, nil, nil, nil, transformer.CallOptions{})
	}
	return x
}

// Transformer is the Transformer encoder baseline (Vaswani et al. 2017) of GoMLX's ml/zoo/transformer.
func Transformer() latformer.Architecture {
	return architecture("transformer", 4, func(scope *model.Scope, rows, cols, depth int,
		tokens *Node) *latformer.Outputs {
		m, _ := transformerModel(scope, rows*cols, depth)
		return &latformer.Outputs{Logits: m.Logits(tokens, transformer.CallOptions{})}
	})
}

// AugmentActions are the group actions whose images of the input TransformerAug adds as inputs: the
// seven rotations and reflections of the square canvas other than the identity, and up- and down-scaling
// by 2 and 3 on both axes (the paper: "precomputed group actions of the input as extra inputs, for
// rotation, reflection and scaling").
func AugmentActions() []lattice.Action {
	return []lattice.Action{
		lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2},
		lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 3}, lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1},
		lattice.DiagonalReflection{AxisA: 0, AxisB: 1}, lattice.DiagonalReflection{AxisA: 0, AxisB: 1, Anti: true},
		lattice.Upscale{Factors: []int{2, 2}}, lattice.Upscale{Factors: []int{3, 3}},
		lattice.Downscale{Factors: []int{2, 2}}, lattice.Downscale{Factors: []int{3, 3}},
	}
}

// TransformerAug is the Transformer with data augmentation: each cell's embedding is the sum of its
// token's embedding and, for every action of AugmentActions, the embedding (a table per action) of the
// token that the action's image of the input has in that cell. The images are exact (datasets.ApplyAction's
// cell mapping, computed once per canvas). They need a square canvas (ARC's per-task canvases and the
// synthetic tasks' are square); on another one the model is the plain Transformer.
func TransformerAug() latformer.Architecture {
	return architecture("transformer_aug", 4, func(scope *model.Scope, rows, cols, depth int,
		tokens *Node) *latformer.Outputs {
		m, positions := transformerModel(scope, rows*cols, depth)
		x := m.EmbedTokens(tokens)
		for i, a := range AugmentActions() {
			gather, ok := augmentGather(a, rows, cols)
			if !ok {
				continue
			}
			image := gatherTokens(tokens, gather)
			x = Add(x, embed(scope.In("augment_%d", i), image, x.Shape().Dimensions[2]))
		}
		return &latformer.Outputs{Logits: m.LogitsFromEmbeddings(encoderLayers(m, positions, x))}
	})
}

// augmentGather returns the cell mapping of an action's image on a square canvas (datasets.ActionGather;
// -1: pad), and false on a canvas that is not square.
func augmentGather(a lattice.Action, rows, cols int) ([]int32, bool) {
	if rows != cols {
		return nil, false
	}
	g, err := datasets.ActionGather(a, rows, rows)
	if err != nil {
		return nil, false
	}
	return g, true
}

// gatherTokens returns tokens' image under a cell mapping: out[b, i] = tokens[b, gather[i]], the pad
// token where gather[i] < 0.
func gatherTokens(tokens *Node, gather []int32) *Node {
	g := tokens.Graph()
	batch, n := tokens.Shape().Dimensions[0], tokens.Shape().Dimensions[1]
	// One extra column of pad tokens that the -1 entries point to.
	padded := Concatenate([]*Node{tokens, BroadcastToDims(Const(g, [][]int32{{datasets.PadToken}}), batch, 1)}, 1)
	idx := make([]int32, n)
	for i, s := range gather {
		if s < 0 {
			idx[i] = int32(n)
		} else {
			idx[i] = s
		}
	}
	out := Gather(TransposeAllDims(padded, 1, 0), ExpandAxes(Const(g, idx), -1)) // [n, batch]
	return ConvertDType(TransposeAllDims(out, 1, 0), tokens.DType())
}
