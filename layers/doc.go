// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package layers implements the attention layers of LatFormer (Atzeni, Sachan, Loukas, ICML 2023) as
// GoMLX graph functions:
//
//   - MaskedAttentionCore: softmax attention whose weights are multiplied by a soft mask after the
//     softmax and renormalized (Section 3.1), for any number of heads, with a mask shared by the batch or
//     one mask per example.
//   - MaskedAttentionCoreFactored: the same for lattice masks kept as per-cell factors
//     (experts.LatticeMask.Factors), the LatFormer layer's full attention. Both have a hand-written
//     gradient made of matrix products only (no n x n transpose or broadcast).
//   - MaskedAttention: the same with learned query/key/value/output projections, as a builder in the
//     style of GoMLX's attention.MultiHeadAttention.
//   - KroneckerMaskAttention, MultiMaskOnlyAttention: the mask-only variant (ParamAttention = mask_only),
//     computed per lattice axis in O(n·(H+W)) without any n x n tensor.
//   - LatFormer: the LatFormer layer of Figure 3a, a Transformer encoder layer (attention + FFN, residuals,
//     layer norms) whose attention is modulated by a lattice mask expert (package experts), optionally
//     conditioned on a vector (e.g. a T5 text embedding).
//
// Shapes follow GoMLX conventions: batch first, sequence (the flattened lattice, row-major; see package
// experts for the layout) second, features last.
//
// Speed. Both attention cores compute the batch in slices of at most 8 MiB of attention weights, and in one
// piece under 4 MiB (fastgraph.Chunks; 8 slices at canvas 30 with 16 examples), whose nodes GoMLX's Go backend
// runs in parallel. The layers never choose a backend. On GoMLX's default Go backend ("go", what compute.New gives a
// program without $GOMLX_BACKEND) the node executors hold most of the worker pool, and the LatFormer training
// step takes 1.1-1.5x as long as on "go:ops_parallel,parallelism=-1" (backend.DefaultGo, what backend.New
// gives); README.md, "Backends", has the numbers.
package layers
