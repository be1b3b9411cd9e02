// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package fusedops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func layerNormTestValues[T float32 | float64](rng *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = T(rng.NormFloat64() * math.Exp(rng.Float64()*12-6))
	}
	return x
}

func sameBits[T float32 | float64](a, b T) bool {
	switch any(a).(type) {
	case float32:
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b)) || (a != a && b != b)
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b)) || (a != a && b != b)
}

func checkLayerNormRows4[T float32 | float64](t *testing.T, rng *rand.Rand) {
	for _, normSize := range []int{1, 3, 8, 11, 32, 33} {
		for _, rows := range []int{1, 3, 4, 5, 8, 13, 16, 21} {
			for _, affine := range []bool{false, true} {
				in := layerNormTestValues[T](rng, rows*normSize)
				var gamma, beta []T
				if affine {
					gamma, beta = layerNormTestValues[T](rng, normSize), layerNormTestValues[T](rng, normSize)
				}
				want, got := make([]T, len(in)), make([]T, len(in))
				layerNormTrailingAxes(in, want, gamma, beta, normSize, 1e-5)
				layerNormTrailingAxesRows4(in, got, gamma, beta, normSize, 1e-5)
				for i := range want {
					if !sameBits(want[i], got[i]) {
						t.Fatalf("%T rows=%d normSize=%d affine=%v: value %d: rows4 %v, one row at a time %v", want[i], rows, normSize, affine, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestLayerNormRows4MatchesRows: the layer normalization over trailing axes 4 rows at a time (and, for float32, 8 at
// a time in vector lanes, switched on and off) gives the bits of the one-row loop, float32 and float64, row lengths
// 1 to 33 (whole and partial 8-column tiles), 1 to 21 rows (remainders of the 8- and 4-row blocks), with and without
// gamma and beta, values over e^±6.
func TestLayerNormRows4MatchesRows(t *testing.T) {
	defer func() { layerNormRows8Enabled = true }()
	for _, rows8 := range []bool{true, false} {
		// float32 rows 8 at a time in vector lanes (where the CPU has them) and not.
		layerNormRows8Enabled = rows8
		rng := rand.New(rand.NewPCG(2, 9))
		checkLayerNormRows4[float32](t, rng)
		checkLayerNormRows4[float64](t, rng)
	}
}

// TestLayerNormParallelMatchesRows: the executor's layer normalization of LatFormer's [16, 900, 32] (split across
// the backend's workers) gives the bits of the one-row loop on one goroutine.
func TestLayerNormParallelMatchesRows(t *testing.T) {
	be, err := gobackend.New("parallelism=-1") // an unlimited pool: the only kind the work is split on
	if err != nil {
		t.Fatal(err)
	}
	defer be.Finalize()
	b := be.(*gobackend.Backend)
	rng := rand.New(rand.NewPCG(5, 5))
	shape := shapes.Make(dtypes.Float32, 16, 900, 32)
	in := layerNormTestValues[float32](rng, shape.Size())
	gamma, beta := layerNormTestValues[float32](rng, 32), layerNormTestValues[float32](rng, 32)
	buf := func(flat []float32, s shapes.Shape) *gobackend.Buffer {
		x, err := b.BufferFromFlatData(0, flat, s)
		if err != nil {
			t.Fatal(err)
		}
		return x.(*gobackend.Buffer)
	}
	out, err := b.GetBuffer(shape)
	if err != nil {
		t.Fatal(err)
	}
	layerNorm[float32](b, buf(in, shape), out, buf(gamma, shapes.Make(dtypes.Float32, 1, 1, 32)), buf(beta, shapes.Make(dtypes.Float32, 1, 1, 32)), []int{2}, 1e-5)
	want := make([]float32, len(in))
	layerNormTrailingAxes(in, want, gamma, beta, 32, 1e-5)
	got := out.Flat.([]float32)
	for i := range want {
		if !sameBits(want[i], got[i]) {
			t.Fatalf("value %d (row %d): executor %v, one row at a time %v", i, i/32, got[i], want[i])
		}
	}
}

// BenchmarkLayerNormRows times LatFormer's layer normalization ([16, 900, 32], gamma and beta) one row at a time
// (rows1), 4 rows at a time (rows4) and, float32 8 rows at a time in vector lanes (rows8), on one core.
func BenchmarkLayerNormRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	in := layerNormTestValues[float32](rng, 16*900*32)
	gamma, beta := layerNormTestValues[float32](rng, 32), layerNormTestValues[float32](rng, 32)
	out := make([]float32, len(in))
	defer func() { layerNormRows8Enabled = true }()
	for _, mode := range []string{"rows1", "rows4", "rows8"} {
		b.Run(mode, func(b *testing.B) {
			layerNormRows8Enabled = mode == "rows8"
			for b.Loop() {
				if mode == "rows1" {
					layerNormTrailingAxes(in, out, gamma, beta, 32, 1e-5)
				} else {
					layerNormTrailingAxesRows4(in, out, gamma, beta, 32, 1e-5)
				}
			}
		})
	}
}
