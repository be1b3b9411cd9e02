// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
	"time"
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

// TestAVX2SmallLanes4BothPaths runs TestAVX2SmallBlockedMatchesSmall (bit for bit against the published kernels)
// with avx2SmallLanes4x16's row blocks switched on (in assembly and in archsimd) and off (the lanes path on).
func TestAVX2SmallLanes4BothPaths(t *testing.T) {
	asm := avx2SmallAsmEnabled
	defer func() { avx2SmallLanes4Enabled = true; avx2SmallAsmEnabled = asm }()
	for _, c := range [][2]bool{{true, asm}, {true, false}, {false, asm}} {
		avx2SmallLanes4Enabled, avx2SmallAsmEnabled = c[0], c[1]
		t.Run(fmt.Sprintf("lanes4=%v_asm=%v", c[0], c[1]), TestAVX2SmallBlockedMatchesSmall)
	}
}

// BenchmarkAVX2SmallLanes4 times avx2SmallLanesFloat32Transposed with rows one at a time ("rows1") and 4 at a
// time ("rows4"), alternated shape by shape, and the 2x4 blocks ("blocks", the path of contractions without a
// tail) on the same shapes. One core.
func BenchmarkAVX2SmallLanes4(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallLanes4Enabled = true; avx2SmallLanesEnabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][4]int{{16, 10, 10, 10}, {16, 30, 30, 30}, {1, 480, 30, 30}, {1, 1600, 32, 11}, {16, 100, 100, 33}, {16, 100, 100, 32}, {8, 400, 400, 33}, {8, 400, 400, 32}, {1, 1600, 32, 32}, {1, 16, 32, 64}, {1, 28, 64, 16}, {1, 16, 64, 28}} {
		batch, m, n, k := s[0], s[1], s[2], s[3]
		lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*n*k), make([]float32, batch*m*n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, path := range []string{"blocks", "rows1", "rows4"} {
			b.Run(fmt.Sprintf("%dx[%dx%d]x[%dx%d]T/%s", batch, m, k, n, k, path), func(b *testing.B) {
				avx2SmallLanes4Enabled = path == "rows4"
				for b.Loop() {
					if path == "blocks" {
						avx2SmallLanesEnabled = false
						avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
						avx2SmallLanesEnabled = true
					} else {
						avx2SmallLanesFloat32Transposed(lhs, rhs, 0, batch, m, n, k, out)
					}
				}
			})
		}
	}
}

// avx2SmallLanes4StepShapes are, per canvas and attention path of LatFormer's `latformer bench` step (batch 16,
// d 32; one forward and backward), the transposed small products that reach avx2SmallLanesFloat32Transposed
// with the row blocks on, as (calls per step, batch, m, n, k): counted with a temporary print in
// avx2SmallBlockedFloat32Transposed (not committed).
var avx2SmallLanes4StepShapes = []struct {
	name   string
	shapes [][5]int
}{
	{"canvas10_full", [][5]int{{3, 1, 10, 160, 10}, {1, 1, 16, 32, 64}, {1, 1, 16, 64, 28}, {3, 1, 160, 10, 10}, {1, 1, 1600, 32, 11}, {4, 1, 1600, 32, 32}, {1, 1, 28, 64, 16}, {20, 16, 10, 10, 10}, {1, 16, 100, 100, 32}, {1, 16, 100, 100, 33}}},
	{"canvas10_factored", [][5]int{{3, 1, 10, 160, 10}, {1, 1, 16, 32, 64}, {1, 1, 16, 64, 28}, {3, 1, 160, 10, 10}, {1, 1, 1600, 32, 11}, {2, 1, 1600, 32, 32}, {1, 1, 28, 64, 16}, {20, 16, 10, 10, 10}}},
	{"canvas20_both", [][5]int{{1, 1, 16, 32, 64}, {1, 1, 16, 64, 30}, {3, 1, 20, 320, 20}, {1, 1, 30, 64, 16}, {3, 1, 320, 20, 20}, {1, 1, 6400, 32, 11}, {24, 16, 20, 20, 20}}},
	{"canvas30_full", [][5]int{{1, 1, 16, 32, 64}, {1, 1, 16, 64, 30}, {2, 1, 240, 30, 30}, {3, 1, 30, 480, 30}, {1, 1, 30, 64, 16}, {2, 1, 480, 30, 30}, {24, 16, 30, 30, 30}}},
	{"canvas30_factored", [][5]int{{1, 1, 16, 32, 64}, {1, 1, 16, 64, 30}, {3, 1, 30, 480, 30}, {1, 1, 30, 64, 16}, {3, 1, 480, 30, 30}, {24, 16, 30, 30, 30}}},
}

// BenchmarkAVX2SmallLanes4Steps times one step's worth of those products through avx2SmallBlockedFloat32Transposed
// with the row blocks off (before compute-matmul-small-lanes4.patch: k % 8 == 0 on the 2x4 blocks, the others
// one row at a time in lanes) and on, alternated 200 times; it reports the least time of each (us per step: the
// least is the least disturbed by other processes on a shared machine). One core.
func BenchmarkAVX2SmallLanes4Steps(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	defer func() { avx2SmallLanes4Enabled = true }()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, step := range avx2SmallLanes4StepShapes {
		type operands struct{ lhs, rhs, out []float32 }
		ops := make([]operands, len(step.shapes))
		for i, s := range step.shapes {
			batch, m, n, k := s[1], s[2], s[3], s[4]
			ops[i] = operands{make([]float32, batch*m*k), make([]float32, batch*n*k), make([]float32, batch*m*n)}
			blockedTestValues(rng, ops[i].lhs, false)
			blockedTestValues(rng, ops[i].rhs, false)
		}
		run := func() time.Duration {
			start := time.Now()
			for i, s := range step.shapes {
				for range s[0] {
					avx2SmallBlockedFloat32Transposed(ops[i].lhs, ops[i].rhs, 0, s[1], s[2], s[3], s[4], ops[i].out)
				}
			}
			return time.Since(start)
		}
		b.Run(step.name, func(b *testing.B) {
			for b.Loop() {
				least := [2]time.Duration{time.Hour, time.Hour}
				for range 200 {
					for p, on := range []bool{false, true} {
						avx2SmallLanes4Enabled = on
						least[p] = min(least[p], run())
					}
				}
				b.ReportMetric(float64(least[0].Microseconds()), "us_before")
				b.ReportMetric(float64(least[1].Microseconds()), "us_after")
			}
		})
	}
}
