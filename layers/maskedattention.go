package layers

import (
	"math"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
)

// MaskedAttentionCore computes the masked attention of Section 3.1 on already projected heads:
//
//	A = softmax(Q K^T / sqrt(d)) ⊙ M,    output = (A / (A 1 1^T)) V
//
// that is, the soft mask M ∈ [0, 1] multiplies the attention weights after the softmax and each row is
// renormalized to sum to one. A query row whose masked weights are all zero (for instance a row of a
// down-scaling mask that nothing lands on) outputs zeros instead of NaN.
//
// Shapes:
//   - query: [batch, heads, queryLen, keyDim]
//   - key: [batch, heads, keyLen, keyDim]
//   - value: [batch, heads, keyLen, valueDim]
//   - mask: [queryLen, keyLen] (shared by the batch and heads), [batch, queryLen, keyLen] (one per
//     example, shared by the heads) or [batch, heads, queryLen, keyLen].
//   - output: [batch, heads, queryLen, valueDim]
//
// Implementation notes (same math, fewer passes over the queryLen x keyLen tensors, which dominate the
// cost): the softmax normalizer cancels in the renormalization, so the attention weights are computed
// once with the fused softmax (a single pass on GoMLX's Go backend) and differentiated with a custom
// gradient dS = P ⊙ dP. The softmax Jacobian's second term, -P·rowsum(P ⊙ dP), is exactly zero here
// because the output is invariant to rescaling a row of P, so this is the exact gradient, not an
// approximation (TestMaskedAttentionGradient checks it against the decomposed formula).
//
// In float32, if every key allowed by the mask has a softmax weight that underflows to zero (logits
// more than ~100 apart), the row is treated as all-zero: this is a property of masking after the
// softmax, shared by the paper's formulation.
func MaskedAttentionCore(query, key, value, mask *Node) *Node {
	return MaskedAttentionCoreMulti(query, key, value, []*Node{mask})[0]
}

// MaskedAttentionCoreMulti is MaskedAttentionCore for several masks at once: the scores and the softmax
// are computed once and shared, and one output is returned per mask (used for the plain and smoothed
// predictions of Section 4.2). Shapes as in MaskedAttentionCore.
func MaskedAttentionCoreMulti(query, key, value *Node, masks []*Node) []*Node {
	g := query.Graph()
	if query.Rank() != 4 || key.Rank() != 4 || value.Rank() != 4 {
		exceptions.Panicf("MaskedAttentionCore: query, key and value must have rank 4 [batch, heads, seq, dim], got %s, %s, %s",
			query.Shape(), key.Shape(), value.Shape())
	}
	batch, heads, queryLen, keyDim := query.Shape().Dimensions[0], query.Shape().Dimensions[1], query.Shape().Dimensions[2], query.Shape().Dimensions[3]
	keyLen := key.Shape().Dimensions[2]
	if key.Shape().Dimensions[3] != keyDim || value.Shape().Dimensions[2] != keyLen ||
		key.Shape().Dimensions[0] != batch || value.Shape().Dimensions[0] != batch ||
		key.Shape().Dimensions[1] != heads || value.Shape().Dimensions[1] != heads {
		exceptions.Panicf("MaskedAttentionCore: incompatible shapes query %s, key %s, value %s", query.Shape(), key.Shape(), value.Shape())
	}

	// Scores S = (Q / sqrt(d)) K^T: [batch, heads, queryLen, keyLen]. Scaling Q is cheaper than scaling S.
	scaledQuery := MulScalar(query, 1.0/math.Sqrt(float64(keyDim)))
	scores := DotGeneral(scaledQuery, []int{3}, []int{0, 1}, key, []int{3}, []int{0, 1})

	// P = softmax(S), fused forward; gradient dS = P ⊙ dP (see the doc comment).
	probs := StopGradient(Softmax(StopGradient(scores), -1))
	probs = IdentityWithCustomGradient(Add(scores, StopGradient(Sub(probs, scores))),
		func(x, v *Node) *Node { return Mul(v, x) })

	// Values with a column of ones, so that one matrix product gives both A V and the row sums A 1 (one
	// pass over the queryLen x keyLen weights instead of two, forward and backward).
	valueDim := value.Shape().Dimensions[3]
	valueOnes := Concatenate([]*Node{value, OnesLike(Slice(value, AxisRange(), AxisRange(), AxisRange(), AxisRange(0, 1)))}, -1)
	outputs := make([]*Node, len(masks))
	for i, mask := range masks {
		mask = broadcastMask(mask, batch, heads, queryLen, keyLen)
		if mask.DType() != query.DType() {
			mask = ConvertDType(mask, query.DType())
		}
		weights := Mul(probs, mask)                                                             // A = P ⊙ M
		product := DotGeneral(weights, []int{3}, []int{0, 1}, valueOnes, []int{2}, []int{0, 1}) // [A V, A 1]
		numerator := Slice(product, AxisRange(), AxisRange(), AxisRange(), AxisRange(0, valueDim))
		rowSum := Slice(product, AxisRange(), AxisRange(), AxisRange(), AxisRange(valueDim, valueDim+1))
		safeSum := Where(GreaterThan(rowSum, ScalarZero(g, rowSum.DType())), rowSum, OnesLike(rowSum))
		outputs[i] = Div(numerator, safeSum)
	}
	return outputs
}

