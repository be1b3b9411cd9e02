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
// against the published kernels; those with 16 or more columns and 4 or more rows use the 4x16 blocks) with the
// blocks in assembly (avx2Kernel4x16SmallFloat32) and in archsimd.
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
// [30, 32] and [30, 30] x [30, 960]) with the 4x16 blocks in archsimd ("archsimd") and in assembly ("asm"),
// alternated shape by shape. One core.
func BenchmarkAVX2SmallAsm(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("AVX2 and FMA are not supported on this CPU")
	}
	defer func() { avx2SmallAsmEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][4]int{{16, 100, 33, 100}, {480, 30, 32, 30}, {16, 30, 960, 30}} {
		batch, m, n, k := s[0], s[1], s[2], s[3]
		lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*k*n), make([]float32, batch*m*n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, asm := range []bool{false, true} {
			name := fmt.Sprintf("%dx[%dx%d]x[%dx%d]/archsimd", batch, m, k, k, n)
			if asm {
				name = fmt.Sprintf("%dx[%dx%d]x[%dx%d]/asm", batch, m, k, k, n)
			}
			b.Run(name, func(b *testing.B) {
				avx2SmallAsmEnabled = asm
				for b.Loop() {
					avx2SmallBlockedFloat32(lhs, rhs, 0, batch, m, n, k, out)
				}
			})
		}
	}
}
