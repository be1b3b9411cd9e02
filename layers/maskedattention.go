// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"math"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/fastgraph"
)

// MaskedAttentionCore computes the masked attention of Section 3.1 on already projected heads:
//
//	A = softmax(Q K^T / sqrt(d)) ⊙ M,    output = (A / (A 1 1^T)) V
//
// The soft mask M ∈ [0, 1] multiplies the attention weights after the softmax, and each row is
// renormalized to sum to one. A query row whose masked weights are all zero outputs zeros, not NaN; a
// down-scaling mask has such rows.
//
// Shapes:
//   - query: [batch, heads, queryLen, keyDim]
//   - key: [batch, heads, keyLen, keyDim]
//   - value: [batch, heads, keyLen, valueDim]
//   - mask: [queryLen, keyLen] (shared by the batch and heads), [batch, queryLen, keyLen] (one per
//     example, shared by the heads) or [batch, heads, queryLen, keyLen].
//   - output: [batch, heads, queryLen, valueDim]
//
// The queryLen x keyLen tensors dominate the cost, so the implementation makes few passes over them.
// The softmax normalizer cancels in the renormalization, so one fused softmax computes the weights. The
// gradient is hand-written (fastgraph.WithCustomVJP) from matrix products and element-wise products
// only: GoMLX's Go backend transposes and broadcasts an n x n tensor element by element. The softmax
// gradient is dS = P ⊙ dP. This is exact: the Jacobian's other term, -P·rowsum(P ⊙ dP), is zero because
// the output does not change when a row of P is rescaled (TestMaskedAttentionGradient checks it).
//
// In float32, a row where every key the mask allows has a softmax weight that underflows to zero
// (logits more than ~100 apart) is treated as all-zero. Masking after the softmax, as the paper does,
// has this property.
func MaskedAttentionCore(query, key, value, mask *Node) *Node {
	checkAttentionShapes(query, key, value)
	dims := query.Shape().Dimensions
	batch := dims[0]
	checkMaskShape(mask, batch, dims[1], dims[2], key.Shape().Dimensions[2])
	return denseAttentionInSlices(query, key, value, mask, fastgraph.Chunks(batch, weightBytes(query, key)))
}

// denseAttentionInSlices is MaskedAttentionCore computed in the given number of slices of the batch.
func denseAttentionInSlices(query, key, value, mask *Node, slices int) *Node {
	batch := query.Shape().Dimensions[0]
	return fastgraph.InBatchChunks(batch, slices, func(lo, hi int) []*Node {
		cut := func(x *Node) *Node { return sliceBatch(x, batch, lo, hi) }
		m := mask
		if m.Rank() >= 3 {
			m = cut(m) // [batch, q, k] or [batch|1, heads|1, q, k]; a [q, k] mask is shared by the batch
		}
		return maskedAttentionCore(cut(query), cut(key), cut(value), []coreMask{{dense: m}})
	})[0]
}

// MaskedAttentionCoreFactored is MaskedAttentionCore for several masks in factored form
// (experts.LatticeMask). It shares the scores and the softmax, and returns one output per mask, such as
// the plain and smoothed predictions of Section 4.2. Each output equals MaskedAttentionCore with that
// mask's Dense tensor.
//
// The n x n mask is built from the per-cell factors (LatticeMask.Factors) by one batched matrix product,
// and its gradient goes back by two more. No n x n tensor is broadcast or reduced element by element.
// queryLen and keyLen must be Rows*Cols of every mask, and the masks' batch that of query.
func MaskedAttentionCoreFactored(query, key, value *Node, masks []*experts.LatticeMask) []*Node {
	checkAttentionShapes(query, key, value)
	batch, queryLen, keyLen := query.Shape().Dimensions[0], query.Shape().Dimensions[2], key.Shape().Dimensions[2]
	for _, m := range masks {
		if n := m.Rows * m.Cols; n != queryLen || n != keyLen {
			exceptions.Panicf(
				"MaskedAttentionCoreFactored: a %dx%d lattice mask needs queryLen = keyLen = %d, got %d and %d",
				m.Rows, m.Cols, n, queryLen, keyLen)
		}
		if len(m.Terms) == 0 {
			exceptions.Panicf("MaskedAttentionCoreFactored: a lattice mask has no terms")
		}
		if b := m.Batch(); b != batch {
			exceptions.Panicf("MaskedAttentionCoreFactored: mask batch %d, query batch %d", b, batch)
		}
	}
	return factoredAttentionInSlices(query, key, value, masks, fastgraph.Chunks(batch, weightBytes(query, key)))
}

