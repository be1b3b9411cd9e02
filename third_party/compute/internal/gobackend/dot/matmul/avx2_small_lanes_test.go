// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// TestAVX2SmallLanesBothPaths runs TestAVX2SmallBlockedMatchesSmall (every shape of blockedShapes, bit for bit
// against the published kernels; the transposed ones with k from 9 to 57 and a tail go to
// avx2SmallLanesFloat32Transposed) with the lanes path switched on and off.
func TestAVX2SmallLanesBothPaths(t *testing.T) {
	defer func() { avx2SmallLanesEnabled = true }()
	for _, enabled := range []bool{true, false} {
		avx2SmallLanesEnabled = enabled
		t.Run(fmt.Sprintf("lanes=%v", enabled), TestAVX2SmallBlockedMatchesSmall)
	}
}

// BenchmarkAVX2SmallLanes times avx2SmallBlockedFloat32Transposed on LatFormer's transposed products with a
// contraction tail (the expert's per-example [l, l] x [l, l]ᵀ at canvas 10 and 30, the factored path's [160, 10] x
// [10, 10]ᵀ and [480, 30] x [30, 30]ᵀ, the loss's [1600, 11] x [32, 11]ᵀ, canvas 10's dA [100, 33] x [100, 33]ᵀ)
// by the 2x4 blocks ("blocks") and in lanes ("lanes"), alternated shape by shape. One core.
func BenchmarkAVX2SmallLanes(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallLanesEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][4]int{{16, 10, 10, 10}, {16, 30, 30, 30}, {1, 160, 10, 10}, {1, 480, 30, 30}, {1, 1600, 32, 11}, {16, 100, 100, 33}} {
		batch, m, n, k := s[0], s[1], s[2], s[3]
		lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*n*k), make([]float32, batch*m*n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, lanes := range []bool{false, true} {
			name := fmt.Sprintf("%dx[%dx%d]x[%dx%d]T/blocks", batch, m, k, n, k)
			if lanes {
				name = fmt.Sprintf("%dx[%dx%d]x[%dx%d]T/lanes", batch, m, k, n, k)
			}
			b.Run(name, func(b *testing.B) {
				avx2SmallLanesEnabled = lanes
				for b.Loop() {
					avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
				}
			})
		}
	}
}
