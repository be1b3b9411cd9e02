// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"
)

// avx2SmallTinyKEnabled sends avx2SmallBlockedFloat32Transposed's contractions shorter than 8 to
// avx2SmallTinyKFloat32Transposed; the tests and benchmarks switch it off to compare.
var avx2SmallTinyKEnabled = true

// avx2ZeroFloat32x8 is loaded as the zero vector (a VEX load, where archsimd.BroadcastFloat32x8(0) compiles to a
// legacy-SSE XORPS, slow after AVX code on this project's AMD EPYC).
var avx2ZeroFloat32x8 [8]float32

// avx2SmallTinyKFloat32Transposed computes what avx2SmallFloat32Transposed (and avx2SmallBlockedFloat32Transposed)
// compute for a contraction shorter than one vector (k < 8; same arguments, same bits): there each output is
// the reduced zero accumulator (+0) followed by the k products added one by one, unfused,
// s = ((+0 + l[0]*r[0]) + l[1]*r[1]) + ..., one output at a time with a horizontal reduction of zeros and scalar
// code each. Here 8 outputs of a row are computed side by side in vector lanes with the same operations in the
// same order (a separate Mul and Add per k, which round as the scalar ones do), from a transposed copy of the
// right-hand side. LatFormer's mask at canvas 30, 7,200 products of [30, 2] x [30, 2]ᵀ per half batch, is
// this case.
func avx2SmallTinyKFloat32Transposed(lhs, rhs []float32, batchStart, batchCount, m, n, k int, output []float32) {
	if batchCount == 0 || m == 0 || n == 0 || k == 0 {
		return
	}
	if k >= 8 {
		panic("avx2SmallTinyKFloat32Transposed: k must be below 8")
	}
	nPad := (n + 7) / 8 * 8
	// rT[kk*nPad+j] = r[j, kk] as bits (columns n..nPad-1 stay 0); the lhs values are broadcast from their bits
	// too, and the row's last partial vector is stored with a mask: no scalar float instruction runs between
	// the vector code (on this project's AMD EPYC, legacy-SSE scalar code after AVX code ran 1.5-2x slower,
	// and made this loop slower than the kernel it replaces).
	rT := make([]uint32, k*nPad)
	const iSize = 4
	rTPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rT)))
	for b := batchStart; b < batchStart+batchCount; b++ {
		l := unsafe.Slice((*uint32)(unsafe.Pointer(&lhs[b*m*k])), m*k)
		r := unsafe.Slice((*uint32)(unsafe.Pointer(&rhs[b*n*k])), n*k)
		o := output[b*m*n : (b+1)*m*n]
		for j := range n {
			for kk := range k {
				rT[kk*nPad+j] = r[j*k+kk]
			}
		}
		if n >= 8 && k == 2 {
			avx2TinyK2Rows(l, o, rTPtr, m, n, nPad)
			continue
		}
		for row := range m {
			lr := l[row*k : (row+1)*k]
			for col := 0; col < n; col += 8 {
				s := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8) // not BroadcastFloat32x8(0): Go compiles that to a legacy-SSE XORPS
				p := rTPtr + uintptr(col)*iSize
				for kk := range k {
					rv := archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p)))
					s = archsimd.BroadcastUint32x8(lr[kk]).AsFloat32x8().Mul(rv).Add(s) // the product first, as `s += l*r` compiles
					p += uintptr(nPad) * iSize
				}
				s.StoreSlicePart(o[row*n+col : (row+1)*n])
			}
		}
	}
}

// avx2TinyK2Rows is avx2SmallTinyKFloat32Transposed's loop over one batch item's rows for k = 2 and n >= 8 (LatFormer's
// mask: two terms): the two lhs values of a row broadcast once for the row, the right-hand side's two transposed
// rows loaded from rTPtr (nPad apart), and the same operations per output, s = (+0 + l0*r0) + l1*r1, unfused.
func avx2TinyK2Rows(l []uint32, o []float32, rTPtr uintptr, m, n, nPad int) {
	const iSize = 4
	zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
	r1Off := uintptr(nPad) * iSize
	last := n - 8
	for row := range m {
		b0 := archsimd.BroadcastUint32x8(l[2*row]).AsFloat32x8()
		b1 := archsimd.BroadcastUint32x8(l[2*row+1]).AsFloat32x8()
		oRow := o[row*n : row*n+n]
		for col := 0; ; col += 8 {
			if col > last {
				if col == n {
					break
				}
				col = last // the row's last partial vector: the 8 columns ending at n, stored whole
			}
			p := rTPtr + uintptr(col)*iSize
			r0 := archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p)))
			r1 := archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p + r1Off)))
			s := b0.Mul(r0).Add(zero)
			s = b1.Mul(r1).Add(s)
			s.Store((*[8]float32)(unsafe.Pointer(&oRow[col])))
		}
	}
}
