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

// SplitBytes is the size of that tensor for the whole batch under which InBatchChunks does not slice it: with
// two training runs side by side on 2 cores (`latformer arc --workers 2`), 32 examples at canvas 8 and 12 (0.8
// and 2.6 MB) took 2-5 % longer in 2 slices than in one, and at canvas 16 (8.4 MB) 5 % less.
const SplitBytes = 4 << 20

// Chunks returns how many slices of the batch InBatchChunks computes separately: 1 under SplitBytes of a tensor
// with bytesPerExample per example, else the smallest power of two from 2 up whose slices hold at most ChunkBytes,
// and at most batch.
func Chunks(batch, bytesPerExample int) int {
	if batch*bytesPerExample < SplitBytes {
		return 1
	}
	chunks := 2
	for chunks < batch && batch*bytesPerExample > chunks*ChunkBytes {
		chunks *= 2
	}
	return min(chunks, batch)
}

// InBatchChunks returns core(0, batch), computed as chunks calls core(lo, hi) on slices of the batch (in order,
// as even as they can be; Chunks gives the measured number for a tensor size) whose outputs are concatenated
// back along the batch axis. core must compute every example on its own (as attention does) and slice only its
// small operands: each slice's large tensors are then independent graph nodes, which GoMLX's Go backend runs in
// parallel (its element-wise ops and its softmax run each node on one core), and which stay small enough for
// its memory pool and caches. The values equal those of one call up to rounding: a slice's matrix products may
// run on other kernels than the whole batch's.
func InBatchChunks(batch, chunks int, core func(lo, hi int) []*Node) []*Node {
	chunks = min(chunks, batch)
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