// factoredAttentionInSlices is MaskedAttentionCoreFactored computed in the given number of slices of the batch.
func factoredAttentionInSlices(query, key, value *Node, masks []*experts.LatticeMask, slices int) []*Node {
	batch := query.Shape().Dimensions[0]
	return fastgraph.InBatchChunks(batch, slices, func(lo, hi int) []*Node {
		ms := make([]coreMask, len(masks))
		for i, m := range masks {
			if hi-lo < batch {
				m = m.SliceBatch(lo, hi)
			}
			if m.Mixture > 0 { // a mixture over candidates: its dense mask is cheaper than its many factors
				dense := m.Dense()
				if dense.DType() != query.DType() {
					dense = ConvertDType(dense, query.DType())
				}
				ms[i] = coreMask{dense: dense, rows: m.Rows, cols: m.Cols}
				continue
			}
			l, rT := m.Factors()
			if l.DType() != query.DType() {
				l, rT = ConvertDType(l, query.DType()), ConvertDType(rT, query.DType())
			}
			ms[i] = coreMask{l: l, rT: rT, rows: m.Rows, cols: m.Cols}
		}
		cut := func(x *Node) *Node { return sliceBatch(x, batch, lo, hi) }
		return maskedAttentionCore(cut(query), cut(key), cut(value), ms)
	})
}

// weightBytes is the size of the attention weights of one example, [heads, queryLen, keyLen], for
// fastgraph.Chunks.
func weightBytes(query, key *Node) int {
	dims := query.Shape().Dimensions
	return dims[1] * dims[2] * key.Shape().Dimensions[2] * query.DType().Size()
}

// sliceBatch returns examples lo, ..., hi-1 of x, or x itself for the whole batch or a batch axis of 1.
func sliceBatch(x *Node, batch, lo, hi int) *Node {
	if hi-lo == batch || x.Shape().Dimensions[0] != batch {
		return x
	}
	return Slice(x, AxisRange(lo, hi))
}

func checkAttentionShapes(query, key, value *Node) {
	if query.Rank() != 4 || key.Rank() != 4 || value.Rank() != 4 {
		exceptions.Panicf("MaskedAttentionCore: query, key and value must have rank 4 [batch, heads, seq, dim], "+
			"got %s, %s, %s", query.Shape(), key.Shape(), value.Shape())
	}
	batch, heads, keyDim := query.Shape().Dimensions[0], query.Shape().Dimensions[1], query.Shape().Dimensions[3]
	keyLen := key.Shape().Dimensions[2]
	if key.Shape().Dimensions[3] != keyDim || value.Shape().Dimensions[2] != keyLen ||
		key.Shape().Dimensions[0] != batch || value.Shape().Dimensions[0] != batch ||
		key.Shape().Dimensions[1] != heads || value.Shape().Dimensions[1] != heads {
		exceptions.Panicf("MaskedAttentionCore: incompatible shapes query %s, key %s, value %s", query.Shape(),
			key.Shape(), value.Shape())
	}
}

// coreMask is one mask of maskedAttentionCore, dense or factored (LatticeMask.Factors).
type coreMask struct {
	dense, l, rT *Node
	rows, cols   int
}

