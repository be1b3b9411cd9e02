// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

func newNarrowTestBackend(t testing.TB) *gobackend.Backend {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	return b.(*gobackend.Backend)
}

// TestAVX512NarrowMatchesLarge: for every shape the narrow path takes, its output is the large kernel's
// bit for bit (values with wide exponents, so that any other summation order or rounding shows).
func TestAVX512NarrowMatchesLarge(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("CPU without AVX-512")
	}
	backend := newNarrowTestBackend(t)
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(rng.NormFloat64() * math.Exp(3*rng.NormFloat64()))
		}
		return s
	}
	for _, c := range []struct{ batch, m, n, k int }{
		{1, 1, 1, 1}, {3, 30, 2, 30}, {7200 / 50, 30, 2, 30}, {5, 7, 16, 128}, {2, 33, 5, 17}, {4, 4, 3, 64}, {2, 65, 1, 100},
		{9, 2, 15, 31}, {1, 200, 8, 128},
	} {
		if !avx512UseNarrowFloat32(c.n, c.k) {
			t.Fatalf("shape %+v: not taken by the narrow path", c)
		}
		lhs, rhs := random(c.batch*c.m*c.k), random(c.batch*c.k*c.n)
		want, got := make([]float32, c.batch*c.m*c.n), make([]float32, c.batch*c.m*c.n)
		for i := range got {
			got[i] = float32(math.NaN()) // every output must be written
		}
		avx512LargeFloat32(backend, dot.LayoutNonTransposed, lhs, rhs, c.batch, c.m, c.n, c.k, want)
		avx512NarrowFloat32(backend, lhs, rhs, c.batch, c.m, c.n, c.k, got)
		for i := range want {
			if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
				t.Fatalf("shape %+v: output %d: narrow %g (%#x), large kernel %g (%#x)", c, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
	for _, c := range []struct{ n, k int }{{17, 30}, {2, 129}, {32, 8}} {
		if avx512UseNarrowFloat32(c.n, c.k) {
			t.Errorf("n=%d, k=%d: taken by the narrow path, whose values would differ from the large kernel's", c.n, c.k)
		}
	}
}

// BenchmarkAVX512Narrow: the mask-factor product of LatFormer's attention at canvas 30 (7200 products of
// [30, 30] by [30, 2]), through the large kernel and the narrow path.
func BenchmarkAVX512Narrow(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("CPU without AVX-512")
	}
	backend := newNarrowTestBackend(b)
	const batch, m, n, k = 7200, 30, 2, 30
	lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*k*n), make([]float32, batch*m*n)
	for i := range lhs {
		lhs[i] = float32(i%7) * 0.1
	}
	for i := range rhs {
		rhs[i] = float32(i%5) * 0.2
	}
	b.Run("large", func(b *testing.B) {
		for b.Loop() {
			avx512LargeFloat32(backend, dot.LayoutNonTransposed, lhs, rhs, batch, m, n, k, out)
		}
	})
	b.Run("narrow", func(b *testing.B) {
		for b.Loop() {
			avx512NarrowFloat32(backend, lhs, rhs, batch, m, n, k, out)
		}
	})
}
