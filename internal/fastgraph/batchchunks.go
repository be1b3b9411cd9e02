// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// ChunkBytes is the size that InBatchChunks aims for the largest tensor of one slice of the batch: the
// attention's [examples, heads, queryLen, keyLen] weights. Measured on GoMLX's Go backend (compute v0.1.14,
// docs/bench.md): at canvas 30 with 16 examples (52 MB of weights) the training step takes 220 ms in 2 slices,
// 225 ms in 4, 165 ms in 8 and 177 ms in 16; at canvas 20 (10 MB) 2 slices are the fastest.
const ChunkBytes = 8 << 20

// Chunks returns how many slices of the batch InBatchChunks computes separately: the smallest power of two
// from 2 up whose slices hold at most ChunkBytes of a tensor with bytesPerExample per example, and at most
// batch.
func Chunks(batch, bytesPerExample int) int {
	chunks := 2
	for chunks < batch && batch*bytesPerExample > chunks*ChunkBytes {
		chunks *= 2
	}
	return min(chunks, batch)
}

// InBatchChunks returns core(0, batch), computed as Chunks(batch, bytesPerExample) calls core(lo, hi) on
// slices of the batch whose outputs are concatenated back along the batch axis. core must compute every
// example on its own (as attention does) and slice only its small operands: each slice's large tensors are
// then independent graph nodes, which GoMLX's Go backend runs in parallel (its element-wise ops and its
// softmax run each node on one core), and which stay small enough for its memory pool and caches.
// bytesPerExample is the size of core's largest tensor per example. The values equal those of one call
// up to rounding: a slice's matrix products may run on other kernels than the whole batch's.
func InBatchChunks(batch, bytesPerExample int, core func(lo, hi int) []*Node) []*Node {
	chunks := Chunks(batch, bytesPerExample)
	if chunks < 2 {
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
