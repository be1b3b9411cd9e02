// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// BatchMatMul is the batched matrix product a b ("bij,bjk->bik", as Einsum) of a [B, i, j] and b [B, j, k],
// with a hand-written gradient:
//
//	da = dc bᵀ,   db = aᵀ dc
//
// each one matrix product in a layout the Go backend takes as it is, with one transposed copy of a for db.
// GoMLX's generic gradient of the same product transposes its results back to the operands' axes: two or
// three copies per product. The mask experts chain many such products of small per-axis matrices, whose
// copies cost more than the products (BenchmarkBatchMatMul).
func BatchMatMul(a, b *Node) *Node {
	if a.Rank() != 3 || b.Rank() != 3 || a.Shape().Dimensions[0] != b.Shape().Dimensions[0] ||
		a.Shape().Dimensions[2] != b.Shape().Dimensions[1] {
		exceptions.Panicf("fastgraph.BatchMatMul: want a [B, i, j] and b [B, j, k], got %s and %s", a.Shape(), b.Shape())
	}
	var sa, sb *Node
	forward := func(in []*Node) []*Node {
		sa, sb = in[0], in[1]
		return []*Node{DotGeneral(sa, []int{2}, []int{0}, sb, []int{1}, []int{0})}
	}
	backward := func(d []*Node) []*Node {
		dc := d[0]
		da := DotGeneral(dc, []int{2}, []int{0}, sb, []int{2}, []int{0})                            // [B, i, j]
		db := DotGeneral(TransposeAllDims(sa, 0, 2, 1), []int{2}, []int{0}, dc, []int{1}, []int{0}) // [B, j, k]
		return []*Node{da, db}
	}
	return WithCustomVJP([]*Node{a, b}, forward, backward)[0]
}
