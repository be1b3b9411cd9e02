// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package fusedops

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddBiasRowsMatchesModulo: the row-wise bias add (scalar and, where the CPU has it, vectorized) gives the
// published per-value loop's values bit for bit, for row widths 1 to 40 and the LatFormer step's (11, 32, 96,
// 128), with infinities and NaNs among the values.
func TestAddBiasRowsMatchesModulo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0, float32(math.Copysign(0, -1))}
	value := func() float32 {
		if rng.IntN(20) == 0 {
			return special[rng.IntN(len(special))]
		}
		return float32(rng.NormFloat64() * 100)
	}
	widths := []int{11, 32, 96, 128}
	for w := 1; w <= 40; w++ {
		widths = append(widths, w)
	}
	kernels := map[string]func(output, bias []float32){"scalar": addBiasRowsFloat32Scalar, "selected": addBiasRowsFloat32}
	for _, w := range widths {
		rows := 1 + rng.IntN(17)
		out := make([]float32, rows*w)
		bias := make([]float32, w)
		for i := range out {
			out[i] = value()
		}
		for i := range bias {
			bias[i] = value()
		}
		want := make([]float32, len(out))
		for i, v := range out {
			want[i] = v + bias[i%w] // The published loop.
		}
		for name, kernel := range kernels {
			got := append([]float32(nil), out...)
			kernel(got, bias)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(math.IsNaN(float64(got[i])) && math.IsNaN(float64(want[i]))) {
					t.Fatalf("%s, width %d, %d rows: value %d = %v (bits %08x), want %v (bits %08x)", name, w, rows, i,
						got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
				}
			}
		}
	}
}

// BenchmarkAddBias: the bias add of the LatFormer step's FFN, [16*900, 128] + [128], as published (i%n) and
// by rows.
func BenchmarkAddBias(b *testing.B) {
	const rows, w = 16 * 900, 128
	out := make([]float32, rows*w)
	bias := make([]float32, w)
	for i := range bias {
		bias[i] = float32(i)
	}
	b.Run("modulo", func(b *testing.B) {
		for b.Loop() {
			for i, v := range out {
				out[i] = v + bias[i%w]
			}
		}
	})
	b.Run("rows-scalar", func(b *testing.B) {
		for b.Loop() {
			addBiasRowsFloat32Scalar(out, bias)
		}
	})
	b.Run("rows-selected", func(b *testing.B) {
		for b.Loop() {
			addBiasRowsFloat32(out, bias)
		}
	})
}
