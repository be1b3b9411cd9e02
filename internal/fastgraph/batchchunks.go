// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"slices"

	. "github.com/gomlx/gomlx/core/graph"
)

// BatchProducts are the sizes (M·N·K, per example) of the matrix products of a computation that
// InBatchChunks may slice along its batch: Together are judged together (all on the large kernels even
// in the smallest slice, or all on the small ones for the whole batch), Each one by one.
type BatchProducts struct {
	Together, Each []int
}

// batchChunks is how many slices of the batch InBatchChunks computes separately.
const batchChunks = 2

// goSmallMatMulFlops is the size (batch·M·N·K) under which GoMLX's Go backend multiplies matrices with its
// "small" kernels instead of its packed "large" ones (compute v0.1.2, internal/gobackend/dot/matmul,
// noSIMDSmallMatMulSizeThreshold).
const goSmallMatMulFlops = 4 << 20

// InBatchChunks returns core(0, batch), computed as two calls core(lo, hi) on halves of the batch whose
// outputs are concatenated back along the batch axis, when that gives the same values to the last bit;
// otherwise as one call. core must compute every example on its own (as attention does) and slice only its
// small operands: each half's large tensors are then independent graph nodes, which GoMLX's Go backend
// runs in parallel where an op such as its softmax runs on one core.
//
// The values are the same to the last bit only if every matrix product runs on the same kind of kernel for
// a half as for the whole batch: GoMLX's Go backend multiplies products below a size threshold (4M
// multiply-adds) with other kernels, which sum in another order. products are core's matrix products per
// example; where halving the batch would move one across the threshold, the batch is not sliced
// (SameKernels), so that results computed before the slicing existed are reproduced bit for bit.
func InBatchChunks(batch int, products BatchProducts, core func(lo, hi int) []*Node) []*Node {
	chunks := min(batchChunks, batch)
	if chunks < 2 || !SameKernels(batch, products) {
		return core(0, batch)
	}
	var parts [][]*Node
	for ci := range chunks {
		parts = append(parts, core(batch*ci/chunks, batch*(ci+1)/chunks))
	}
	outs := make([]*Node, len(parts[0]))
	for i := range outs {
		pieces := make([]*Node, chunks)
		for ci := range chunks {
			pieces[ci] = parts[ci][i]
		}
		outs[i] = Concatenate(pieces, 0)
	}
	return outs
}

// SameKernels reports whether InBatchChunks' slicing of a batch keeps every product of products on its
// side of the Go backend's small/large kernel threshold: products.Together all large even in the smallest
// slice, or all small for the whole batch (stricter than one product at a time, and the rule Table 2's
// 84-task check ran with); each of products.Each on its own.
func SameKernels(batch int, products BatchProducts) bool {
	chunks := min(batchChunks, batch)
	if chunks < 2 {
		return true
	}
	smallest := batch / chunks
	lo, hi := slices.Min(products.Together), slices.Max(products.Together)
	if smallest*lo < goSmallMatMulFlops && batch*hi >= goSmallMatMulFlops {
		return false
	}
	for _, x := range products.Each {
		if smallest*x < goSmallMatMulFlops && batch*x >= goSmallMatMulFlops {
			return false
		}
	}
	return true
}
