// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package fusedops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) && archsimd.X86.AVX2() {
		addBiasRowsFloat32 = addBiasRowsFloat32AVX2
	}
}

// addBiasRowsFloat32AVX2 adds bias to each row of output, 8 values at a time, then, with the vector
// registers' upper halves cleared, the last len(bias) % 8 values of each row one at a time: the same additions
// as addBiasRowsFloat32Scalar.
func addBiasRowsFloat32AVX2(output, bias []float32) {
	n := len(bias)
	vec := n &^ 7
	if vec > 0 {
		for start := 0; start+n <= len(output); start += n {
			row := output[start : start+n]
			for j := 0; j < vec; j += 8 {
				archsimd.LoadFloat32x8Slice(row[j:]).Add(archsimd.LoadFloat32x8Slice(bias[j:])).StoreSlice(row[j:])
			}
		}
		archsimd.ClearAVXUpperBits()
	}
	if vec == n {
		return
	}
	tail := bias[vec:]
	for start := 0; start+n <= len(output); start += n {
		row := output[start+vec : start+n]
		for j, b := range tail {
			row[j] += b
		}
	}
}
