// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build !(amd64 && goexperiment.simd)

package ops

// transposeTilesEnabled: the 8x8 tiles are amd64 assembly (transpose8x8_amd64.s).
var transposeTilesEnabled = false

func transpose8x8Words32(src *uint32, srcRowStrideBytes int, dst *uint32, dstRowStrideBytes int) {
	panic("transpose8x8Words32: amd64 only")
}