// maskedAttentionCore is the masked attention of MaskedAttentionCore with its hand-written gradient.
//
// Forward, per mask m:  S = (Q/√d) Kᵀ,  P = softmax(S),  A_m = P ⊙ M_m,  [N_m, s_m] = A_m [V, 1],
// out_m = N_m / s_m (rows with s_m = 0 give 0).
// Every matrix product keeps the n x n operand in a layout GoMLX's Go backend multiplies without
// transposing it (its lhs contracts its last axis); the small operands are transposed instead.
// Backward from dout_m:  dN_m = dout_m / s_m,  ds_m = -rowsum(dN_m ⊙ out_m) (0 where s_m = 0),
// dA_m = [dN_m, ds_m] [V, 1]ᵀ,  d[V, 1] += A_mᵀ [dN_m, ds_m],  dM_m = P ⊙ dA_m,  dS += A_m ⊙ dA_m
// (= P ⊙ dP, see MaskedAttentionCore),  dQ = dS K/√d,  dK = dSᵀ Q/√d; a factored mask gets
// dl = dM r and drᵀ = lᵀ dM per query cell.
//
// Inside, the batch and head axes are merged into one ([batch·heads, n, ·]). The backend's matrix
// products take a single batch axis, and merging two there would copy the n x n weights A_m, which
// three ops use.
func maskedAttentionCore(query, key, value *Node, masks []coreMask) []*Node {
	dims := query.Shape().Dimensions
	c := &attentionCore{masks: masks, batch: dims[0], heads: dims[1], queryLen: dims[2],
		keyLen: key.Shape().Dimensions[2], valueDim: value.Shape().Dimensions[3],
		scale: 1.0 / math.Sqrt(float64(dims[3])), fwd: make([]keptMask, len(masks))}
	inputs := []*Node{mergeHeads(query), mergeHeads(key), mergeHeads(value)}
	for _, m := range masks {
		if m.dense != nil {
			d := m.dense
			if d.DType() != query.DType() {
				d = ConvertDType(d, query.DType())
			}
			inputs = append(inputs, d)
		} else {
			inputs = append(inputs, m.l, m.rT)
		}
	}
	c.numInputs = len(inputs)
	outs := fastgraph.WithCustomVJP(inputs, c.forward, c.backward)
	for i, o := range outs {
		outs[i] = Reshape(o, c.batch, c.heads, c.queryLen, c.valueDim)
	}
	return outs
}

// mergeHeads reshapes [batch, heads, n, d] to [batch·heads, n, d].
func mergeHeads(x *Node) *Node {
	d := x.Shape().Dimensions
	return Reshape(x, d[0]*d[1], d[2], d[3])
}

// attentionCore holds one maskedAttentionCore's shapes and the forward nodes its backward pass reuses.
// Its inputs are query, key and value, then each mask's dense tensor or factors.
type attentionCore struct {
	masks                                    []coreMask
	batch, heads, queryLen, keyLen, valueDim int
	scale                                    float64
	numInputs                                int
	// Set by forward: its (gradient-stopped) inputs, q, k, P, [V, 1] and each mask's kept nodes.
	in                     []*Node
	q, k, probs, valueOnes *Node
	fwd                    []keptMask
}

// keptMask is the forward nodes of one mask that the backward pass reuses.
type keptMask struct {
	weights, out, safe, positive *Node
}

// forward computes out_m for every mask from the inputs (see maskedAttentionCore).
func (c *attentionCore) forward(stopped []*Node) []*Node {
	c.in = stopped
	c.q, c.k = stopped[0], stopped[1]
	v := stopped[2]
	scores := DotGeneral(MulScalar(c.q, c.scale), []int{2}, []int{0}, c.k, []int{2}, []int{0}) // [bh, q, k]
	c.probs = Softmax(scores, -1)
	// Values with a column of ones: one matrix product gives both A V and the row sums A 1.
	c.valueOnes = Concatenate([]*Node{v, OnesLike(Slice(v, AxisRange(), AxisRange(), AxisRange(0, 1)))}, -1)
	outs := make([]*Node, len(c.masks))
	idx := 3
	for i, m := range c.masks {
		var mask *Node
		if m.dense != nil {
			mask = broadcastMask(stopped[idx], c.batch, c.heads, c.queryLen, c.keyLen)
			idx++
		} else {
			l, rT := stopped[idx], stopped[idx+1]
			idx += 2
			dense := DotGeneral(l, []int{4}, []int{0, 1, 2}, rT, []int{3}, []int{0, 1, 2}) // [b, i, j, c, e]
			mask = broadcastMask(Reshape(dense, c.batch, 1, c.queryLen, c.keyLen),
				c.batch, c.heads, c.queryLen, c.keyLen)
		}
		outs[i] = c.maskedOutput(i, Reshape(mask, c.batch*c.heads, c.queryLen, c.keyLen))
	}
	return outs
}

