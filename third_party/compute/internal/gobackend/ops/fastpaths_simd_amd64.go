// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

// AVX2 row kernels for fastpaths.go: 8 float32 at a time, the row's last partial vector with masked loads and
// stores (no scalar float code between the vector instructions). Add, Sub, Mul and Div round as the scalar
// operations do, so the values are the same. AVX-512 CPUs run these too ($GOMLX_SIMD_AVX2=false: the scalar
// loops).
func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	f32Kernels[f32Add] = f32RowKernels{
		vv: func(dst, a, b []float32) {
			n := len(a)
			b, dst = b[:n], dst[:n]
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Add(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Add(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
		vs: func(dst, a []float32, c float32) {
			n := len(a)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Add(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Add(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				cv.Add(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				cv.Add(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
	}
	f32Kernels[f32Sub] = f32RowKernels{
		vv: func(dst, a, b []float32) {
			n := len(a)
			b, dst = b[:n], dst[:n]
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Sub(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Sub(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
		vs: func(dst, a []float32, c float32) {
			n := len(a)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Sub(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Sub(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				cv.Sub(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				cv.Sub(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
	}
	f32Kernels[f32Mul] = f32RowKernels{
		vv: func(dst, a, b []float32) {
			n := len(a)
			b, dst = b[:n], dst[:n]
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Mul(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Mul(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
		vs: func(dst, a []float32, c float32) {
			n := len(a)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Mul(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Mul(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				cv.Mul(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				cv.Mul(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
	}
	f32Kernels[f32Div] = f32RowKernels{
		vv: func(dst, a, b []float32) {
			n := len(a)
			b, dst = b[:n], dst[:n]
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Div(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Div(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
		vs: func(dst, a []float32, c float32) {
			n := len(a)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Div(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Div(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := archsimd.BroadcastFloat32x8(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				cv.Div(archsimd.LoadFloat32x8Slice(b[i : i+8])).StoreSlice(dst[i : i+8])
			}
			if i < n {
				cv.Div(archsimd.LoadFloat32x8SlicePart(b[i:])).StoreSlicePart(dst[i:])
			}
		},
	}
}
