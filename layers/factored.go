// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/fastgraph"
)

// KroneckerTerm is one term of a soft lattice mask written in factored form, for an m-dimensional lattice
// of shape (l_1, ..., l_m):
//
//	M_t = w_t (F_1 ⊗ F_2 ⊗ ... ⊗ F_m) P_t
//
// where P_t permutes the lattice axes (the 90° rotation of a 2-D mask swaps them; nil is the identity) and
// F_a are per-axis l x l factors, one per example.
type KroneckerTerm struct {
	Weight *Node // [batch], or nil for 1
	// Factors are [batch, l_a, l_a], one per lattice axis, in the order of the axes after Perm.
	Factors []*Node
	// Perm permutes the lattice axes: axis a of P_t V is axis Perm[a] of V. nil means none.
	Perm []int
}

// KroneckerMaskAttention is the masked attention of Section 3.1 with weights from the mask alone
// (uniform softmax, no query-key term). It never forms the n x n mask:
//
//	output = (M / rowsum(M)) V,   M = Σ_t M_t  (see KroneckerTerm)
//
// Each term acts on the values by per-axis products, (F_1 ⊗ ... ⊗ F_m) P_t V = V ×_1 F_1 ... ×_m F_m.
// That costs n·(l_1 + ... + l_m) multiply-adds per channel instead of n². The row sums factor the same
// way: rowsum(M_t) = w_t ⊗_a rowsum(F_a). Rows whose mask is all zero output zeros, as in
// MaskedAttentionCore. It equals MaskedAttentionCore with a uniform softmax, up to rounding
// (TestKroneckerMaskAttentionMatchesDense).
//
// The mask is the same for every head, so heads need no axis of their own. value is [batch, n, channels]
// (heads × head dimension, in any order), with n = Π dims in row-major order; the output has its shape.
// Each per-axis product is one batched matrix product in the values' own layout; only the rotation
// terms' permutation P_t transposes.
func KroneckerMaskAttention(value *Node, dims []int, terms []KroneckerTerm) *Node {
	if value.Rank() != 3 {
		exceptions.Panicf("KroneckerMaskAttention: value must be [batch, n, channels], got %s", value.Shape())
	}
	batch, n, c := value.Shape().Dimensions[0], value.Shape().Dimensions[1], value.Shape().Dimensions[2]
	m := len(dims)
	size := 1
	for _, l := range dims {
		size *= l
	}
	if size != n || m < 1 || len(terms) == 0 {
		exceptions.Panicf("KroneckerMaskAttention: lattice %v (%d cells) and %d terms for values %s", dims, size,
			len(terms), value.Shape())
	}
	grid := Reshape(value, append(append([]int{batch}, dims...), c)...) // [batch, l_1, ..., l_m, c]
	var num, den *Node
	for ti, t := range terms {
		if len(t.Factors) != m {
			exceptions.Panicf("KroneckerMaskAttention: term %d has %d factors for a %d-D lattice",
				ti, len(t.Factors), m)
		}
		x := grid
		if t.Perm != nil {
			perm := []int{0}
			for _, a := range t.Perm {
				perm = append(perm, 1+a)
			}
			x = TransposeAllDims(x, append(perm, 1+m)...)
		}
		x = kroneckerProduct(x, t.Factors)
		var rs *Node // ⊗_a rowsum(F_a): [batch, l_1, ..., l_m]
		for a, f := range t.Factors {
			shape := append([]int{batch}, ones(m)...)
			shape[1+a] = f.Shape().Dimensions[1]
			r := Reshape(ReduceSum(f, -1), shape...)
			if rs == nil {
				rs = r
			} else {
				rs = Mul(rs, r)
			}
		}
		rs = BroadcastToDims(rs, append([]int{batch}, dims...)...)
		if t.Weight != nil {
			x = Mul(x, Reshape(t.Weight, append([]int{batch}, ones(m+1)...)...))
			rs = Mul(rs, Reshape(t.Weight, append([]int{batch}, ones(m)...)...))
		}
		if num == nil {
			num, den = x, rs
		} else {
			num, den = Add(num, x), Add(den, rs)
		}
	}
	den = Reshape(den, append(append([]int{batch}, dims...), 1)...)
	safe := Where(GreaterThan(den, ZerosLike(den)), den, OnesLike(den))
	return Reshape(Div(num, safe), batch, n, c)
}

