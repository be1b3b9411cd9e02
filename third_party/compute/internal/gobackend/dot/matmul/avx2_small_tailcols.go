// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"
)

// avx2SmallTailColsEnabled sends the last n%8 columns of avx2SmallBlockedFloat32's products to
// avx2SmallTailCols (false: avx2SmallBlockedScalarCols, for the tests and benchmarks that compare them).
var avx2SmallTailColsEnabled = true

// avx2SmallTailColsRows4Enabled lets avx2SmallTailCols compute 4 rows at a time (false: one row at a time, for
// the tests and benchmarks that compare them).
var avx2SmallTailColsRows4Enabled = true

// avx2SmallTailCols computes what avx2SmallBlockedScalarCols computes (the columns [vecCols, n) of one product,
// fewer than 8) one row at a time with the columns in vector lanes: per row, the product for k=0, then for each
// k>0 a separate multiply and add, the product first (the scalar code's rounding and operand order), the rhs
// row's tail read with a plain load where 8 values are there (the extra lanes are never stored) and the output
// row's tail written with a masked store. avx2SmallBlockedScalarCols
// puts 8 rows in the lanes instead, which needs the lhs rows transposed into a buffer for every 8 rows and
// each output copied out one by one: on the expert's 10 x 10 products that packing took most of the product.
func avx2SmallTailCols(l, r, o []float32, m, n, k, vecCols int) {
	var pack []uint32
	if vecCols == 0 && m >= 8 {
		pack = make([]uint32, 8*k)
	}
	avx2SmallTailColsPacked(l, r, o, m, n, k, vecCols, pack)
}

// avx2SmallTailColsPacked is avx2SmallTailCols with the buffer avx2SmallNarrowRows8 packs 8 lhs rows into (8*k
// values) given, so that a caller with many products allocates it once: needed where vecCols is 0 and m >= 8.
func avx2SmallTailColsPacked(l, r, o []float32, m, n, k, vecCols int, pack []uint32) {
	cols := n - vecCols
	// rhsTail loads the rhs row's tail at off: 8 values where the slice has them (the lanes past the tail
	// compute values that are never stored), else a masked load.
	rhsTail := func(off int) archsimd.Float32x8 {
		if off+8 <= len(r) {
			return archsimd.LoadFloat32x8Slice(r[off : off+8])
		}
		return archsimd.LoadFloat32x8SlicePart(r[off : off+cols])
	}
	bc := func(p *float32) archsimd.Float32x8 { return archsimd.BroadcastFloat32x8(*p) }
	store := func(acc archsimd.Float32x8, off int) { acc.StoreSlicePart(o[off : off+cols]) }
	row := 0
	if vecCols == 0 && avx2SmallNarrowRows8Enabled {
		// No vector columns (n < 8): 8 rows at a time in the lanes (avx2SmallNarrowRows8), the rest below.
		row = avx2SmallNarrowRows8(l, r, o, m, n, k, pack)
	}
	if avx2SmallTailColsRows4Enabled {
		// 4 rows at a time, then 2: independent chains (one row's chain waits on each add's latency) sharing each rhs
		// load; every output the same operations in the same order as below.
		for ; row+3 < m; row += 4 {
			l0, l1 := l[row*k:(row+1)*k], l[(row+1)*k:(row+2)*k]
			l2, l3 := l[(row+2)*k:(row+3)*k], l[(row+3)*k:(row+4)*k]
			t := rhsTail(vecCols)
			a0, a1, a2, a3 := bc(&l0[0]).Mul(t), bc(&l1[0]).Mul(t), bc(&l2[0]).Mul(t), bc(&l3[0]).Mul(t)
			for kk := 1; kk < k; kk++ {
				t = rhsTail(kk*n + vecCols)
				a0 = bc(&l0[kk]).Mul(t).Add(a0)
				a1 = bc(&l1[kk]).Mul(t).Add(a1)
				a2 = bc(&l2[kk]).Mul(t).Add(a2)
				a3 = bc(&l3[kk]).Mul(t).Add(a3)
			}
			store(a0, row*n+vecCols)
			store(a1, (row+1)*n+vecCols)
			store(a2, (row+2)*n+vecCols)
			store(a3, (row+3)*n+vecCols)
		}
		for ; row+1 < m; row += 2 {
			l0, l1 := l[row*k:(row+1)*k], l[(row+1)*k:(row+2)*k]
			t := rhsTail(vecCols)
			a0, a1 := bc(&l0[0]).Mul(t), bc(&l1[0]).Mul(t)
			for kk := 1; kk < k; kk++ {
				t = rhsTail(kk*n + vecCols)
				a0 = bc(&l0[kk]).Mul(t).Add(a0)
				a1 = bc(&l1[kk]).Mul(t).Add(a1)
			}
			store(a0, row*n+vecCols)
			store(a1, (row+1)*n+vecCols)
		}
	}
	for ; row < m; row++ {
		lRow := l[row*k : (row+1)*k]
		acc := bc(&lRow[0]).Mul(rhsTail(vecCols))
		for kk := 1; kk < k; kk++ {
			p := bc(&lRow[kk]).Mul(rhsTail(kk*n + vecCols))
			acc = p.Add(acc)
		}
		store(acc, row*n+vecCols)
	}
}

