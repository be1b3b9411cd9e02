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

// largeDirectShapes adds to largeAsmShapes the shapes where the direct lhs panels have most to handle: the
// attention's [V, 1] products with 33 columns (2 whole 16-column tiles and a tail of 1), rows not a multiple of
// 4 in the last lhs panel, several contracting panels (accumulating into the output), a column panel boundary, and one
// the direct panels leave to the packed ones (n and k both above avx2LargeDirectMaxSize).
var largeDirectShapes = append([]struct {
	m, n, k    int
	transposed bool
}{
	{901, 33, 900, false}, {27, 49, 300, true}, {40, 64, 37, false}, {25, 48, 33, false}, {12, 16, 5, true}, {6, 16, 129, false}, {4, 15, 257, false}, {50, 530, 100, true}, {50, 530, 140, true}, {3, 1040, 2, false},
}, largeAsmShapes...)

// TestAVX2LargeDirectMatchesPacked checks that avx2LargeMatrixSliceFloat32 gives the same bits with the direct lhs
// panels (avx2LargePanelDirectFloat32) as with every lhs panel packed and every tile applied from the packed
// output, on every shape of largeDirectShapes, for the whole matrix and a worker's slice of rows and columns,
// with and without infinities and NaNs, and writes the same outputs (the rest keeps its sentinel). Where NaNs meet,
// both give a NaN, payload aside.
func TestAVX2LargeDirectMatchesPacked(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("AVX2 and FMA are not supported on this CPU")
	}
	defer func() { avx2LargeDirectEnabled, avx2LargeDirect6RowsEnabled = true, true }()
	for _, rows6 := range []bool{true, false} {
		avx2LargeDirect6RowsEnabled = rows6
		t.Run(fmt.Sprintf("rows6=%v", rows6), testAVX2LargeDirectMatchesPacked)
	}
}

func testAVX2LargeDirectMatchesPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	p := AVX2ParamsFloat32
	for _, special := range []bool{false, true} {
		for _, s := range largeDirectShapes {
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
				var outs [2][]float32
				for i, direct := range []bool{false, true} {
					avx2LargeDirectEnabled = direct
					out := make([]float32, s.m*s.n)
					for j := range out {
						out[j] = 12345.678
					}
					pl, pr, po := make([]float32, p.LHSPanelCrossSize*p.PanelContractingSize),
						make([]float32, p.PanelContractingSize*p.RHSPanelCrossSize), make([]float32, p.LHSPanelCrossSize*p.RHSPanelCrossSize)
					avx2LargeMatrixSliceFloat32(layout, lhs, rhs, out, s.m, s.n, s.k, r[0], r[1], r[2], r[3], p, pl, pr, po)
					outs[i] = out
				}
				want, got := outs[0], outs[1]
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) && !(isNaN32(want[i]) && isNaN32(got[i])) {
						t.Fatalf("m%d_n%d_k%d_transposed=%v_rows%d-%d_cols%d-%d_special=%v: output %d (row %d, col %d): direct %g (%#08x), packed %g (%#08x)",
							s.m, s.n, s.k, s.transposed, r[0], r[1], r[2], r[3], special, i, i/s.n, i%s.n,
							got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// BenchmarkAVX2LargeDirect times one matrix of the step's large products with packed lhs panels ("packed"), direct
// ones 4 rows at a time ("direct4") and direct ones 6 rows at a time first ("direct"), alternated shape by shape;
// one core.
func BenchmarkAVX2LargeDirect(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("AVX2 and FMA are not supported on this CPU")
	}
	defer func() { avx2LargeDirectEnabled, avx2LargeDirect6RowsEnabled = true, true }()
	rng := rand.New(rand.NewPCG(1, 2))
	p := AVX2ParamsFloat32
	// The step's shapes at canvas 30 (LatFormer's dense layers, [14400, d] x [d, 128] and back) last.
	shapes := append(largeAsmShapes[:11:11], struct {
		m, n, k    int
		transposed bool
	}{14400, 128, 32, false}, struct {
		m, n, k    int
		transposed bool
	}{14400, 32, 128, false}, struct {
		m, n, k    int
		transposed bool
	}{14400, 128, 32, true})
	for _, s := range shapes {
		layout := dot.LayoutNonTransposed
		if s.transposed {
			layout = dot.LayoutTransposed
		}
		lhs, rhs, out := make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		pl, pr, po := make([]float32, p.LHSPanelCrossSize*p.PanelContractingSize),
			make([]float32, p.PanelContractingSize*p.RHSPanelCrossSize), make([]float32, p.LHSPanelCrossSize*p.RHSPanelCrossSize)
		for _, mode := range []string{"packed", "direct4", "direct"} {
			b.Run(fmt.Sprintf("m%d_n%d_k%d_t%v/%s", s.m, s.n, s.k, s.transposed, mode), func(b *testing.B) {
				avx2LargeDirectEnabled, avx2LargeDirect6RowsEnabled = mode != "packed", mode == "direct"
				for b.Loop() {
					avx2LargeMatrixSliceFloat32(layout, lhs, rhs, out, s.m, s.n, s.k, 0, s.m, 0, s.n, p, pl, pr, po)
				}
			})
		}
	}
}
