// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// TestAVX2SmallTinyKMatchesSmall checks that the transposed products with k < 8 give the bits of
// avx2SmallFloat32Transposed (the published kernel) and of avx2SmallBlockedFloat32Transposed without this path,
// for k = 1..7, rows and columns from 1 to 33 (column counts below, at and above multiples of 8: the masked
// tail), LatFormer's mask shape ([30, 2] x [30, 2]ᵀ), whole and partial batch ranges, with and without
// infinities, NaNs and signed zeros (a -0 product first is where a sum from +0 differs from one from the first
// product), and that every output is written (the outputs start filled with a sentinel).
func TestAVX2SmallTinyKMatchesSmall(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallTinyKEnabled = true }()
	rng := rand.New(rand.NewPCG(13, 17))
	shapes := [][3]int{{1, 1}, {1, 9}, {2, 30}, {3, 7}, {4, 8}, {5, 16}, {8, 17}, {30, 30}, {33, 31}, {9, 1}, {20, 20}, {7, 12}}
	for _, special := range []bool{false, true} {
		for k := 1; k < 8; k++ {
			for _, s := range shapes {
				m, n, batch := s[0], s[1], 3
				name := fmt.Sprintf("m%d_n%d_k%d_special=%v", m, n, k, special)
				lhs, rhs := make([]float32, batch*m*k), make([]float32, batch*n*k)
				blockedTestValues(rng, lhs, special)
				blockedTestValues(rng, rhs, special)
				if special { // -0 products: a negative times +0 in the first term of some outputs
					lhs[0], rhs[0] = -1, 0
				}
				for _, r := range [][2]int{{0, batch}, {1, batch - 1}} {
					orig, blocked, got := make([]float32, batch*m*n), make([]float32, batch*m*n), make([]float32, batch*m*n)
					for i := range got {
						orig[i], blocked[i], got[i] = 0, 12345.678, 12345.678
					}
					for i := range r[0] * m * n {
						blocked[i], got[i] = 0, 0
					}
					avx2SmallFloat32Transposed(lhs, rhs, r[0], r[1], m, n, k, orig)
					avx2SmallTinyKEnabled = false
					avx2SmallBlockedFloat32Transposed(lhs, rhs, r[0], r[1], m, n, k, blocked)
					avx2SmallTinyKEnabled = true
					avx2SmallBlockedFloat32Transposed(lhs, rhs, r[0], r[1], m, n, k, got)
					for i := range got {
						for _, ref := range [2][]float32{orig, blocked} {
							if math.Float32bits(ref[i]) != math.Float32bits(got[i]) && !(isNaN32(ref[i]) && isNaN32(got[i])) {
								t.Fatalf("%s batches %v: output %d: tiny-k %g (%#08x), reference %g (%#08x)", name, r, i,
									got[i], math.Float32bits(got[i]), ref[i], math.Float32bits(ref[i]))
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkAVX2SmallTinyK times LatFormer's mask at canvas 30 as one worker of 2 computes it (3,600 products
// [30, 2] x [30, 2]ᵀ) with the blocked kernel ("blocked") and the tiny-k path ("tinyk"); one core.
func BenchmarkAVX2SmallTinyK(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallTinyKEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	const batch, m, n, k = 3600, 30, 30, 2
	lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*n*k), make([]float32, batch*m*n)
	blockedTestValues(rng, lhs, false)
	blockedTestValues(rng, rhs, false)
	for _, tiny := range []bool{false, true} {
		name := "mask_canvas30/blocked"
		if tiny {
			name = "mask_canvas30/tinyk"
		}
		b.Run(name, func(b *testing.B) {
			avx2SmallTinyKEnabled = tiny
			for b.Loop() {
				avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
			}
		})
	}
}
