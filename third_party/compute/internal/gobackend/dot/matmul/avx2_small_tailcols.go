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
func avx2SmallTailCols(l, r, o []float32, m, n, k, vecCols int) {
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
