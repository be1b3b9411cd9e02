// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package ops

import "simd/archsimd"

// transposeTilesEnabled lets stridedCopyFrom copy 32-bit words that are a 2-D transpose (the output's innermost
// axis strided in the operand, the next one contiguous) by 8x8 tiles in vector registers (transpose8x8Words32)
// instead of one word at a time; the tests and benchmarks switch it off to compare.
var transposeTilesEnabled = archsimd.X86.AVX()

// transpose8x8Words32 is in transpose8x8_amd64.s.
//
//go:noescape
func transpose8x8Words32(src *uint32, srcRowStrideBytes int, dst *uint32, dstRowStrideBytes int)

// Transpose8x8Words32 is transpose8x8Words32 for the other executors (the fused layer norm's rows in vector lanes):
// the 8x8 block of 32-bit words at src (rows srcRowStrideBytes apart) written transposed at dst.
func Transpose8x8Words32(src *uint32, srcRowStrideBytes int, dst *uint32, dstRowStrideBytes int) {
	transpose8x8Words32(src, srcRowStrideBytes, dst, dstRowStrideBytes)
}
