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
// broadcastFromMemory returns c[0] in all 8 lanes: a masked one-value load (VMASKMOVD) and VBROADCASTSS,
// never a scalar float register (archsimd.BroadcastFloat32x8 of a float32 compiles to a legacy-SSE XORPS and
// an insert, and the float32 argument itself arrives through MOVSS).
func broadcastFromMemory(c []float32) archsimd.Float32x8 {
	return archsimd.LoadFloat32x4SlicePart(c[:1]).Broadcast1To8()
}

// Constant vectors loaded from memory (a zero from archsimd.BroadcastFloat32x8(0) compiles to a legacy-SSE XORPS).
var (
	f32x8Zero     = [8]float32{}
	f32x8One      = [8]float32{1, 1, 1, 1, 1, 1, 1, 1}
	f32x8MinusOne = [8]float32{-1, -1, -1, -1, -1, -1, -1, -1}
)

var u32x8SignBit = [8]uint32{1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31}

// f32NegAVX2 is execNegFloat32Bits 8 values at a time: the sign bits flipped by a vector XOR (the last partial
// vector masked), the same bits.
func f32NegAVX2(x, dst []float32) {
	n := len(x)
	dst = dst[:n]
	sign := archsimd.LoadUint32x8(&u32x8SignBit)
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadFloat32x8Slice(x[i : i+8]).AsUint32x8().Xor(sign).AsFloat32x8().StoreSlice(dst[i : i+8])
	}
	if i < n {
		archsimd.LoadFloat32x8SlicePart(x[i:]).AsUint32x8().Xor(sign).AsFloat32x8().StoreSlicePart(dst[i:])
	}
}

// f32SignAVX2 is f32SignScalar 8 values at a time: 1 where x > 0, then -1 where x < 0, +0 elsewhere.
func f32SignAVX2(dst, x []float32) {
	n := len(x)
	dst = dst[:n]
	zero, one, minusOne := archsimd.LoadFloat32x8(&f32x8Zero), archsimd.LoadFloat32x8(&f32x8One), archsimd.LoadFloat32x8(&f32x8MinusOne)
	i := 0
	for ; i+8 <= n; i += 8 {
		v := archsimd.LoadFloat32x8Slice(x[i : i+8])
		minusOne.Merge(one.Merge(zero, v.Greater(zero)), v.Less(zero)).StoreSlice(dst[i : i+8])
	}
	if i < n {
		v := archsimd.LoadFloat32x8SlicePart(x[i:])
		minusOne.Merge(one.Merge(zero, v.Greater(zero)), v.Less(zero)).StoreSlicePart(dst[i:])
	}
}

// f32x8SignBit holds the float32 sign bit in every lane.
var f32x8SignBit = [8]uint32{1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31, 1 << 31}

// maxGo8 is Go's max(a, b) for float32 lane by lane, the sequence the compiler emits for it on amd64: with
// a' = -a and b' = -b (sign bits flipped), t1 = MINSS(a', b') = a' < b' ? a' : b', t2 = MINSS(t1, a') =
// t1 < a' ? t1 : a', max = -(t1 | t2). So NaN payloads (and their signs) and signed zeros are those of the scalar
// code. The minimums are compares and blends: archsimd's Min (VMINPS) may have its operands swapped by the
// compiler, and which operand it returns on a NaN or on equal zeros depends on their order.
func maxGo8(a, b, sign archsimd.Uint32x8) archsimd.Float32x8 {
	na, nb := a.Xor(sign).AsFloat32x8(), b.Xor(sign).AsFloat32x8()
	t1 := na.Merge(nb, na.Less(nb))
	t2 := t1.Merge(na, t1.Less(na))
	return t1.AsUint32x8().Or(t2.AsUint32x8()).Xor(sign).AsFloat32x8()
}

func f32MaxVSAVX2(dst, a, c []float32) {
	n := len(a)
	dst = dst[:n]
	sign := archsimd.LoadUint32x8(&f32x8SignBit)
	cv := broadcastFromMemory(c).AsUint32x8()
	i := 0
	for ; i+8 <= n; i += 8 {
		maxGo8(archsimd.LoadFloat32x8Slice(a[i:i+8]).AsUint32x8(), cv, sign).StoreSlice(dst[i : i+8])
	}
	if i < n {
		maxGo8(archsimd.LoadFloat32x8SlicePart(a[i:]).AsUint32x8(), cv, sign).StoreSlicePart(dst[i:])
	}
}

func f32MaxVVAVX2(dst, a, b []float32) {
	n := len(a)
	dst, b = dst[:n], b[:n]
	sign := archsimd.LoadUint32x8(&f32x8SignBit)
	i := 0
	for ; i+8 <= n; i += 8 {
		maxGo8(archsimd.LoadFloat32x8Slice(a[i:i+8]).AsUint32x8(), archsimd.LoadFloat32x8Slice(b[i:i+8]).AsUint32x8(), sign).StoreSlice(dst[i : i+8])
	}
	if i < n {
		maxGo8(archsimd.LoadFloat32x8SlicePart(a[i:]).AsUint32x8(), archsimd.LoadFloat32x8SlicePart(b[i:]).AsUint32x8(), sign).StoreSlicePart(dst[i:])
	}
}

func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	f32Sign = f32SignAVX2
	f32NegRows = f32NegAVX2
	f32MaxVS, f32MaxVV = f32MaxVSAVX2, f32MaxVVAVX2
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
		vs: func(dst, a []float32, c []float32) {
			n := len(a)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Add(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Add(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c []float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
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
		vs: func(dst, a []float32, c []float32) {
			n := len(a)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Sub(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Sub(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c []float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
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
		vs: func(dst, a []float32, c []float32) {
			n := len(a)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Mul(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Mul(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c []float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
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
		vs: func(dst, a []float32, c []float32) {
			n := len(a)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
			i := 0
			for ; i+8 <= n; i += 8 {
				archsimd.LoadFloat32x8Slice(a[i : i+8]).Div(cv).StoreSlice(dst[i : i+8])
			}
			if i < n {
				archsimd.LoadFloat32x8SlicePart(a[i:]).Div(cv).StoreSlicePart(dst[i:])
			}
		},
		sv: func(dst []float32, c []float32, b []float32) {
			n := len(b)
			dst = dst[:n]
			cv := broadcastFromMemory(c)
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
