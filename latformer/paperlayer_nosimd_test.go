// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

//go:build !goexperiment.simd

package latformer

// paperLayerHash is the FNV-64a hash of the float32 bits of the logits and first-layer gates that
// TestPaperLayerUnchanged computes, recorded with the code of e4949cf (before the anchor-relative expert),
// built without GOEXPERIMENT=simd.
const paperLayerHash = 0x10909a912d1b894e