// maskedOutput is out_m = N_m / s_m for mask i (M_m as [bh, q, k]), keeping its nodes in c.fwd[i].
func (c *attentionCore) maskedOutput(i int, mask *Node) *Node {
	weights := Mul(c.probs, mask)                                                       // A = P ⊙ M
	product := DotGeneral(weights, []int{2}, []int{0}, c.valueOnes, []int{1}, []int{0}) // [A V, A 1]
	numerator := Slice(product, AxisRange(), AxisRange(), AxisRange(0, c.valueDim))
	rowSum := Slice(product, AxisRange(), AxisRange(), AxisRange(c.valueDim, c.valueDim+1))
	positive := GreaterThan(rowSum, ScalarZero(c.q.Graph(), rowSum.DType()))
	safe := Where(positive, rowSum, OnesLike(rowSum))
	out := Div(numerator, safe)
	c.fwd[i] = keptMask{weights: weights, out: out, safe: safe, positive: positive}
	return out
}

// backward computes the inputs' gradients from the outputs' (see maskedAttentionCore).
func (c *attentionCore) backward(dOuts []*Node) []*Node {
	grads := make([]*Node, c.numInputs)
	var dScores, dValueOnes *Node // dValueOnes: [bh, dv+1, k]
	idx := 3
	for i, m := range c.masks {
		f := c.fwd[i]
		dNum := Div(dOuts[i], f.safe)
		dSum := Neg(ReduceAndKeep(Mul(dNum, f.out), ReduceSum, -1))
		dSum = Where(f.positive, dSum, ZerosLike(dSum))
		dProduct := Concatenate([]*Node{dNum, dSum}, -1)                                      // [bh, q, dv+1]
		dWeights := DotGeneral(dProduct, []int{2}, []int{0}, c.valueOnes, []int{2}, []int{0}) // [bh, q, k]
		// Aᵀ [dN, ds] as [dN, ds]ᵀ A, so the small operand is transposed instead of the n x n one.
		dProductT := TransposeAllDims(dProduct, 0, 2, 1) // [bh, dv+1, q]
		dValueOnes = addOrSet(dValueOnes, DotGeneral(dProductT, []int{2}, []int{0}, f.weights, []int{1}, []int{0}))
		dScores = addOrSet(dScores, Mul(f.weights, dWeights))                            // P ⊙ dP with dP = dA ⊙ M
		dMask := Reshape(Mul(c.probs, dWeights), c.batch, c.heads, c.queryLen, c.keyLen) // [b, h, q, k]
		if m.dense != nil {
			grads[idx] = reduceMaskGradient(dMask, c.in[idx].Shape())
			idx++
			continue
		}
		grads[idx], grads[idx+1] = c.factorGradients(m, dMask, c.in[idx], c.in[idx+1])
		idx += 2
	}
	// [bh, dv+1, k] -> [bh, k, dv]: the column of ones has no gradient.
	grads[2] = TransposeAllDims(Slice(dValueOnes, AxisRange(), AxisRange(0, c.valueDim), AxisRange()), 0, 2, 1)
	grads[0] = MulScalar(DotGeneral(dScores, []int{2}, []int{0}, c.k, []int{1}, []int{0}), c.scale) // [bh, q, d]
	qT := TransposeAllDims(c.q, 0, 2, 1)                                                            // [bh, d, q], small
	dKey := DotGeneral(qT, []int{2}, []int{0}, dScores, []int{1}, []int{0})                         // [bh, d, k]
	grads[1] = MulScalar(TransposeAllDims(dKey, 0, 2, 1), c.scale)
	return grads
}

// factorGradients turns a factored mask's gradient dM into its factors': dl = dM r and drT = lᵀ dM per
// query cell.
func (c *attentionCore) factorGradients(m coreMask, dMask, l, rT *Node) (dl, drT *Node) {
	if c.heads > 1 {
		dMask = ReduceSum(dMask, 1)
	}
	dMask = Reshape(dMask, c.batch, m.rows, m.cols, m.rows, m.cols)                 // [b, i, j, c, e]
	dl = DotGeneral(dMask, []int{4}, []int{0, 1, 2}, rT, []int{4}, []int{0, 1, 2})  // [b, i, j, c, T]
	lT := TransposeAllDims(l, 0, 1, 2, 4, 3)                                        // [b, i, j, T, c], small
	drT = DotGeneral(lT, []int{4}, []int{0, 1, 2}, dMask, []int{3}, []int{0, 1, 2}) // [b, i, j, T, e]
	return dl, drT
}

func addOrSet(sum, x *Node) *Node {
	if sum == nil {
		return x
	}
	return Add(sum, x)
}

