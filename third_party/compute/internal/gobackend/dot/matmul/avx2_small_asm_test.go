// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// TestAVX2SmallAsmBothPaths runs TestAVX2SmallBlockedMatchesSmall (every shape of blockedShapes, bit for bit
// against the published kernels; the non-transposed ones with 16 or more columns and 4 or more rows use the 4x16
// blocks, the transposed ones with k >= 8 and no lanes path the 2x4 blocks) with both blocks in assembly
// (avx2Kernel4x16SmallFloat32, avx2Kernel2x4TransposedFloat32) and in archsimd.
func TestAVX2SmallAsmBothPaths(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("AVX2 and FMA are not supported on this CPU")
	}
	defer func() { avx2SmallAsmEnabled = true }()
	for _, enabled := range []bool{true, false} {
		avx2SmallAsmEnabled = enabled
		t.Run(fmt.Sprintf("asm=%v", enabled), TestAVX2SmallBlockedMatchesSmall)
	}
}

// BenchmarkAVX2SmallAsm times avx2SmallBlockedFloat32 on LatFormer's non-transposed small products with 16 or
// more columns (canvas 10's A [V, 1], [100, 100] x [100, 33], and the factored path's per-axis products, [30, 30] x
// [30, 32] and [30, 30] x [30, 960]) and transposed ones without a contraction tail (canvas 10's Q Kᵀ, [100, 32] x
// [100, 32]ᵀ, and the factored path's per-axis gradient [30, 960] x [30, 960]ᵀ) with the blocks in archsimd
// ("archsimd") and in assembly ("asm"), alternated shape by shape. One core.
func BenchmarkAVX2SmallAsm(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("AVX2 and FMA are not supported on this CPU")
	}
	defer func() { avx2SmallAsmEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][5]int{{16, 100, 33, 100, 0}, {480, 30, 32, 30, 0}, {16, 30, 960, 30, 0}, {16, 100, 100, 32, 1}, {16, 30, 30, 960, 1}} {
		batch, m, n, k, transposed := s[0], s[1], s[2], s[3], s[4] == 1
		lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*k*n), make([]float32, batch*m*n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, asm := range []bool{false, true} {
			name := fmt.Sprintf("%dx[%dx%d]x[%dx%d]_transposed=%v/archsimd", batch, m, k, k, n, transposed)
			if asm {
				name = fmt.Sprintf("%dx[%dx%d]x[%dx%d]_transposed=%v/asm", batch, m, k, k, n, transposed)
			}
			b.Run(name, func(b *testing.B) {
				avx2SmallAsmEnabled = asm
				for b.Loop() {
					if transposed {
						avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
					} else {
						avx2SmallBlockedFloat32(lhs, rhs, 0, batch, m, n, k, out)
					}
				}
			})
		}
	}
}
