// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"
)

// avx2SmallLanesEnabled sends avx2SmallBlockedFloat32Transposed's contractions longer than 8 and at most
// avx2SmallLanesMaxK long, with a tail (k % 8 != 0), to avx2SmallLanesFloat32Transposed; the tests and
// benchmarks switch it off to compare.
var avx2SmallLanesEnabled = true

// avx2SmallLanesMaxK is the longest contraction avx2SmallLanesFloat32Transposed takes. Measured (thread CPU time,
// one core): with a tail it is 3-6x faster than the 2x4 blocks of avx2DotBlock2x4 at k = 10, 11 and 30, about as
// fast at k = 33; without one (k = 32, 48 on [100, 100] outputs) 1.3-2x slower, so those keep the blocks.
const avx2SmallLanesMaxK = 64

// avx2SmallLanesTakes reports whether avx2SmallBlockedFloat32Transposed sends a contraction of length k to
// avx2SmallLanesFloat32Transposed.
// With avx2SmallLanes4x16's row blocks it also takes k = 16..64 without a tail (compute-matmul-small-lanes4.patch:
// 16 x [100, 32] x [100, 32]ᵀ about as fast as the 2x4 blocks, 8 x [400, 32] x [400, 32]ᵀ 0.78x their time).
func avx2SmallLanesTakes(k int) bool {
	return avx2SmallLanesEnabled && k > 8 && k <= avx2SmallLanesMaxK && (k%8 != 0 || avx2SmallLanes4Takes(k))
}

// avx2SmallLanes4Takes reports whether avx2SmallLanesFloat32Transposed computes its rows 4 at a time: with at
// least 2 full chunks of 8 (with one, as the expert's [10, 10] x [10, 10]ᵀ, the accumulators' round trip through
// memory costs more than the loads it saves: 2.3x the one-row loop's time).
func avx2SmallLanes4Takes(k int) bool {
	return avx2SmallLanes4Enabled && k >= 16
}

// avx2SmallLanesFloat32Transposed computes what avx2SmallFloat32Transposed (and avx2SmallBlockedFloat32Transposed)
// compute (same arguments, same bits; 8 <= k): there each output is an 8-lane accumulator of fused multiply-adds
// over the full 8-wide chunks of k, from zero, reduced by avx2ReduceSumFloat32x8's tree
// ((x0+x4)+(x1+x5)) + ((x2+x6)+(x3+x7)), then the k%8 remaining products added one by one, unfused; one output at
// a time, with a horizontal reduction and scalar code each. Here 8 outputs of a row are computed side by side in
// vector lanes, from a transposed copy of the right-hand side: accumulator t holds, for the 8 outputs, what lane t
// of their accumulators holds, the 8 accumulators are then added in the tree's order, and the tail products are
// added one by one (a separate Mul and Add, which round as the scalar ones do). The LatFormer expert's per-example
// products ([10, 10] x [10, 10]ᵀ, [30, 30] x [30, 30]ᵀ, 36 per step) are this case.
func avx2SmallLanesFloat32Transposed(lhs, rhs []float32, batchStart, batchCount, m, n, k int, output []float32) {
	if batchCount == 0 || m == 0 || n == 0 || k == 0 {
		return
	}
	if k < 8 {
		panic("avx2SmallLanesFloat32Transposed: k must be 8 or more")
	}
	nPad := (n + 7) / 8 * 8
	rows4 := avx2SmallLanes4Takes(k)
	if rows4 {
		nPad = (n + 15) / 16 * 16 // avx2SmallLanes4x16 reads 16 columns at a time
	}
	var acc [8 * 8 * 8]float32
	// rT[kk*nPad+j] = r[j, kk] as bits (columns n..nPad-1 stay 0); lhs values broadcast from their bits, the row's
	// last partial vector stored with a mask: no scalar float instruction between the vector code (see tinyk).
	rT := make([]uint32, k*nPad)
	const iSize = 4
	rTPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rT)))
	kStride := uintptr(nPad) * iSize
	kEnd := k - k%8
	ld := func(p uintptr) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p))) }
	for b := batchStart; b < batchStart+batchCount; b++ {
		l := unsafe.Slice((*uint32)(unsafe.Pointer(&lhs[b*m*k])), m*k)
		r := unsafe.Slice((*uint32)(unsafe.Pointer(&rhs[b*n*k])), n*k)
		o := output[b*m*n : (b+1)*m*n]
		for j := range n {
			rj := r[j*k : (j+1)*k]
			for kk, v := range rj {
				rT[kk*nPad+j] = v
			}
		}
		row := 0
		if rows4 {
			for ; row+4 <= m; row += 4 {
				for col := 0; col < n; col += 16 {
					avx2SmallLanes4x16(l[row*k:], rT, o[row*n:], k, n, nPad, col, &acc)
				}
			}
		}
		for ; row < m; row++ {
			lr := l[row*k : (row+1)*k]
			bc := func(kk int) archsimd.Float32x8 { return archsimd.BroadcastUint32x8(lr[kk]).AsFloat32x8() }
			for col := 0; col < n; col += 8 {
				zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
				a0, a1, a2, a3, a4, a5, a6, a7 := zero, zero, zero, zero, zero, zero, zero, zero
				p := rTPtr + uintptr(col)*iSize
				for c := 0; c < kEnd; c += 8 {
					a0 = bc(c).MulAdd(ld(p), a0)
					a1 = bc(c+1).MulAdd(ld(p+kStride), a1)
					a2 = bc(c+2).MulAdd(ld(p+2*kStride), a2)
					a3 = bc(c+3).MulAdd(ld(p+3*kStride), a3)
					a4 = bc(c+4).MulAdd(ld(p+4*kStride), a4)
					a5 = bc(c+5).MulAdd(ld(p+5*kStride), a5)
					a6 = bc(c+6).MulAdd(ld(p+6*kStride), a6)
					a7 = bc(c+7).MulAdd(ld(p+7*kStride), a7)
					p += 8 * kStride
				}
				s := a4.Add(a0).Add(a5.Add(a1)).Add(a6.Add(a2).Add(a7.Add(a3)))
				for kk := kEnd; kk < k; kk++ {
					s = bc(kk).Mul(ld(p)).Add(s) // the product first, as `s += l*r` compiles
					p += kStride
				}
				if col+8 <= n {
					s.Store((*[8]float32)(o[row*n+col : row*n+col+8]))
				} else {
					s.StoreSlicePart(o[row*n+col : (row+1)*n])
				}
			}
		}
	}
}
