// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package ops

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	f32SumRows8 = f32SumRows8AVX2
	f32SumColumns = f32SumColumnsAVX2
}

// f32SumRows8AVX2 is sumRowsFloat32's sums for 8 rows at a time in vector lanes, for consecutive outputs
// (out[off+r] for row r): each 8x8 tile of the rows transposed (transpose8x8Words32) so that each column is a
// vector, added to the lanes' sums in column order, starting from the outputs' values: each output the same
// additions in the same order. Rows of fewer than 8 values are left (returns 0); else it returns how many rows it
// summed (a multiple of 8), the caller sums the rest.
func f32SumRows8AVX2(out []float32, off int, x []float32, rowLen int) int {
	rows := len(x) / rowLen
	if rowLen < 8 || rows < 8 {
		return 0
	}
	full := rowLen &^ 7
	var tile [64]uint32
	tp := (*[8]float32)(unsafe.Pointer(&tile))
	stride := rowLen * 4
	r := 0
	for ; r+8 <= rows; r += 8 {
		o := (*[8]float32)(unsafe.Pointer(&out[off+r]))
		acc := archsimd.LoadFloat32x8(o)
		src := (*uint32)(unsafe.Pointer(&x[r*rowLen]))
		for c := 0; c < full; c += 8 {
			transpose8x8Words32((*uint32)(unsafe.Add(unsafe.Pointer(src), c*4)), stride, &tile[0], 32)
			for t := range 8 {
				acc = acc.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(unsafe.Pointer(tp), t*32))))
			}
		}
		if full < rowLen {
			// The tile ending at the row's end: its last rowLen-full columns are the ones left.
			transpose8x8Words32((*uint32)(unsafe.Add(unsafe.Pointer(src), (rowLen-8)*4)), stride, &tile[0], 32)
			for t := 8 - (rowLen - full); t < 8; t++ {
				acc = acc.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(unsafe.Pointer(tp), t*32))))
			}
		}
		acc.Store(o)
	}
	archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
	return r
}

// f32SumColumnsAVX2 adds each row of x (rows of len(out) values) to out, the rows in order: 32 columns at a time
// kept in 4 vector registers over all the rows (the generic loop loads and stores out at every row), then the
// columns left 8 at a time (the last partial vector masked). Each output the same additions in the same order.
// Only vectors with columns left are addressed (a pointer past the row's end could point past its allocation).
func f32SumColumnsAVX2(out, x []float32) {
	rowLen := len(out)
	if rowLen == 0 {
		return
	}
	rows := len(x) / rowLen
	xp, op := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(out))
	c := 0
	for ; c+32 <= rowLen; c += 32 {
		a0, a1 := archsimd.LoadFloat32x8(f32Vec(op, c)), archsimd.LoadFloat32x8(f32Vec(op, c+8))
		a2, a3 := archsimd.LoadFloat32x8(f32Vec(op, c+16)), archsimd.LoadFloat32x8(f32Vec(op, c+24))
		for r := range rows {
			p := unsafe.Add(xp, (r*rowLen+c)*4)
			a0 = a0.Add(archsimd.LoadFloat32x8(f32Vec(p, 0)))
			a1 = a1.Add(archsimd.LoadFloat32x8(f32Vec(p, 8)))
			a2 = a2.Add(archsimd.LoadFloat32x8(f32Vec(p, 16)))
			a3 = a3.Add(archsimd.LoadFloat32x8(f32Vec(p, 24)))
		}
		a0.Store(f32Vec(op, c))
		a1.Store(f32Vec(op, c+8))
		a2.Store(f32Vec(op, c+16))
		a3.Store(f32Vec(op, c+24))
	}
	iota := archsimd.LoadInt32x8(&f32x8Iota)
	for ; c < rowLen; c += 8 {
		m := iota.Less(archsimd.BroadcastInt32x8(int32(min(8, rowLen-c))))
		a := archsimd.LoadMaskedFloat32x8(f32Vec(op, c), m)
		for r := range rows {
			a = a.Add(archsimd.LoadMaskedFloat32x8(f32Vec(xp, r*rowLen+c), m))
		}
		a.StoreMasked(f32Vec(op, c), m)
	}
	archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
}
