// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

// TestAVX2LargeSplitSameValues: single matrices split across the workers (feedWorkItems' micro-kernel-sized
// slices) give the bits of the same product on one worker, for LatFormer's weight gradients and odd sizes, both
// layouts.
func TestAVX2LargeSplitSameValues(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("AVX2 and FMA are not supported on this CPU")
	}
	serial, err := gobackend.New("parallelism=1")
	if err != nil {
		t.Fatal(err)
	}
	defer serial.Finalize()
	parallel, err := gobackend.New("parallelism=4")
	if err != nil {
		t.Fatal(err)
	}
	defer parallel.Finalize()
	if parallel.(*gobackend.Backend).Workers.AdjustedMaxParallelism() < 2 {
		t.Skip("one worker: nothing is split")
	}
	rng := rand.New(rand.NewPCG(3, 1))
	for _, s := range []struct{ m, n, k int }{{32, 128, 6400}, {32, 32, 6400}, {33, 33, 700}, {11, 32, 6400}, {37, 200, 300}, {200, 37, 300}} {
		for _, layout := range []dot.Layout{dot.LayoutNonTransposed, dot.LayoutTransposed} {
			lhs, rhs := make([]float32, s.m*s.k), make([]float32, s.k*s.n)
			blockedTestValues(rng, lhs, false)
			blockedTestValues(rng, rhs, false)
			want, got := make([]float32, s.m*s.n), make([]float32, s.m*s.n)
			avx2LargeFloat32(serial.(*gobackend.Backend), layout, lhs, rhs, 1, s.m, s.n, s.k, want)
			avx2LargeFloat32(parallel.(*gobackend.Backend), layout, lhs, rhs, 1, s.m, s.n, s.k, got)
			name := fmt.Sprintf("m%d_n%d_k%d_%s", s.m, s.n, s.k, layout)
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
					t.Fatalf("%s: output %d: split %g, one worker %g", name, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkAVX2LargeSplit times LatFormer's weight gradients at canvas 20 and 30 ([32, 6400] x [6400, 128],
// [32, 14400] x [14400, 128], [32, 6400] x [6400, 32]) on the backend's workers, with the split at the panels
// only ("panels": one work item, one worker) and at the micro-kernel's columns ("kernel").
func BenchmarkAVX2LargeSplit(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("AVX2 and FMA are not supported on this CPU")
	}
	be, err := gobackend.New("")
	if err != nil {
		b.Fatal(err)
	}
	defer be.Finalize()
	defer func() { splitNarrowEnabled = true }()
	rng := rand.New(rand.NewPCG(3, 1))
	for _, s := range []struct{ m, n, k int }{{32, 128, 6400}, {32, 128, 14400}, {32, 32, 6400}} {
		lhs, rhs, out := make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
		blockedTestValues(rng, lhs, false)
		blockedTestValues(rng, rhs, false)
		for _, split := range []bool{false, true} {
			name := "panels"
			if split {
				name = "kernel"
			}
			b.Run(fmt.Sprintf("m%d_n%d_k%d/%s", s.m, s.n, s.k, name), func(b *testing.B) {
				splitNarrowEnabled = split
				for b.Loop() {
					avx2LargeFloat32(be.(*gobackend.Backend), dot.LayoutNonTransposed, lhs, rhs, 1, s.m, s.n, s.k, out)
				}
			})
		}
	}
}
