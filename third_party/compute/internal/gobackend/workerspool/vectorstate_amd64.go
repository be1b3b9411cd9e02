// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package workerspool

import "simd/archsimd"

func init() {
	if archsimd.X86.AVX() {
		ClearVectorState = archsimd.ClearAVXUpperBits
	}
}
