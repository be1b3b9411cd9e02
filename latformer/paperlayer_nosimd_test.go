// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

//go:build !goexperiment.simd

package latformer

// paperLayerHash is the FNV-64a hash of the float32 bits of the logits and first-layer gates that
// TestPaperLayerUnchanged computes, built without GOEXPERIMENT=simd, on GoMLX's compute v0.1.14. The code is that of e4949cf
// (before the anchor-relative expert); compute v0.1.2 with this project's patches gave 0x10909a912d1b894e: with
// GOEXPERIMENT=simd 727 of the 844 values differ, by at most 9.5e-7 (issue 57).
const paperLayerHash = 0x733cf945eb459e02
