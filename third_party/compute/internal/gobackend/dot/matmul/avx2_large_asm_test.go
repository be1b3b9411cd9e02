// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"

	"github.com/gomlx/compute/internal/gobackend/dot"
)

// largeAsmShapes are (m, n, k, transposed): LatFormer's step at canvas 20 and 30 (the n x n attention products
// and their gradients, Q Kᵀ with d = 32 and 33, A [V, 1], the dense layers on 14,400 cells), and odd sizes:
// one row or column, rows not a multiple of 4 or of the 24-row panel, columns not a multiple of 16 or of the
// 512-column panel, contractions shorter than, equal to and longer than the 128-long panel, with tails.
var largeAsmShapes = []struct {
	m, n, k    int
	transposed bool
}{
	{900, 900, 32, true}, {900, 900, 33, true}, {900, 33, 900, false}, {900, 32, 900, false},
	{32, 900, 900, false}, {33, 900, 900, false}, {400, 400, 32, true}, {400, 33, 400, false},
	{14400, 32, 32, false}, {32, 128, 14400, false}, {1440, 128, 32, true},
	{1, 1, 1, false}, {1, 1, 1, true}, {5, 17, 3, false}, {7, 3, 130, true}, {37, 45, 129, false},
	{24, 512, 128, false}, {25, 513, 257, true}, {3, 100, 300, false}, {49, 31, 256, true}, {100, 530, 5, false},
	{130, 11, 32, false}, {61, 11, 300, true}, // the head's 11 columns, one contraction panel and several
}

// largeSliceBoth runs avx2LargeMatrixSliceFloat32 on rows [r0, r1) and columns [c0, c1) with the archsimd
// micro-kernel (want) and the assembly one (got), into outputs prefilled with a sentinel.
func largeSliceBoth(layout dot.Layout, lhs, rhs []float32, m, n, k, r0, r1, c0, c1 int) (want, got []float32) {
	p := AVX2ParamsFloat32
	defer func() { avx2LargeAsmEnabled = true }()
	for _, asm := range []bool{false, true} {
		avx2LargeAsmEnabled = asm
		out := make([]float32, m*n)
		for i := range out {
			out[i] = 12345.678
		}
		pl, pr, po := make([]float32, p.LHSPanelCrossSize*p.PanelContractingSize),
			make([]float32, p.PanelContractingSize*p.RHSPanelCrossSize), make([]float32, p.LHSPanelCrossSize*p.RHSPanelCrossSize)
		avx2LargeMatrixSliceFloat32(layout, lhs, rhs, out, m, n, k, r0, r1, c0, c1, p, pl, pr, po)
		if asm {
			got = out
		} else {
			want = out
		}
	}
	return
}

// TestAVX2LargeAsmMatchesLarge checks that the assembly micro-kernel gives the bits of the archsimd one on every
// shape of largeAsmShapes (whole matrices and a worker's slice of rows and columns), with and without
// infinities and NaNs, and writes the same outputs (the rest keeps its sentinel). Where NaNs meet, both give a
// NaN, payload aside (see the README of docs/upstream).
func TestAVX2LargeAsmMatchesLarge(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("AVX2 and FMA are not supported on this CPU")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for _, special := range []bool{false, true} {
		for _, s := range largeAsmShapes {
			layout := dot.LayoutNonTransposed
			if s.transposed {
				layout = dot.LayoutTransposed
			}
			lhs, rhs := make([]float32, s.m*s.k), make([]float32, s.k*s.n)
			blockedTestValues(rng, lhs, special)
			blockedTestValues(rng, rhs, special)
			ranges := [][4]int{{0, s.m, 0, s.n}}
			if s.m > 4 && s.n > 4 {
				ranges = append(ranges, [4]int{s.m / 3, s.m - 1, s.n / 4, s.n - 2})
			}
			for _, r := range ranges {
				name := fmt.Sprintf("m%d_n%d_k%d_transposed=%v_rows%d-%d_cols%d-%d_special=%v",
					s.m, s.n, s.k, s.transposed, r[0], r[1], r[2], r[3], special)
				want, got := largeSliceBoth(layout, lhs, rhs, s.m, s.n, s.k, r[0], r[1], r[2], r[3])
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) && !(isNaN32(want[i]) && isNaN32(got[i])) {
						t.Fatalf("%s: output %d (row %d, col %d): assembly %g (%#08x), archsimd %g (%#08x)", name, i,
							i/s.n, i%s.n, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// BenchmarkAVX2LargeAsm times one matrix of the step's large products with the archsimd micro-kernel
// ("archsimd") and the assembly one ("asm"), alternated shape by shape; one core.
func BenchmarkAVX2LargeAsm(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("AVX2 and FMA are not supported on this CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	p := AVX2ParamsFloat32
	defer func() { avx2LargeAsmEnabled = true }()
	for _, s := range largeAsmShapes[:11] {
		layout := dot.LayoutNonTransposed
		if s.transposed {
			layout = dot.LayoutTransposed
		}
		lhs, rhs, out := make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		pl, pr, po := make([]float32, p.LHSPanelCrossSize*p.PanelContractingSize),
			make([]float32, p.PanelContractingSize*p.RHSPanelCrossSize), make([]float32, p.LHSPanelCrossSize*p.RHSPanelCrossSize)
		for _, asm := range []bool{false, true} {
			name := fmt.Sprintf("m%d_n%d_k%d_t%v/archsimd", s.m, s.n, s.k, s.transposed)
			if asm {
				name = fmt.Sprintf("m%d_n%d_k%d_t%v/asm", s.m, s.n, s.k, s.transposed)
			}
			b.Run(name, func(b *testing.B) {
				avx2LargeAsmEnabled = asm
				for b.Loop() {
					avx2LargeMatrixSliceFloat32(layout, lhs, rhs, out, s.m, s.n, s.k, 0, s.m, 0, s.n, p, pl, pr, po)
				}
			})
		}
	}
}