// kroneckerProduct returns (F_1 ⊗ ... ⊗ F_m) x for x [batch, l_1, ..., l_m, c] and factors F_a [batch, l_a, l_a]:
// x ×_1 F_1 ... ×_m F_m, one batched matrix product per axis,
//
//	out[b, lead..., i, rest..., c] = Σ_j F_a[b, i, j] in[b, lead..., j, rest..., c]
//
// with F_a broadcast over the axes before a. Its gradient is hand-written (fastgraph.WithCustomVJP) so
// that no operand of x's size is transposed:
//
//	d in = F_aᵀ ×_a d out                                      the forward product with F_aᵀ
//	d F_a[b, i, j] = Σ_{lead, rest, c} d out[b, lead, i, rest, c] in[b, lead, j, rest, c]
//
// GoMLX's generic gradient computes d in as (d out)ᵀ F_a, which uses slower kernels and transposes
// d out. Both compute the same sums, equal within rounding (TestKroneckerProductGradient).
func kroneckerProduct(x *Node, factors []*Node) *Node {
	m := len(factors)
	batch := x.Shape().Dimensions[0]
	// broadcastFactor broadcasts f [batch, l, l] over the lattice axes before a, the product's batch axes.
	broadcastFactor := func(f *Node, a int, lead []int) (*Node, []int) {
		batchAxes := make([]int, a+1)
		for i := range batchAxes {
			batchAxes[i] = i
		}
		if a == 0 {
			return f, batchAxes
		}
		l := f.Shape().Dimensions[1]
		shape := append(append([]int{batch}, ones(a)...), l, l)
		return BroadcastToDims(Reshape(f, shape...), append(append([]int{batch}, lead...), l, l)...), batchAxes
	}
	var ins, fs []*Node // the input of each axis' product and the factors, kept for the gradient
	forward := func(in []*Node) []*Node {
		y := in[0]
		ins, fs = make([]*Node, m), in[1:]
		for a, f := range fs {
			ins[a] = y
			fb, batchAxes := broadcastFactor(f, a, y.Shape().Dimensions[1:1+a])
			y = DotGeneral(fb, []int{a + 2}, batchAxes, y, []int{a + 1}, batchAxes)
		}
		return []*Node{y}
	}
	backward := func(dOut []*Node) []*Node {
		d := dOut[0]
		grads := make([]*Node, m+1)
		for a := m - 1; a >= 0; a-- {
			in := ins[a]
			// Contract every axis but the batch and axis a: [batch, i, j].
			var others []int
			for k := 1; k < in.Rank(); k++ {
				if k != a+1 {
					others = append(others, k)
				}
			}
			grads[1+a] = DotGeneral(d, others, []int{0}, in, others, []int{0})
			ft, batchAxes := broadcastFactor(TransposeAllDims(fs[a], 0, 2, 1), a, in.Shape().Dimensions[1:1+a])
			d = DotGeneral(ft, []int{a + 2}, batchAxes, d, []int{a + 1}, batchAxes)
		}
		grads[0] = d
		return grads
	}
	return fastgraph.WithCustomVJP(append([]*Node{x}, factors...), forward, backward)[0]
}

func ones(k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = 1
	}
	return out
}

// LatticeMaskTerms returns the factored terms of a 2-D experts.LatticeMask. A term without rotation is
// Row ⊗ Col. A term with the 90° rotation is (Row ⊗ Col) R = (Row J ⊗ Col) with the axes swapped.
func LatticeMaskTerms(lm *experts.LatticeMask) []KroneckerTerm {
	lm = lm.Unmixed()
	terms := make([]KroneckerTerm, 0, len(lm.Terms))
	for _, t := range lm.Terms {
		if !t.Rotate {
			terms = append(terms, KroneckerTerm{Weight: t.Weight, Factors: []*Node{t.Row, t.Col}})
			continue
		}
		terms = append(terms, KroneckerTerm{Weight: t.Weight, Factors: []*Node{lm.RowTimesReversal(t), t.Col},
			Perm: []int{1, 0}})
	}
	return terms
}