// avx2SmallNarrowRows8Enabled lets avx2SmallTailCols compute products narrower than 8 columns 8 rows at a time
// (avx2SmallNarrowRows8; false: 4 rows at a time with the columns in the lanes, for the tests and benchmarks).
var avx2SmallNarrowRows8Enabled = true

// avx2SmallNarrowRows8 computes the rows of one product with n < 8 columns (and no vector columns) 8 at a time,
// the rows in the vector lanes: the 8 lhs rows transposed into a [k][8] block by 8x8 tiles in registers, then for
// each column the product for k=0 and, for each k>0, a separate multiply and add, the product first: the
// operations avx2SmallTailCols does for each output (its lanes are the columns, n of 8 of them useful: for
// LatFormer's mask gradients, [20, 20] x [20, 2] per query cell, 2 of 8). It returns the first row it did not
// compute (m rounded down to a multiple of 8).
func avx2SmallNarrowRows8(l, r, o []float32, m, n, k int, pack []uint32) int {
	rows8 := m - m%8
	if rows8 == 0 || k == 0 {
		return 0
	}
	pack = pack[:8*k]
	lBits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(l))), len(l))
	oBits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(o))), len(o))
	var outBits [8]uint32
	out := (*[8]float32)(unsafe.Pointer(&outBits))
	kVec := k - k%8
	for row := 0; row < rows8; row += 8 {
		// pack[kk*8+i] = l[row+i, kk], as bits.
		for kc := 0; kc < kVec; kc += 8 {
			b := lBits[row*k+kc : (row+7)*k+kc+8]
			c0, c1, c2, c3, c4, c5, c6, c7 := avx2Transpose8x8x32bits(archsimd.LoadUint32x8Slice(b[0:8]),
				archsimd.LoadUint32x8Slice(b[k:k+8]), archsimd.LoadUint32x8Slice(b[2*k:2*k+8]), archsimd.LoadUint32x8Slice(b[3*k:3*k+8]),
				archsimd.LoadUint32x8Slice(b[4*k:4*k+8]), archsimd.LoadUint32x8Slice(b[5*k:5*k+8]), archsimd.LoadUint32x8Slice(b[6*k:6*k+8]),
				archsimd.LoadUint32x8Slice(b[7*k:7*k+8]))
			c0.StoreSlice(pack[(kc+0)*8 : (kc+1)*8])
			c1.StoreSlice(pack[(kc+1)*8 : (kc+2)*8])
			c2.StoreSlice(pack[(kc+2)*8 : (kc+3)*8])
			c3.StoreSlice(pack[(kc+3)*8 : (kc+4)*8])
			c4.StoreSlice(pack[(kc+4)*8 : (kc+5)*8])
			c5.StoreSlice(pack[(kc+5)*8 : (kc+6)*8])
			c6.StoreSlice(pack[(kc+6)*8 : (kc+7)*8])
			c7.StoreSlice(pack[(kc+7)*8 : (kc+8)*8])
		}
		if kVec < k {
			if k >= 8 {
				// The last k%8 columns: the 8 columns ending at k transposed (the first ones again), the tail stored.
				b := lBits[row*k+k-8 : (row+7)*k+k]
				var cs [8]archsimd.Uint32x8
				cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6], cs[7] = avx2Transpose8x8x32bits(archsimd.LoadUint32x8Slice(b[0:8]),
					archsimd.LoadUint32x8Slice(b[k:k+8]), archsimd.LoadUint32x8Slice(b[2*k:2*k+8]), archsimd.LoadUint32x8Slice(b[3*k:3*k+8]),
					archsimd.LoadUint32x8Slice(b[4*k:4*k+8]), archsimd.LoadUint32x8Slice(b[5*k:5*k+8]), archsimd.LoadUint32x8Slice(b[6*k:6*k+8]),
					archsimd.LoadUint32x8Slice(b[7*k:7*k+8]))
				for j := 8 - (k - kVec); j < 8; j++ {
					cs[j].StoreSlice(pack[(k-8+j)*8 : (k-7+j)*8])
				}
			} else {
				for kk := range k {
					for i := range 8 {
						pack[kk*8+i] = lBits[(row+i)*k+kk]
					}
				}
			}
		}
		packF := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(pack))), len(pack))
		col := 0
		if n == 2 {
			// Both columns in one pass (two chains in flight), stored as the block's 16 consecutive outputs.
			acc0 := archsimd.LoadFloat32x8Slice(packF[0:8]).Mul(archsimd.BroadcastFloat32x8(r[0]))
			acc1 := archsimd.LoadFloat32x8Slice(packF[0:8]).Mul(archsimd.BroadcastFloat32x8(r[1]))
			rr := r[:2*k]
			for kk := 1; kk < k; kk++ {
				lv := archsimd.LoadFloat32x8Slice(packF[kk*8 : kk*8+8])
				p0 := lv.Mul(archsimd.BroadcastFloat32x8(rr[2*kk]))
				p1 := lv.Mul(archsimd.BroadcastFloat32x8(rr[2*kk+1]))
				acc0 = p0.Add(acc0) // the product first, as avx2SmallTailCols (the NaN payload x86 keeps)
				acc1 = p1.Add(acc1)
			}
			lo := acc0.AsUint32x8().InterleaveLoGrouped(acc1.AsUint32x8()) // rows 0, 1 | 4, 5
			hi := acc0.AsUint32x8().InterleaveHiGrouped(acc1.AsUint32x8()) // rows 2, 3 | 6, 7
			lo.Select128FromPair(0, 2, hi).StoreSlice(oBits[row*2 : row*2+8])
			lo.Select128FromPair(1, 3, hi).StoreSlice(oBits[row*2+8 : row*2+16])
			col = n
		}
		for ; col < n; col++ {
			acc := archsimd.LoadFloat32x8Slice(packF[0:8]).Mul(archsimd.BroadcastFloat32x8(r[col]))
			rc := r[col:]
			for kk := 1; kk < k; kk++ {
				p := archsimd.LoadFloat32x8Slice(packF[kk*8 : kk*8+8]).Mul(archsimd.BroadcastFloat32x8(rc[kk*n]))
				acc = p.Add(acc) // the product first, as avx2SmallTailCols (the NaN payload x86 keeps)
			}
			acc.Store(out)
			// Copied as integers: no scalar float instruction between the vector code.
			for i := range 8 {
				oBits[(row+i)*n+col] = outBits[i]
			}
		}
	}
	return rows8
}

