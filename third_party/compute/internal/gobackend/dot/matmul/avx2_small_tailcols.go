// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
)

// avx2SmallTailColsEnabled sends the last n%8 columns of avx2SmallBlockedFloat32's products to
// avx2SmallTailCols (false: avx2SmallBlockedScalarCols, for the tests and benchmarks that compare them).
var avx2SmallTailColsEnabled = true

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
	for row := range m {
		lRow := l[row*k : (row+1)*k]
		acc := bc(&lRow[0]).Mul(rhsTail(vecCols))
		for kk := 1; kk < k; kk++ {
			p := bc(&lRow[kk]).Mul(rhsTail(kk*n + vecCols))
			acc = p.Add(acc)
		}
		acc.StoreSlicePart(o[row*n+vecCols : row*n+n])
	}
}
