// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package latformer

// paperLayerHash is the FNV-64a hash of the float32 bits of the logits and first-layer gates that
// TestPaperLayerUnchanged computes, recorded with the code of e4949cf (before the anchor-relative expert),
// built with GOEXPERIMENT=simd.
const paperLayerHash = 0xc3aad2e358cc1677
