// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package fusedops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
)

// TestAddBiasRowsMatchesModulo: fusedDenseAddBias (rows through ops.AddFloat32InPlace for float32, a plain loop
// for float64) gives the published per-value loop's values bit for bit, for row widths 1 to 40 and the
// LatFormer step's (11, 32, 96, 128), with infinities, NaNs and signed zeros among the values.
func TestAddBiasRowsMatchesModulo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1)}
	value := func() float64 {
		if rng.IntN(20) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * 100
	}
	widths := []int{11, 32, 96, 128}
	for w := 1; w <= 40; w++ {
		widths = append(widths, w)
	}
	for _, w := range widths {
		rows := 1 + rng.IntN(17)
		out32, bias32 := make([]float32, rows*w), make([]float32, w)
		out64, bias64 := make([]float64, rows*w), make([]float64, w)
		for i := range out32 {
			out64[i] = value()
			out32[i] = float32(out64[i])
		}
		for i := range bias32 {
			bias64[i] = value()
			bias32[i] = float32(bias64[i])
		}
		want32, want64 := make([]float32, len(out32)), make([]float64, len(out64))
		for i := range out32 {
			want32[i] = out32[i] + bias32[i%w] // The published loop.
			want64[i] = out64[i] + bias64[i%w]
		}
		fusedDenseAddBias[float32](&gobackend.Buffer{Flat: out32}, &gobackend.Buffer{Flat: bias32})
		fusedDenseAddBias[float64](&gobackend.Buffer{Flat: out64}, &gobackend.Buffer{Flat: bias64})
		for i := range out32 {
			if math.Float32bits(out32[i]) != math.Float32bits(want32[i]) && !(out32[i] != out32[i] && want32[i] != want32[i]) {
				t.Fatalf("float32, width %d, %d rows: value %d = %v (bits %08x), want %v (bits %08x)", w, rows, i,
					out32[i], math.Float32bits(out32[i]), want32[i], math.Float32bits(want32[i]))
			}
			if math.Float64bits(out64[i]) != math.Float64bits(want64[i]) && !(out64[i] != out64[i] && want64[i] != want64[i]) {
				t.Fatalf("float64, width %d, %d rows: value %d = %v, want %v", w, rows, i, out64[i], want64[i])
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
	b.Run("rows", func(b *testing.B) {
		outBuf, biasBuf := &gobackend.Buffer{Flat: out}, &gobackend.Buffer{Flat: bias}
		for b.Loop() {
			fusedDenseAddBias[float32](outBuf, biasBuf)
		}
	})
}