// reduceMaskGradient sums the gradient of the broadcast mask, [batch, heads, queryLen, keyLen], back to
// the mask's own shape (see MaskedAttentionCore).
func reduceMaskGradient(d *Node, mask shapes.Shape) *Node {
	switch mask.Rank() {
	case 2:
		return ReduceSum(d, 0, 1)
	case 3:
		return ReduceSum(d, 1)
	}
	var axes []int
	for axis := range 2 {
		if mask.Dimensions[axis] == 1 && d.Shape().Dimensions[axis] != 1 {
			axes = append(axes, axis)
		}
	}
	if len(axes) == 0 {
		return d
	}
	return ReduceAndKeep(d, ReduceSum, axes...)
}

// broadcastMask returns mask with shape [batch, heads, queryLen, keyLen], accepting the shapes
// documented in MaskedAttentionCore.
func broadcastMask(mask *Node, batch, heads, queryLen, keyLen int) *Node {
	checkMaskShape(mask, batch, heads, queryLen, keyLen)
	switch mask.Rank() {
	case 2:
		mask = Reshape(mask, 1, 1, queryLen, keyLen)
	case 3:
		mask = Reshape(mask, batch, 1, queryLen, keyLen)
	}
	if mask.Shape().Dimensions[0] != batch || mask.Shape().Dimensions[1] != heads {
		// Broadcast once: the Go backend runs same-shape element-wise ops as a flat loop, which is faster.
		mask = BroadcastToDims(mask, batch, heads, queryLen, keyLen)
	}
	return mask
}

// checkMaskShape panics unless mask has one of the shapes documented in MaskedAttentionCore.
func checkMaskShape(mask *Node, batch, heads, queryLen, keyLen int) {
	dims := mask.Shape().Dimensions
	switch mask.Rank() {
	case 2:
		if dims[0] != queryLen || dims[1] != keyLen {
			exceptions.Panicf("mask shape %s does not match [queryLen=%d, keyLen=%d]", mask.Shape(), queryLen, keyLen)
		}
	case 3:
		if dims[0] != batch || dims[1] != queryLen || dims[2] != keyLen {
			exceptions.Panicf("mask shape %s does not match [batch=%d, queryLen=%d, keyLen=%d]", mask.Shape(), batch,
				queryLen, keyLen)
		}
	case 4:
		if (dims[0] != batch && dims[0] != 1) || (dims[1] != heads && dims[1] != 1) ||
			dims[2] != queryLen || dims[3] != keyLen {
			exceptions.Panicf("mask shape %s does not match [batch=%d, heads=%d, queryLen=%d, keyLen=%d]", mask.Shape(),
				batch, heads, queryLen, keyLen)
		}
	default:
		exceptions.Panicf("mask must have rank 2, 3 or 4, got shape %s", mask.Shape())
	}
}

// MaskedAttentionBuilder configures a masked multi-head attention layer with learned projections.
// Create it with MaskedAttention, configure it with the With* methods and call Done.
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
// query is [batch, queryLen, queryFeatures]. key and value are [batch, keyLen, features]; pass the same
// node three times for self-attention. Variables live under scope.
//
// The defaults: 1 head, key/query and value dimensions equal to the query's features, output dimension
// equal to the value's features, projection biases on, and no mask (plain softmax attention).
func MaskedAttention(scope *model.Scope, query, key, value *Node) *MaskedAttentionBuilder {
	if query.Rank() != 3 || key.Rank() != 3 || value.Rank() != 3 {
		exceptions.Panicf(
			"MaskedAttention: query, key and value must have rank 3 [batch, seq, features], got %s, %s, %s",
			query.Shape(), key.Shape(), value.Shape())
	}
	d := query.Shape().Dimensions[2]
	return &MaskedAttentionBuilder{
		scope: scope, query: query, key: key, value: value,
		numHeads: 1, keyQueryDim: d, valueDim: value.Shape().Dimensions[2], outputDim: value.Shape().Dimensions[2],
		useProjectionBias: true,
	}
}

// WithMask sets the soft attention mask, with values in [0, 1], in a shape MaskedAttentionCore accepts.
// nil means no mask.
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
		// [batch, seq, heads, dim] to [batch, heads, seq, dim].
		y := fastgraph.Dense(b.scope.In("%s", name), x, b.useProjectionBias, b.numHeads, dim)
		return TransposeAllDims(y, 0, 2, 1, 3)
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
	return fastgraph.Dense(b.scope.In("output"), heads, b.useProjectionBias, b.outputDim)
}