// avx2Transpose8x8x32bits transposes the 8x8 block of 32-bit values whose rows are v0..v7: column j of the
// block is returned as its j-th vector.
func avx2Transpose8x8x32bits(v0, v1, v2, v3, v4, v5, v6, v7 archsimd.Uint32x8) (c0, c1, c2, c3, c4, c5, c6, c7 archsimd.Uint32x8) {
	t0, t1 := v0.InterleaveLoGrouped(v1), v0.InterleaveHiGrouped(v1) // [a0 b0 a1 b1 | a4 b4 a5 b5], [a2 b2 a3 b3 | a6 b6 a7 b7]
	t2, t3 := v2.InterleaveLoGrouped(v3), v2.InterleaveHiGrouped(v3)
	t4, t5 := v4.InterleaveLoGrouped(v5), v4.InterleaveHiGrouped(v5)
	t6, t7 := v6.InterleaveLoGrouped(v7), v6.InterleaveHiGrouped(v7)
	u0 := t0.AsUint64x4().InterleaveLoGrouped(t2.AsUint64x4()).AsUint32x8() // [a0 b0 c0 d0 | a4 b4 c4 d4]
	u1 := t0.AsUint64x4().InterleaveHiGrouped(t2.AsUint64x4()).AsUint32x8() // [a1 b1 c1 d1 | a5 ...]
	u2 := t1.AsUint64x4().InterleaveLoGrouped(t3.AsUint64x4()).AsUint32x8() // [a2 ... | a6 ...]
	u3 := t1.AsUint64x4().InterleaveHiGrouped(t3.AsUint64x4()).AsUint32x8() // [a3 ... | a7 ...]
	u4 := t4.AsUint64x4().InterleaveLoGrouped(t6.AsUint64x4()).AsUint32x8() // [e0 f0 g0 h0 | e4 ...]
	u5 := t4.AsUint64x4().InterleaveHiGrouped(t6.AsUint64x4()).AsUint32x8()
	u6 := t5.AsUint64x4().InterleaveLoGrouped(t7.AsUint64x4()).AsUint32x8()
	u7 := t5.AsUint64x4().InterleaveHiGrouped(t7.AsUint64x4()).AsUint32x8()
	c0, c4 = u0.Select128FromPair(0, 2, u4), u0.Select128FromPair(1, 3, u4)
	c1, c5 = u1.Select128FromPair(0, 2, u5), u1.Select128FromPair(1, 3, u5)
	c2, c6 = u2.Select128FromPair(0, 2, u6), u2.Select128FromPair(1, 3, u6)
	c3, c7 = u3.Select128FromPair(0, 2, u7), u3.Select128FromPair(1, 3, u7)
	return
}
