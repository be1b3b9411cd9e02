// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/gobackend"
)

// avx512NarrowMaxCols is the most right-hand-side columns a product may have to take avx512NarrowFloat32.
const avx512NarrowMaxCols = 16

// avx512UseNarrowFloat32 reports whether avx512NarrowFloat32 computes the product in place of
// avx512LargeFloat32: a non-transposed layout, at most avx512NarrowMaxCols right-hand-side columns (the
// large kernel pads them to 32-column panels, mostly zeros) and a contraction within one packed panel (the
// large kernel sums longer ones panel by panel, another order).
func avx512UseNarrowFloat32(rhsCrossSize, contractingSize int) bool {
	return rhsCrossSize <= avx512NarrowMaxCols && contractingSize <= AVX512ParamsFloat32.PanelContractingSize
}

// avx512NarrowFloat32 multiplies lhs [batch, lhsCross, contracting] by rhs [batch, contracting, rhsCross]
// (dot.LayoutNonTransposed) with one vector lane per output column. Each output value is the large
// kernel's, to the last bit: a chain of fused multiply-adds over the contracting axis in order, starting
// from zero, stored as is (one contracting panel). Batches are spread over the backend's workers.
func avx512NarrowFloat32(backend *gobackend.Backend, lhs, rhs []float32,
	batchSize, lhsCrossSize, rhsCrossSize, contractingSize int, output []float32) {
	maxWorkers := backend.Workers.AdjustedMaxParallelism()
	if maxWorkers <= 1 || batchSize < 2 {
		avx512NarrowBatchesFloat32(lhs, rhs, 0, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output)
		return
	}
	step := max(1, batchSize/(4*maxWorkers))
	work := make(chan int, (batchSize+step-1)/step)
	for start := 0; start < batchSize; start += step {
		work <- start
	}
	close(work)
	backend.Workers.Saturate(func() {
		for start := range work {
			avx512NarrowBatchesFloat32(lhs, rhs, start, min(start+step, batchSize),
				lhsCrossSize, rhsCrossSize, contractingSize, output)
		}
	})
}

// avx512NarrowBatchesFloat32 computes batches [batchStart, batchEnd) of avx512NarrowFloat32, four
// left-hand-side rows at a time (one right-hand-side row load for four multiply-adds).
func avx512NarrowBatchesFloat32(lhs, rhs []float32, batchStart, batchEnd int,
	lhsCrossSize, rhsCrossSize, contractingSize int, output []float32) {
	m, n, k := lhsCrossSize, rhsCrossSize, contractingSize
	for b := batchStart; b < batchEnd; b++ {
		l := lhs[b*m*k : (b+1)*m*k]
		r := rhs[b*k*n : (b+1)*k*n]
		o := output[b*m*n : (b+1)*m*n]
		row := 0
		for ; row+4 <= m; row += 4 {
			l0, l1, l2, l3 := l[row*k:(row+1)*k], l[(row+1)*k:(row+2)*k], l[(row+2)*k:(row+3)*k], l[(row+3)*k:(row+4)*k]
			acc0 := archsimd.BroadcastFloat32x16(0)
			acc1, acc2, acc3 := acc0, acc0, acc0
			for kk := range k {
				rv := archsimd.LoadFloat32x16SlicePart(r[kk*n : (kk+1)*n])
				acc0 = rv.MulAdd(archsimd.BroadcastFloat32x16(l0[kk]), acc0)
				acc1 = rv.MulAdd(archsimd.BroadcastFloat32x16(l1[kk]), acc1)
				acc2 = rv.MulAdd(archsimd.BroadcastFloat32x16(l2[kk]), acc2)
				acc3 = rv.MulAdd(archsimd.BroadcastFloat32x16(l3[kk]), acc3)
			}
			acc0.StoreSlicePart(o[row*n : (row+1)*n])
			acc1.StoreSlicePart(o[(row+1)*n : (row+2)*n])
			acc2.StoreSlicePart(o[(row+2)*n : (row+3)*n])
			acc3.StoreSlicePart(o[(row+3)*n : (row+4)*n])
		}
		for ; row < m; row++ {
			lr := l[row*k : (row+1)*k]
			acc := archsimd.BroadcastFloat32x16(0)
			for kk := range k {
				acc = archsimd.LoadFloat32x16SlicePart(r[kk*n:(kk+1)*n]).MulAdd(archsimd.BroadcastFloat32x16(lr[kk]), acc)
			}
			acc.StoreSlicePart(o[row*n : (row+1)*n])
		}
	}
	archsimd.ClearAVXUpperBits()
}
