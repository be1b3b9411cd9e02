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
	f32BinaryRows = f32BinaryRowsAVX2
}

var f32x8Iota = [8]int32{0, 1, 2, 3, 4, 5, 6, 7}

// f32BinaryRowsAVX2 is f32BinaryRowsGeneric (same arguments, same values) in one call for all the rows: the
// row loop, the broadcasts and the last partial vector's mask (computed once) inside the kernel, where a call of
// a row kernel per row cost more than the row's arithmetic for rows of 32 values or fewer (LatFormer's layer
// norm gradients, [16, 900, 32] / [16, 900, 1], and its loss, [16, 900, 11] - [16, 900, 1]).
func f32BinaryRowsAVX2(op, mode int, dst, a, b []float32, rowLen, rows int) {
	if rows == 0 || rowLen == 0 {
		return
	}
	f32BinaryRowsCheck(mode, dst, a, b, rowLen, rows)
	full := rowLen &^ 7
	tail := archsimd.LoadInt32x8(&f32x8Iota).Less(archsimd.BroadcastInt32x8(int32(rowLen - full)))
	hasTail := full < rowLen
	dp, ap, bp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	switch mode {
	case f32RowsVS, f32RowsSV:
		// One operand's row against the other's value for that row (c); sv: the value on the left.
		row, c := ap, bp
		if mode == f32RowsSV {
			row, c = bp, ap
		}
		for r := range rows {
			v := archsimd.LoadFloat32x4SlicePart(unsafe.Slice((*float32)(unsafe.Add(c, r*4)), 1)).Broadcast1To8()
			x, d := unsafe.Add(row, r*rowLen*4), unsafe.Add(dp, r*rowLen*4)
			for i := 0; i < full; i += 8 {
				y := archsimd.LoadFloat32x8(f32Vec(x, i))
				if mode == f32RowsVS {
					f32Op8(op, y, v).Store(f32Vec(d, i))
				} else {
					f32Op8(op, v, y).Store(f32Vec(d, i))
				}
			}
			if hasTail {
				y := archsimd.LoadMaskedFloat32x8(f32Vec(x, full), tail)
				if mode == f32RowsVS {
					f32Op8(op, y, v).StoreMasked(f32Vec(d, full), tail)
				} else {
					f32Op8(op, v, y).StoreMasked(f32Vec(d, full), tail)
				}
			}
		}
	default:
		// Each row of one operand against one row (fixed) of the other; bv: the fixed row on the left.
		rows0, fixed := ap, bp
		if mode == f32RowsBV {
			rows0, fixed = bp, ap
		}
		for r := range rows {
			x, d := unsafe.Add(rows0, r*rowLen*4), unsafe.Add(dp, r*rowLen*4)
			for i := 0; i < full; i += 8 {
				y, f := archsimd.LoadFloat32x8(f32Vec(x, i)), archsimd.LoadFloat32x8(f32Vec(fixed, i))
				if mode == f32RowsVB {
					f32Op8(op, y, f).Store(f32Vec(d, i))
				} else {
					f32Op8(op, f, y).Store(f32Vec(d, i))
				}
			}
			if hasTail {
				y, f := archsimd.LoadMaskedFloat32x8(f32Vec(x, full), tail), archsimd.LoadMaskedFloat32x8(f32Vec(fixed, full), tail)
				if mode == f32RowsVB {
					f32Op8(op, y, f).StoreMasked(f32Vec(d, full), tail)
				} else {
					f32Op8(op, f, y).StoreMasked(f32Vec(d, full), tail)
				}
			}
		}
	}
	archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
}

// f32Vec is the 8 values at p[i:] (masked loads and stores may address past the end; they touch only the
// values the mask selects).
func f32Vec(p unsafe.Pointer, i int) *[8]float32 { return (*[8]float32)(unsafe.Add(p, i*4)) }

// f32Op8 is x op y for the ops of f32Kernels.
func f32Op8(op int, x, y archsimd.Float32x8) archsimd.Float32x8 {
	switch op {
	case f32Add:
		return x.Add(y)
	case f32Sub:
		return x.Sub(y)
	case f32Mul:
		return x.Mul(y)
	default:
		return x.Div(y)
	}
}