// broadcastMask returns mask with shape [batch, heads, queryLen, keyLen], accepting the shapes
// documented in MaskedAttentionCore.
func broadcastMask(mask *Node, batch, heads, queryLen, keyLen int) *Node {
	dims := mask.Shape().Dimensions
	switch mask.Rank() {
	case 2:
		if dims[0] != queryLen || dims[1] != keyLen {
			exceptions.Panicf("mask shape %s does not match [queryLen=%d, keyLen=%d]", mask.Shape(), queryLen, keyLen)
		}
		mask = Reshape(mask, 1, 1, queryLen, keyLen)
	case 3:
		if dims[0] != batch || dims[1] != queryLen || dims[2] != keyLen {
			exceptions.Panicf("mask shape %s does not match [batch=%d, queryLen=%d, keyLen=%d]", mask.Shape(), batch, queryLen, keyLen)
		}
		mask = Reshape(mask, batch, 1, queryLen, keyLen)
	case 4:
		if (dims[0] != batch && dims[0] != 1) || (dims[1] != heads && dims[1] != 1) || dims[2] != queryLen || dims[3] != keyLen {
			exceptions.Panicf("mask shape %s does not match [batch=%d, heads=%d, queryLen=%d, keyLen=%d]", mask.Shape(), batch, heads, queryLen, keyLen)
		}
	default:
		exceptions.Panicf("mask must have rank 2, 3 or 4, got shape %s", mask.Shape())
	}
	if mask.Shape().Dimensions[0] != batch || mask.Shape().Dimensions[1] != heads {
		// Explicit broadcast: much faster than implicit broadcasting on the Go backend.
		mask = BroadcastToDims(mask, batch, heads, queryLen, keyLen)
	}
	return mask
}

// MaskedAttentionBuilder configures a masked multi-head attention layer with learned projections.
// Create it with MaskedAttention, configure it with the Set* methods and call Done.
type MaskedAttentionBuilder struct {
	scope                   *model.Scope
	query, key, value, mask *Node
	numHeads, keyQueryDim   int
	valueDim, outputDim     int
	useProjectionBias       bool
}

// MaskedAttention creates a builder for a masked multi-head attention layer (Section 3.1 with the
// learnable linear projections of a Transformer, footnote 2):
//
//	head_h = MaskedAttentionCore(x_q W^Q_h, x_k W^K_h, x_v W^V_h; M),   output = concat_h(head_h) W^O
//
// query is [batch, queryLen, queryFeatures]; key and value are [batch, keyLen, features] (pass the same
// node three times for self-attention). The defaults are 1 head, key/query and value dimensions equal to
// the query's feature dimension, output dimension equal to the value's feature dimension, projection
// biases on and no mask (plain softmax attention). Variables live under scope.
func MaskedAttention(scope *model.Scope, query, key, value *Node) *MaskedAttentionBuilder {
	if query.Rank() != 3 || key.Rank() != 3 || value.Rank() != 3 {
		exceptions.Panicf("MaskedAttention: query, key and value must have rank 3 [batch, seq, features], got %s, %s, %s",
			query.Shape(), key.Shape(), value.Shape())
	}
	d := query.Shape().Dimensions[2]
	return &MaskedAttentionBuilder{
		scope: scope, query: query, key: key, value: value,
		numHeads: 1, keyQueryDim: d, valueDim: value.Shape().Dimensions[2], outputDim: value.Shape().Dimensions[2],
		useProjectionBias: true,
	}
}

// WithMask sets the soft attention mask, [queryLen, keyLen] or [batch, queryLen, keyLen] (or
// [batch, heads, queryLen, keyLen]) with values in [0, 1]. nil means no mask.
func (b *MaskedAttentionBuilder) WithMask(mask *Node) *MaskedAttentionBuilder {
	b.mask = mask
	return b
}

// WithNumHeads sets the number of attention heads (default 1).
func (b *MaskedAttentionBuilder) WithNumHeads(n int) *MaskedAttentionBuilder {
	b.numHeads = n
	return b
}

// WithKeyQueryDim sets the per-head dimension of keys and queries (default: the query's feature dimension).
func (b *MaskedAttentionBuilder) WithKeyQueryDim(d int) *MaskedAttentionBuilder {
	b.keyQueryDim = d
	return b
}

// WithValueDim sets the per-head dimension of the values (default: the value's feature dimension).
func (b *MaskedAttentionBuilder) WithValueDim(d int) *MaskedAttentionBuilder {
	b.valueDim = d
	return b
}

// WithOutputDim sets the output feature dimension (default: the value's feature dimension).
func (b *MaskedAttentionBuilder) WithOutputDim(d int) *MaskedAttentionBuilder {
	b.outputDim = d
	return b
}

// UseProjectionBias sets whether the projections have biases (default true).
func (b *MaskedAttentionBuilder) UseProjectionBias(use bool) *MaskedAttentionBuilder {
	b.useProjectionBias = use
	return b
}

// Done builds the layer and returns its output, [batch, queryLen, outputDim].
func (b *MaskedAttentionBuilder) Done() *Node {
	project := func(name string, x *Node, dim int) *Node {
		y := layers.Dense(b.scope.In("%s", name), x, b.useProjectionBias, b.numHeads, dim) // [batch, seq, heads, dim]
		return TransposeAllDims(y, 0, 2, 1, 3)                                             // [batch, heads, seq, dim]
	}
	q := project("query", b.query, b.keyQueryDim)
	k := project("key", b.key, b.keyQueryDim)
	v := project("value", b.value, b.valueDim)
	mask := b.mask
	if mask == nil {
		mask = Ones(q.Graph(), shapes.Make(q.DType(), q.Shape().Dimensions[2], k.Shape().Dimensions[2]))
	}
	heads := MaskedAttentionCore(q, k, v, mask) // [batch, heads, queryLen, valueDim]
	heads = TransposeAllDims(heads, 0, 2, 1, 3)
	batch, queryLen := heads.Shape().Dimensions[0], heads.Shape().Dimensions[1]
	heads = Reshape(heads, batch, queryLen, b.numHeads*b.valueDim)
	return layers.Dense(b.scope.In("output"), heads, b.useProjectionBias, b.outputDim)
}
