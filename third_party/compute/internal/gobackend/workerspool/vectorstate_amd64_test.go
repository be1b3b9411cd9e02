// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package workerspool

import (
	"simd/archsimd"
	"testing"
)

var vectorStateSink float32

// dirtyUpperHalves leaves the upper halves of the vector registers dirty, as the backend's AVX kernels do.
//
//go:noinline
func dirtyUpperHalves(x []float32) {
	archsimd.LoadFloat32x8Slice(x[:8]).Add(archsimd.LoadFloat32x8Slice(x[8:16])).StoreSlice(x[:8])
}

// scalarSum is scalar float code, as the generic executors run it.
//
//go:noinline
func scalarSum(x []float32) float32 {
	var s float32
	for _, v := range x {
		s += v * 0.5
	}
	return s
}

// BenchmarkClearVectorState times scalar float code after an AVX kernel, with the upper halves left dirty and
// cleared by ClearVectorState: on CPUs that penalize legacy SSE instructions while they are dirty, "dirty" is
// the slower one.
func BenchmarkClearVectorState(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("no AVX2")
	}
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i % 7)
	}
	for _, clear := range []bool{false, true} {
		name := "dirty"
		if clear {
			name = "cleared"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				dirtyUpperHalves(x)
				if clear {
					ClearVectorState()
				}
				vectorStateSink += scalarSum(x)
			}
		})
	}
}
