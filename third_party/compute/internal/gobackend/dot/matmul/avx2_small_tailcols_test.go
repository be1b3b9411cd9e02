// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// TestAVX2SmallTailColsBothPaths runs TestAVX2SmallBlockedMatchesSmall (every shape of blockedShapes, the
// expert's [10, 10] x [10, 10] among them, bit for bit against the published kernels) with the last n%8
// columns computed by avx2SmallTailCols (products narrower than 8 columns 8 rows at a time by
// avx2SmallBlockedScalarCols' 8-row blocks, and not) and by avx2SmallBlockedScalarCols.
func TestAVX2SmallTailColsBothPaths(t *testing.T) {
	defer func() { avx2SmallTailColsEnabled, avx2SmallNarrowRows8Enabled = true, true }()
	for _, c := range [][2]bool{{true, true}, {true, false}, {false, false}} {
		avx2SmallTailColsEnabled, avx2SmallNarrowRows8Enabled = c[0], c[1]
		t.Run(fmt.Sprintf("tailcols=%v_rows8=%v", c[0], c[1]), TestAVX2SmallBlockedMatchesSmall)
	}
}

// BenchmarkAVX2SmallNarrowRows8 times avx2SmallBlockedFloat32 on LatFormer's mask gradient at canvas 20 as one
// worker of 2 computes it (3,200 products [20, 20] x [20, 2]) with 4 rows at a time in avx2SmallTailCols
// ("rows4") and 8 rows in lanes ("rows8"). One core.
func BenchmarkAVX2SmallNarrowRows8(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallNarrowRows8Enabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][2]int{{10, 800}, {20, 3200}, {30, 7200}} {
		l, batch := s[0], s[1]
		lhs, rhs, out := make([]float32, batch*l*l), make([]float32, batch*l*2), make([]float32, batch*l*2)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, rows8 := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dx%dx2x%d/rows8=%v", batch, l, l, rows8), func(b *testing.B) {
				avx2SmallNarrowRows8Enabled = rows8
				for b.Loop() {
					avx2SmallBlockedFloat32(lhs, rhs, 0, batch, l, 2, l, out)
				}
			})
		}
	}
}

// BenchmarkAVX2SmallTailCols times avx2SmallBlockedFloat32 on the LatFormer expert's per-example products
// (16 x [l, l] x [l, l], the translation, scaling and their gradients) with the tail columns by rows
// (avx2SmallTailCols) and 8 rows in lanes (avx2SmallBlockedScalarCols). One core.
func BenchmarkAVX2SmallTailCols(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallTailColsEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range []int{10, 14, 30} {
		const batch = 16
		lhs, rhs, out := make([]float32, batch*l*l), make([]float32, batch*l*l), make([]float32, batch*l*l)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, enabled := range []bool{false, true} {
			b.Run(fmt.Sprintf("16x%dx%dx%d/tailcols=%v", l, l, l, enabled), func(b *testing.B) {
				avx2SmallTailColsEnabled = enabled
				for b.Loop() {
					avx2SmallBlockedFloat32(lhs, rhs, 0, batch, l, l, l, out)
				}
			})
		}
	}
}
