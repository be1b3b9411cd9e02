// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
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
//
// pack is avx2SmallBlockedScalarCols' buffer (8*k values, allocated once by the caller for all its products),
// needed where vecCols is 0 and m >= 8.
func avx2SmallTailCols(l, r, o []float32, m, n, k, vecCols int, pack []float32) {
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
	row := 0
	if vecCols == 0 && avx2SmallNarrowRows8Enabled && m >= 8 {
		// No vector columns (n < 8: 2 of 8 lanes useful for LatFormer's mask gradients, [20, 20] x [20, 2] per
		// query cell): the rows in blocks of 8 with the rows in the lanes (avx2SmallBlockedScalarCols, the same
		// operations per output), the last m % 8 below.
		row = m - m%8
		avx2SmallBlockedScalarCols(l, r, o, row, n, k, 0, pack)
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
			a0.StoreSlicePart(o[row*n+vecCols : row*n+n])
			a1.StoreSlicePart(o[(row+1)*n+vecCols : (row+1)*n+n])
			a2.StoreSlicePart(o[(row+2)*n+vecCols : (row+2)*n+n])
			a3.StoreSlicePart(o[(row+3)*n+vecCols : (row+3)*n+n])
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
			a0.StoreSlicePart(o[row*n+vecCols : row*n+n])
			a1.StoreSlicePart(o[(row+1)*n+vecCols : (row+1)*n+n])
		}
	}
	for ; row < m; row++ {
		lRow := l[row*k : (row+1)*k]
		acc := bc(&lRow[0]).Mul(rhsTail(vecCols))
		for kk := 1; kk < k; kk++ {
			p := bc(&lRow[kk]).Mul(rhsTail(kk*n + vecCols))
			acc = p.Add(acc)
		}
		acc.StoreSlicePart(o[row*n+vecCols : row*n+n])
	}
}

// avx2SmallNarrowRows8Enabled lets avx2SmallTailCols compute products narrower than 8 columns 8 rows at a time with
// the rows in the lanes (false: 4 rows at a time with the columns in the lanes, for the tests and benchmarks).
var avx2SmallNarrowRows8Enabled = true

// avx2PackRows8 packs the 8 rows row..row+7 of l (rows k >= 8 long, as bits) into pack[kk*8+i] = l[row+i, kk]
// by 8x8 tiles transposed in registers, the last k % 8 columns with the tile ending at k (its first columns
// written again, with the same values).
func avx2PackRows8(l, pack []uint32, row, k int) {
	for kc := 0; kc+8 <= k; kc += 8 {
		avx2PackRows8Tile(l, pack, row, k, kc)
	}
	if k%8 != 0 {
		avx2PackRows8Tile(l, pack, row, k, k-8)
	}
}

// avx2PackRows8Tile packs the 8x8 tile of l's rows row..row+7 at columns kc..kc+7 (see avx2PackRows8).
func avx2PackRows8Tile(l, pack []uint32, row, k, kc int) {
	b := l[row*k+kc : (row+7)*k+kc+8]
	c0, c1, c2, c3, c4, c5, c6, c7 := avx2Transpose8x8x32bits(archsimd.LoadUint32x8Slice(b[0:8]),
		archsimd.LoadUint32x8Slice(b[k:k+8]), archsimd.LoadUint32x8Slice(b[2*k:2*k+8]), archsimd.LoadUint32x8Slice(b[3*k:3*k+8]),
		archsimd.LoadUint32x8Slice(b[4*k:4*k+8]), archsimd.LoadUint32x8Slice(b[5*k:5*k+8]), archsimd.LoadUint32x8Slice(b[6*k:6*k+8]),
		archsimd.LoadUint32x8Slice(b[7*k:7*k+8]))
	p := pack[kc*8 : kc*8+64]
	c0.StoreSlice(p[0:8])
	c1.StoreSlice(p[8:16])
	c2.StoreSlice(p[16:24])
	c3.StoreSlice(p[24:32])
	c4.StoreSlice(p[32:40])
	c5.StoreSlice(p[40:48])
	c6.StoreSlice(p[48:56])
	c7.StoreSlice(p[56:64])
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
