// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"
)

// avx2SmallLanes4Enabled lets avx2SmallLanesFloat32Transposed compute its rows 4 at a time, 16 outputs of each
// row at once (avx2SmallLanes4x16); the tests and benchmarks switch it off to compare.
var avx2SmallLanes4Enabled = true

// avx2SmallLanes4x16 computes, for rows row..row+3 and columns col..col+15 (col+16 <= nPad, the columns past n
// being zeros in rT), what avx2SmallLanesFloat32Transposed's one-row loop computes for each of them, with the
// same operations in the same order for every output: accumulator t (t = 0..7) of an output is the fused
// multiply-add chain, from zero, of the products l[row, 8c+t] r[col, 8c+t] for c = 0, 1, ... in order; the 8
// accumulators are added in the tree's order ((a4+a0)+(a5+a1)) + ((a6+a2)+(a7+a3)), then the tail products
// (k%8 of them) are added one by one, each a separate Mul and Add. What changes is only which outputs are
// computed together: accumulator t of 4 rows x 16 columns (8 vectors) at once, so that each rT vector loaded
// serves 4 rows and each broadcast lhs value 2 vectors (the one-row loop loads one rT vector and broadcasts
// one lhs value per fused multiply-add). The 8 accumulators of the block wait in acc (8 x 8 vectors) for the
// tree. l points at lhs[row, 0] (row stride k), rT at the transposed rhs (row stride nPad), o at output[row,
// 0] (row stride n); the last partial vector of a row (col+16 > n) is stored with a mask.
func avx2SmallLanes4x16(l []uint32, rT []uint32, o []float32, k, n, nPad, col int, acc *[8 * 8 * 8]float32) {
	const iSize = 4
	kEnd := k - k%8
	chunks := kEnd / 8
	kStride := uintptr(nPad) * iSize
	lStride := uintptr(k) * iSize
	lPtr := uintptr(unsafe.Pointer(unsafe.SliceData(l)))
	rPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rT))) + uintptr(col)*iSize
	accPtr := uintptr(unsafe.Pointer(acc))
	ld := func(p uintptr) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p))) }
	bc := func(p uintptr) archsimd.Float32x8 {
		return archsimd.BroadcastUint32x8(*(*uint32)(unsafe.Pointer(p))).AsFloat32x8()
	}
	if avx2SmallAsmEnabled {
		avx2Lanes4x16AccFloat32((*uint32)(unsafe.Pointer(lPtr)), int(lStride), (*uint32)(unsafe.Pointer(rPtr)), int(kStride), chunks, &acc[0])
	} else {
		avx2SmallLanes4x16Go(lPtr, lStride, rPtr, kStride, chunks, accPtr)
	}
	for i := range 4 {
		for h := range 2 {
			p := accPtr + uintptr(i*2+h)*256
			s := ld(p)
			c := col + 8*h
			rp := rPtr + uintptr(8*h)*iSize + uintptr(kEnd)*kStride
			lp := lPtr + uintptr(i)*lStride + uintptr(kEnd)*iSize
			for kk := kEnd; kk < k; kk++ {
				s = bc(lp).Mul(ld(rp)).Add(s) // the product first, as `s += l*r` compiles
				lp += iSize
				rp += kStride
			}
			if c >= n {
				continue
			}
			if c+8 <= n {
				s.Store((*[8]float32)(o[i*n+c : i*n+c+8]))
			} else {
				s.StoreSlicePart(o[i*n+c : (i+1)*n])
			}
		}
	}
}

// avx2Lanes4x16AccFloat32 is in avx2_large_asm_amd64.s: avx2SmallLanes4x16Go's work where the CPU has FMA3.
//
//go:noescape
func avx2Lanes4x16AccFloat32(lhs *uint32, lhsRowStrideBytes int, rT *uint32, kStrideBytes int, chunks int, acc *float32)

// avx2SmallLanes4x16Go is avx2Lanes4x16AccFloat32 in archsimd: the accumulators of avx2SmallLanes4x16's block
// (see there), then each (row i, column half h)'s tree sum stored at acc[(i*2+h)*64].
func avx2SmallLanes4x16Go(lPtr, lStride, rPtr, kStride uintptr, chunks int, accPtr uintptr) {
	const iSize = 4
	ld := func(p uintptr) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p))) }
	bc := func(p uintptr) archsimd.Float32x8 {
		return archsimd.BroadcastUint32x8(*(*uint32)(unsafe.Pointer(p))).AsFloat32x8()
	}
	st := func(v archsimd.Float32x8, p uintptr) { v.Store((*[8]float32)(unsafe.Pointer(p))) }
	for t := range 8 {
		zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
		a00, a01, a10, a11, a20, a21, a30, a31 := zero, zero, zero, zero, zero, zero, zero, zero
		lp := lPtr + uintptr(t)*iSize
		rp := rPtr + uintptr(t)*kStride
		for range chunks {
			v0, v1 := ld(rp), ld(rp+32)
			b0 := bc(lp)
			a00 = b0.MulAdd(v0, a00)
			a01 = b0.MulAdd(v1, a01)
			b1 := bc(lp + lStride)
			a10 = b1.MulAdd(v0, a10)
			a11 = b1.MulAdd(v1, a11)
			b2 := bc(lp + 2*lStride)
			a20 = b2.MulAdd(v0, a20)
			a21 = b2.MulAdd(v1, a21)
			b3 := bc(lp + 3*lStride)
			a30 = b3.MulAdd(v0, a30)
			a31 = b3.MulAdd(v1, a31)
			lp += 8 * iSize
			rp += 8 * kStride
		}
		// acc[(i*2+h)*64 + t*8 : +8]: accumulator t of row i, column half h.
		p := accPtr + uintptr(t)*32
		st(a00, p)
		st(a01, p+256)
		st(a10, p+512)
		st(a11, p+768)
		st(a20, p+1024)
		st(a21, p+1280)
		st(a30, p+1536)
		st(a31, p+1792)
	}
	for j := range 8 {
		p := accPtr + uintptr(j)*256
		st(ld(p+4*32).Add(ld(p)).Add(ld(p+5*32).Add(ld(p+32))).Add(ld(p+6*32).Add(ld(p+2*32)).Add(ld(p+7*32).Add(ld(p+3*32)))), p)
	}
}
