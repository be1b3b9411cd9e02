// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// TestAVX2SmallRowBlocksBothPaths runs TestAVX2SmallBlockedMatchesSmall (every shape of blockedShapes, bit for bit
// against the published kernels) with avx2SmallTailCols' 4- and 2-row blocks and avx2SmallBlockedVectorCols'
// 3- and 8-vector blocks for the last rows and the transposed kernel's 4x1 tail-column blocks switched on and off.
func TestAVX2SmallRowBlocksBothPaths(t *testing.T) {
	defer func() {
		avx2SmallTailColsRows4Enabled, avx2SmallRowCols3Enabled, avx2SmallRowCols8Enabled, avx2SmallTailCols4x1Enabled = true, true, true, true
	}()
	for _, rows4 := range []bool{true, false} {
		for _, cols3 := range []bool{true, false} {
			for _, cols8 := range []bool{true, false} {
				// The transposed kernel's 4x1 tail-column blocks go with the 4-row blocks' switch.
				avx2SmallTailColsRows4Enabled, avx2SmallRowCols3Enabled, avx2SmallRowCols8Enabled, avx2SmallTailCols4x1Enabled = rows4, cols3, cols8, rows4
				t.Run(fmt.Sprintf("tailrows4=%v_rowcols3=%v_rowcols8=%v", rows4, cols3, cols8), TestAVX2SmallBlockedMatchesSmall)
			}
		}
	}
}

// BenchmarkAVX2SmallRowBlocks times avx2SmallBlockedFloat32 on LatFormer's mask factor gradients (the full
// attention's dl = dM r, [l, l] x [l, 2], and dr = lᵀ dM, [2, l] x [l, l], per cell of one half batch at canvas 30
// and 10) with the row blocks of avx2SmallTailCols and avx2SmallBlockedVectorCols off ("rows1") and on
// ("blocked"), alternated shape by shape. One core.
func BenchmarkAVX2SmallRowBlocks(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() {
		avx2SmallTailColsRows4Enabled, avx2SmallRowCols3Enabled, avx2SmallRowCols8Enabled = true, true, true
	}()
	rng := rand.New(rand.NewPCG(1, 2))
	// The last two: the bias gradients of the feed-forward layers at canvas 30 (1ᵀ dy, [1, 14400] x [14400, n]).
	for _, s := range [][4]int{{3600, 30, 2, 30}, {3600, 2, 30, 30}, {800, 10, 2, 10}, {800, 2, 10, 10}, {1, 1, 128, 14400}, {1, 1, 32, 14400}} {
		batch, m, n, k := s[0], s[1], s[2], s[3]
		lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*k*n), make([]float32, batch*m*n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, blocked := range []bool{false, true} {
			name := fmt.Sprintf("%dx[%dx%d]x[%dx%d]/rows1", batch, m, k, k, n)
			if blocked {
				name = fmt.Sprintf("%dx[%dx%d]x[%dx%d]/blocked", batch, m, k, k, n)
			}
			b.Run(name, func(b *testing.B) {
				avx2SmallTailColsRows4Enabled, avx2SmallRowCols3Enabled, avx2SmallRowCols8Enabled = blocked, blocked, false
				for b.Loop() {
					avx2SmallBlockedFloat32(lhs, rhs, 0, batch, m, n, k, out)
				}
			})
		}
	}
}

// BenchmarkAVX2SmallTransposedTailCols times avx2SmallBlockedFloat32Transposed on LatFormer's factor gradients at
// canvas 30 (16 x [30, 960] x [30, 960]ᵀ: 2 columns left after the 4-column blocks) with those columns one output
// at a time ("rows1") and 4 rows at a time ("rows4"). One core.
func BenchmarkAVX2SmallTransposedTailCols(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallTailCols4x1Enabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	batch, m, n, k := 16, 30, 30, 960
	lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*n*k), make([]float32, batch*m*n)
	blockedTestValues(rng, lhs, false)
	blockedTestValues(rng, rhs, false)
	for _, rows4 := range []bool{false, true} {
		b.Run(fmt.Sprintf("%dx[%dx%d]x[%dx%d]T/rows4=%v", batch, m, k, n, k, rows4), func(b *testing.B) {
			avx2SmallTailCols4x1Enabled = rows4
			for b.Loop() {
				avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
			}
		})
	}
}
