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

// blockedTestValues fills x with values whose exponents spread over e^±9 (so that the order of the sums
// shows in the last bits), signed zeros, and, when special is set, a few infinities and NaNs of distinct
// payloads.
func blockedTestValues(rng *rand.Rand, x []float32, special bool) {
	for i := range x {
		x[i] = float32(rng.NormFloat64() * math.Exp(rng.Float64()*18-9))
		switch u := rng.IntN(200); {
		case u == 0:
			x[i] = float32(math.Copysign(0, -1))
		case u == 1:
			x[i] = 0
		case special && u == 2:
			x[i] = float32(math.Inf(1 - 2*rng.IntN(2)))
		case special && u == 3:
			x[i] = math.Float32frombits(0x7fc00000 | uint32(rng.IntN(1<<22)))
		}
	}
}

// blockedShapes are (batch, m, n, k) with every path of both kernels: row blocks of 4 and 8 with and without
// remainders, 16- and 8-column vector blocks with and without scalar columns, scalar columns only (n < 8, as
// the mask factors' products [30, 30] x [30, 2]), fewer than 4 rows with 3 and more column vectors (the mask
// factors' [2, 30] x [30, 30]), contractions shorter and longer than a vector and with tails.
var blockedShapes = [][4]int{
	{1, 1, 1, 1}, {1, 1, 1, 7}, {1, 3, 5, 9}, {2, 4, 8, 8}, {3, 5, 16, 3}, {2, 7, 17, 8}, {2, 8, 24, 31},
	{4, 30, 2, 30}, {3, 30, 30, 30}, {2, 9, 33, 32}, {2, 13, 40, 1}, {1, 100, 100, 32}, {2, 17, 47, 64},
	{1, 64, 9, 100}, {5, 1, 23, 16}, {2, 12, 7, 70}, {1, 33, 65, 129}, {16, 10, 10, 10}, {3, 10, 5, 10},
	{3, 2, 30, 30}, {2, 3, 50, 9}, {2, 7, 3, 5}, {3, 2, 10, 10},
	{2, 7, 19, 57}, {1, 160, 10, 10}, {2, 5, 9, 17},
	// Narrower than 8 columns with 8 rows or more (8-row blocks with the rows in the lanes): LatFormer's mask gradients at canvas 20
	// ([20, 20] x [20, 2] per query cell), k a multiple of 8, below 8 and above 64.
	{3, 20, 2, 20}, {2, 16, 1, 8}, {2, 9, 7, 3}, {1, 24, 6, 65},
	// Fewer than 4 rows and 8 column vectors or more (a bias gradient, 1ᵀ dy): 64-column blocks, then 24, 8
	// and scalar columns.
	{2, 1, 130, 37}, {2, 3, 96, 19}, {1, 1, 200, 300}, {3, 2, 64, 5},
	// Transposed, k above the lanes path's: columns left after the 4-column blocks for row counts with 4-row
	// blocks, pairs and an odd row left (LatFormer's factor gradients: [30, 960] x [30, 960]ᵀ), tails of k.
	{2, 30, 30, 960}, {3, 9, 6, 72}, {2, 14, 7, 81}, {1, 6, 3, 65},
}

// TestAVX2SmallBlockedMatchesSmall checks that the register-blocked kernels give the bits of the kernels they
// replace, on every shape of blockedShapes, with and without infinities and NaNs, for whole and partial
// batch ranges, and that they write every output (the output starts filled with a sentinel). One exception,
// stated: where several NaNs meet in one output, both give a NaN but its payload may differ (x86 keeps one
// operand's payload, and which operand the compiler puts first in a fused multiply-add is its choice).
func TestAVX2SmallBlockedMatchesSmall(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("AVX2 is not supported on this architecture")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, special := range []bool{false, true} {
		for _, s := range blockedShapes {
			batch, m, n, k := s[0], s[1], s[2], s[3]
			for _, transposed := range []bool{false, true} {
				name := fmt.Sprintf("b%d_m%d_n%d_k%d_transposed=%v_special=%v", batch, m, n, k, transposed, special)
				lhs, rhs := make([]float32, batch*m*k), make([]float32, batch*k*n)
				blockedTestValues(rng, lhs, special)
				blockedTestValues(rng, rhs, special)
				want, got := make([]float32, batch*m*n), make([]float32, batch*m*n)
				for i := range got {
					got[i] = 12345.678
				}
				start, count := 0, batch
				if batch > 2 {
					start, count = 1, batch-1 // a worker's range
					for i := range m * n {
						want[i], got[i] = 0, 0
					}
				}
				if transposed {
					avx2SmallFloat32Transposed(lhs, rhs, start, count, m, n, k, want)
					avx2SmallBlockedFloat32Transposed(lhs, rhs, start, count, m, n, k, got)
				} else {
					avx2SmallFloat32(lhs, rhs, start, count, m, n, k, want)
					avx2SmallBlockedFloat32(lhs, rhs, start, count, m, n, k, got)
				}
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) && !(isNaN32(want[i]) && isNaN32(got[i])) {
						t.Fatalf("%s: output %d: blocked %g (%#08x), original %g (%#08x)", name, i,
							got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// BenchmarkAVX2SmallBlocked times the original and the blocked kernels on the step's shapes: the attention's
// scores Q Kᵀ at canvas 10 (transposed, [100, 32] x [100, 32]), its values product at canvas 10
// ([100, 100] x [100, 32]) and the mask factors' [30, 30] x [30, 2] products at canvas 30; one core.
func BenchmarkAVX2SmallBlocked(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("AVX2 is not supported on this architecture")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name                string
		batch, m, n, k      int
		transposed, blocked bool
	}{
		{"scores_canvas10", 16, 100, 100, 32, true, false},
		{"values_canvas10", 16, 100, 32, 100, false, false},
		{"maskfactors_canvas30", 900, 30, 2, 30, false, false},
	} {
		lhs, rhs, out := make([]float32, c.batch*c.m*c.k), make([]float32, c.batch*c.k*c.n), make([]float32, c.batch*c.m*c.n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, blocked := range []bool{false, true} {
			name := c.name + "/original"
			if blocked {
				name = c.name + "/blocked"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					switch {
					case c.transposed && blocked:
						avx2SmallBlockedFloat32Transposed(lhs, rhs, 0, c.batch, c.m, c.n, c.k, out)
					case c.transposed:
						avx2SmallFloat32Transposed(lhs, rhs, 0, c.batch, c.m, c.n, c.k, out)
					case blocked:
						avx2SmallBlockedFloat32(lhs, rhs, 0, c.batch, c.m, c.n, c.k, out)
					default:
						avx2SmallFloat32(lhs, rhs, 0, c.batch, c.m, c.n, c.k, out)
					}
				}
			})
		}
	}
}

func isNaN32(x float32) bool { return x != x }
