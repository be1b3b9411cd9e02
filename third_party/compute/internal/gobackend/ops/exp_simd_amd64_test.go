// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"simd/archsimd"
	"sync"
	"testing"
)

// expMismatches compares expFloat32AVX2 with float32(math.Exp(float64(x))) bit for bit on the float32 bit patterns
// lo, lo+stride, ... below hi (NaNs: both NaN with the same bits), and returns the first mismatches and how many
// values were checked.
func expMismatches(lo, hi, stride uint64) (bad []uint32, checked uint64) {
	const chunk = 4099 // odd, so that partial vectors are exercised
	in, got := make([]float32, 0, chunk), make([]float32, chunk)
	flush := func() {
		expFloat32AVX2(in, got[:len(in)])
		for i, x := range in {
			want := float32(math.Exp(float64(x)))
			if math.Float32bits(want) != math.Float32bits(got[i]) && len(bad) < 10 {
				bad = append(bad, math.Float32bits(x))
			}
		}
		checked += uint64(len(in))
		in = in[:0]
	}
	for b := lo; b < hi; b += stride {
		in = append(in, math.Float32frombits(uint32(b)))
		if len(in) == chunk {
			flush()
		}
	}
	flush()
	return bad, checked
}

// TestExpFloat32AVX2MatchesMath checks the vectorized Exp against the generic executor's float32(math.Exp(float64(x)))
// bit for bit: special values, the values around the branch points (±100, -200, the float32 overflow and underflow
// thresholds, 0), random values, and every float32 bit pattern at a stride of 251 (17 million values, both signs,
// NaNs and infinities). With $GOMLX_EXP_EXHAUSTIVE=1 it checks all 2^32 bit patterns (about a minute per core).
// math.Exp's FMA path is the one replicated: the CPU must have AVX2, which every x86 CPU with it pairs with FMA.
func TestExpFloat32AVX2MatchesMath(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("AVX2 is not supported on this CPU")
	}
	var special []float32
	for _, c := range []float32{0, 1, -1, 100, -200, 88.72283, 88.72284, -87.33655, -103.97208, -103.97209, -104, 89, 0.5, 1e-10, 709} {
		special = append(special, c, -c)
		for _, d := range []float32{1, -1} {
			x := c
			for range 4 {
				x = math.Nextafter32(x, d*float32(math.Inf(1)))
				special = append(special, x, -x)
			}
		}
	}
	special = append(special, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7f800001),
		math.Float32frombits(0xffc00123), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32)
	rng := rand.New(rand.NewPCG(3, 5))
	for range 100000 {
		special = append(special, float32(rng.NormFloat64()*20), float32(rng.Float64()*300-200))
	}
	got := make([]float32, len(special))
	expFloat32AVX2(special, got)
	for i, x := range special {
		want := float32(math.Exp(float64(x)))
		if math.Float32bits(want) != math.Float32bits(got[i]) {
			t.Fatalf("Exp(%g) (bits %#x): got %g (%#x), want %g (%#x)", x, math.Float32bits(x), got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
		}
	}
	stride := uint64(251)
	if os.Getenv("GOMLX_EXP_EXHAUSTIVE") == "1" {
		stride = 1
	}
	// The sweep split across the cores.
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var bad []uint32
	var checked uint64
	var wg sync.WaitGroup
	const total = uint64(1) << 32
	span := (total/uint64(workers)/stride + 1) * stride
	for w := range workers {
		lo := uint64(w) * span
		hi := min(lo+span, total)
		wg.Go(func() {
			b, c := expMismatches(lo, hi, stride)
			mu.Lock()
			bad, checked = append(bad, b...), checked+c
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, b := range bad {
		x := math.Float32frombits(b)
		one := []float32{0}
		expFloat32AVX2([]float32{x}, one)
		t.Errorf("Exp(%g) (bits %#x): got %#x, want %#x", x, b, math.Float32bits(one[0]), math.Float32bits(float32(math.Exp(float64(x)))))
	}
	t.Logf("%d float32 bit patterns checked (stride %d)", checked, stride)
}

// BenchmarkExpFloat32 times Exp on LatFormer's loss tensor at canvas 30 ([16, 900, 11] values in [-20, 5]), the
// generic loop and the vectorized one. One core.
func BenchmarkExpFloat32(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	in, out := make([]float32, 16*900*11), make([]float32, 16*900*11)
	for i := range in {
		in[i] = float32(rng.Float64()*25 - 20)
	}
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			execExpGeneric(in, out)
		}
	})
	if !archsimd.X86.AVX2() {
		return
	}
	b.Run("avx2", func(b *testing.B) {
		for b.Loop() {
			expFloat32AVX2(in, out)
		}
	})
}
