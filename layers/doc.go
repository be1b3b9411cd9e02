// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package layers implements the attention layers of LatFormer (Atzeni, Sachan, Loukas, ICML 2023) as
// GoMLX graph functions:
//
//   - MaskedAttentionCore: softmax attention whose weights are multiplied by a soft mask after the
//     softmax and renormalized (Section 3.1). The mask is shared by the batch or given per example.
//   - MaskedAttentionCoreFactored: the same for lattice masks kept as per-cell factors
//     (experts.LatticeMask.Factors), the LatFormer layer's full attention. Both cores have a
//     hand-written gradient made of matrix products only.
//   - MaskedAttention: the same with learned query/key/value/output projections, as a builder in the
//     style of GoMLX's attention.MultiHeadAttention.
//   - KroneckerMaskAttention, MultiMaskOnlyAttention: the mask-only variant (ParamAttention = mask_only),
//     computed per lattice axis in O(n·(H+W)) without any n x n tensor.
//   - LatFormer: the LatFormer layer of Figure 3a. It is a Transformer encoder layer (attention, FFN,
//     residuals, layer norms) whose attention a lattice mask expert modulates (package experts). It can
//     be conditioned on a vector, such as a T5 text embedding.
//
// Shapes follow GoMLX conventions: batch first, then the sequence (the flattened lattice, row-major, see
// package experts), then features.
//
// Both attention cores compute the batch in slices of at most 8 MiB of attention weights
// (fastgraph.Chunks), which GoMLX's Go backend runs in parallel. The layers never choose a backend;
// docs/backends.md says which configuration of the Go backend runs them fastest.
package layers
