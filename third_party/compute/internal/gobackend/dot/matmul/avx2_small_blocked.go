// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"
)

// This file holds register-blocked versions of the float32 AVX2 "small" kernels (avx2SmallFloat32 and
// avx2SmallFloat32Transposed), used for products under the small/large threshold (batched attention and
// mask products of a few thousand multiply-adds each).
//
// Each output value is computed with exactly the operations, in exactly the order, of the kernel it replaces,
// so the results are the same to the last bit:
//
//   - Non-transposed (lhs [m, k], rhs [k, n]): the columns below 8*floor(n/8) are vector columns, each output a
//     chain of fused multiply-adds over k in order, starting from zero; the remaining n%8 columns are scalar
//     columns, each output the product for k=0 followed by separate (unfused) multiply and add for k>0.
//     The original kernel walks k outermost and loads and stores the output tile at every k; here the
//     accumulators stay in registers over k, and the scalar columns are computed for 8 rows at a time in
//     vector lanes (separate Mul and Add, which round as the scalar operations do) from a transposed copy of
//     the 8 lhs rows.
//   - Transposed (lhs [m, k], rhs [n, k]): each output is an 8-lane accumulator of fused multiply-adds over the
//     full 8-wide chunks of k in order, reduced by avx2ReduceSumFloat32x8's tree, then the k%8 remaining
//     products added one by one (unfused). Here 4 rows and 2 columns are computed at once, so that each lhs and
//     rhs vector is loaded once for several outputs.
//
// One exception: where several NaNs meet in one output, the output is a NaN in both, but its payload may
// differ (x86 keeps one operand's payload, and which operand the compiler puts first is its choice).

// avx2SmallBlockedFloat32 computes what avx2SmallFloat32 computes (same arguments, same bits).
func avx2SmallBlockedFloat32(lhs, rhs []float32, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	m, n, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount == 0 || m == 0 || n == 0 || k == 0 {
		return
	}
	vecCols := n - n%8
	var pack []float32
	if vecCols < n && (!avx2SmallTailColsEnabled || vecCols == 0 && m >= 8) {
		pack = make([]float32, 8*k) // 8 lhs rows transposed: pack[kk*8+i] = lhs[row+i, kk]
	}
	for b := batchStart; b < batchStart+batchCount; b++ {
		l := lhs[b*m*k : (b+1)*m*k]
		r := rhs[b*k*n : (b+1)*k*n]
		o := output[b*m*n : (b+1)*m*n]
		if vecCols > 0 {
			avx2SmallBlockedVectorCols(l, r, o, m, n, k, vecCols)
		}
		if vecCols < n {
			if avx2SmallTailColsEnabled {
				avx2SmallTailCols(l, r, o, m, n, k, vecCols, pack)
			} else {
				avx2SmallBlockedScalarCols(l, r, o, m, n, k, vecCols, pack)
			}
		}
	}
}

// avx2SmallRowCols3Enabled lets avx2SmallBlockedVectorCols compute the rows left after the 4-row blocks (all
// of them where m < 4) 3 column vectors at a time (false: one at a time, for the tests and benchmarks).
var avx2SmallRowCols3Enabled = true

// avx2SmallRowCols8Enabled lets avx2SmallBlockedVectorCols compute those rows 8 column vectors at a time first
// (false: 3 at a time, for the tests and benchmarks).
var avx2SmallRowCols8Enabled = true

// avx2SmallBlockedVectorCols computes the columns [0, vecCols) of one product: 4 rows by 16 columns at a time,
// then 4 by 8, then single rows; every output a fused multiply-add chain over k from zero.
func avx2SmallBlockedVectorCols(l, r, o []float32, m, n, k, vecCols int) {
	const iSize = 4
	lPtr := uintptr(unsafe.Pointer(unsafe.SliceData(l)))
	rPtr := uintptr(unsafe.Pointer(unsafe.SliceData(r)))
	oPtr := uintptr(unsafe.Pointer(unsafe.SliceData(o)))
	ld := func(p uintptr) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p))) }
	bc := func(p uintptr) archsimd.Float32x8 { return archsimd.BroadcastFloat32x8(*(*float32)(unsafe.Pointer(p))) }
	st := func(v archsimd.Float32x8, p uintptr) { v.Store((*[8]float32)(unsafe.Pointer(p))) }
	rowStride := uintptr(k) * iSize
	rRowStride := uintptr(n) * iSize
	row := 0
	for ; row+3 < m; row += 4 {
		l0 := lPtr + uintptr(row)*rowStride
		l1, l2, l3 := l0+rowStride, l0+2*rowStride, l0+3*rowStride
		col := 0
		if tiles := vecCols / 16; tiles > 0 && avx2SmallAsmEnabled {
			// The same chains in assembly (avx2_small_asm.go); every address is inside l, r and o: rows
			// row..row+3 < m, columns below vecCols <= n.
			avx2Kernel4x16SmallFloat32(&l[row*k], int(rowStride), &r[0], int(rRowStride), &o[row*n], n*iSize, k, tiles)
			col = tiles * 16
		}
		for ; col+16 <= vecCols; col += 16 {
			zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
			a00, a01, a10, a11, a20, a21, a30, a31 := zero, zero, zero, zero, zero, zero, zero, zero
			rp := rPtr + uintptr(col)*iSize
			for kk := uintptr(0); kk < uintptr(k); kk++ {
				r0, r1 := ld(rp), ld(rp+8*iSize)
				x0, x1, x2, x3 := bc(l0+kk*iSize), bc(l1+kk*iSize), bc(l2+kk*iSize), bc(l3+kk*iSize)
				a00, a01 = x0.MulAdd(r0, a00), x0.MulAdd(r1, a01)
				a10, a11 = x1.MulAdd(r0, a10), x1.MulAdd(r1, a11)
				a20, a21 = x2.MulAdd(r0, a20), x2.MulAdd(r1, a21)
				a30, a31 = x3.MulAdd(r0, a30), x3.MulAdd(r1, a31)
				rp += rRowStride
			}
			op := oPtr + uintptr(row*n+col)*iSize
			oRow := uintptr(n) * iSize
			st(a00, op)
			st(a01, op+8*iSize)
			st(a10, op+oRow)
			st(a11, op+oRow+8*iSize)
			st(a20, op+2*oRow)
			st(a21, op+2*oRow+8*iSize)
			st(a30, op+3*oRow)
			st(a31, op+3*oRow+8*iSize)
		}
		for ; col+8 <= vecCols; col += 8 {
			zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
			a0, a1, a2, a3 := zero, zero, zero, zero
			rp := rPtr + uintptr(col)*iSize
			for kk := uintptr(0); kk < uintptr(k); kk++ {
				r0 := ld(rp)
				a0 = bc(l0+kk*iSize).MulAdd(r0, a0)
				a1 = bc(l1+kk*iSize).MulAdd(r0, a1)
				a2 = bc(l2+kk*iSize).MulAdd(r0, a2)
				a3 = bc(l3+kk*iSize).MulAdd(r0, a3)
				rp += rRowStride
			}
			op := oPtr + uintptr(row*n+col)*iSize
			oRow := uintptr(n) * iSize
			st(a0, op)
			st(a1, op+oRow)
			st(a2, op+2*oRow)
			st(a3, op+3*oRow)
		}
	}
	for ; row < m; row++ {
		l0 := lPtr + uintptr(row)*rowStride
		col := 0
		if avx2SmallRowCols8Enabled {
			// 8 column vectors at a time: a wide single row (a bias gradient, 1ᵀ dy, [1, 14400] x [14400, 128])
			// then reads 256 contiguous bytes of each rhs row per pass, 2 passes over rhs at n = 128 instead of 6
			// passes reading 96 bytes of each 512-byte row; each output the same chain as below.
			for ; col+64 <= vecCols; col += 64 {
				zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
				a0, a1, a2, a3, a4, a5, a6, a7 := zero, zero, zero, zero, zero, zero, zero, zero
				rp := rPtr + uintptr(col)*iSize
				for kk := uintptr(0); kk < uintptr(k); kk++ {
					x := bc(l0 + kk*iSize)
					a0 = x.MulAdd(ld(rp), a0)
					a1 = x.MulAdd(ld(rp+8*iSize), a1)
					a2 = x.MulAdd(ld(rp+16*iSize), a2)
					a3 = x.MulAdd(ld(rp+24*iSize), a3)
					a4 = x.MulAdd(ld(rp+32*iSize), a4)
					a5 = x.MulAdd(ld(rp+40*iSize), a5)
					a6 = x.MulAdd(ld(rp+48*iSize), a6)
					a7 = x.MulAdd(ld(rp+56*iSize), a7)
					rp += rRowStride
				}
				op := oPtr + uintptr(row*n+col)*iSize
				st(a0, op)
				st(a1, op+8*iSize)
				st(a2, op+16*iSize)
				st(a3, op+24*iSize)
				st(a4, op+32*iSize)
				st(a5, op+40*iSize)
				st(a6, op+48*iSize)
				st(a7, op+56*iSize)
			}
		}
		if avx2SmallRowCols3Enabled {
			// 3 column vectors at a time: 3 independent chains (one chain waits on each fused multiply-add's
			// latency), each output the same chain as below.
			for ; col+24 <= vecCols; col += 24 {
				zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
				a0, a1, a2 := zero, zero, zero
				rp := rPtr + uintptr(col)*iSize
				for kk := uintptr(0); kk < uintptr(k); kk++ {
					x := bc(l0 + kk*iSize)
					a0 = x.MulAdd(ld(rp), a0)
					a1 = x.MulAdd(ld(rp+8*iSize), a1)
					a2 = x.MulAdd(ld(rp+16*iSize), a2)
					rp += rRowStride
				}
				op := oPtr + uintptr(row*n+col)*iSize
				st(a0, op)
				st(a1, op+8*iSize)
				st(a2, op+16*iSize)
			}
		}
		for ; col+8 <= vecCols; col += 8 {
			a0 := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
			rp := rPtr + uintptr(col)*iSize
			for kk := uintptr(0); kk < uintptr(k); kk++ {
				a0 = bc(l0+kk*iSize).MulAdd(ld(rp), a0)
				rp += rRowStride
			}
			st(a0, oPtr+uintptr(row*n+col)*iSize)
		}
	}
}

// avx2SmallBlockedScalarCols computes the columns [vecCols, n) of one product, 8 rows at a time in vector
// lanes: the product for k=0, then for each k>0 a separate multiply and add (the scalar code's rounding).
// pack holds 8*k values.
func avx2SmallBlockedScalarCols(l, r, o []float32, m, n, k, vecCols int, pack []float32) {
	var outBits [8]uint32 // each column's 8 outputs, stored as a vector and copied out as integers
	out := (*[8]float32)(unsafe.Pointer(&outBits))
	oBits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(o))), len(o))
	// pack filled as bits too (a float32 copy compiles to legacy-SSE MOVSS, slow after AVX code here).
	lBits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(l))), len(l))
	packBits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(pack))), len(pack))
	for row := 0; row < m; row += 8 {
		rows := min(8, m-row)
		if rows == 8 && k >= 8 {
			avx2PackRows8(lBits, packBits, row, k) // by 8x8 tiles in registers
		} else {
			for kk := range k {
				for i := range rows {
					packBits[kk*8+i] = lBits[(row+i)*k+kk]
				}
				for i := rows; i < 8; i++ {
					packBits[kk*8+i] = 0
				}
			}
		}
		if n == 2 && vecCols == 0 && rows == 8 {
			// Two columns (LatFormer's mask gradients): both in one pass, two chains in flight, the block's 16
			// outputs consecutive, stored as two vectors.
			pk := pack[:8*k]
			acc0 := archsimd.LoadFloat32x8Slice(pk[0:8]).Mul(archsimd.BroadcastFloat32x8(r[0]))
			acc1 := archsimd.LoadFloat32x8Slice(pk[0:8]).Mul(archsimd.BroadcastFloat32x8(r[1]))
			rr := r[:2*k]
			for kk := 1; kk < k; kk++ {
				lv := archsimd.LoadFloat32x8Slice(pk[kk*8 : kk*8+8])
				p0 := lv.Mul(archsimd.BroadcastFloat32x8(rr[2*kk]))
				p1 := lv.Mul(archsimd.BroadcastFloat32x8(rr[2*kk+1]))
				acc0 = p0.Add(acc0)
				acc1 = p1.Add(acc1)
			}
			lo := acc0.AsUint32x8().InterleaveLoGrouped(acc1.AsUint32x8()) // rows 0, 1 | 4, 5
			hi := acc0.AsUint32x8().InterleaveHiGrouped(acc1.AsUint32x8()) // rows 2, 3 | 6, 7
			lo.Select128FromPair(0, 2, hi).StoreSlice(oBits[row*2 : row*2+8])
			lo.Select128FromPair(1, 3, hi).StoreSlice(oBits[row*2+8 : row*2+16])
			continue
		}
		for col := vecCols; col < n; col++ {
			acc := archsimd.LoadFloat32x8((*[8]float32)(pack[0:8])).Mul(archsimd.BroadcastFloat32x8(r[col]))
			for kk := 1; kk < k; kk++ {
				p := archsimd.LoadFloat32x8((*[8]float32)(pack[kk*8 : kk*8+8])).Mul(archsimd.BroadcastFloat32x8(r[kk*n+col]))
				acc = p.Add(acc) // the product first, as the compiled scalar `o += l*r` (the NaN payload x86 keeps)
			}
			acc.Store(out)
			// Copied as integers: no scalar float instruction between the vector code (math.Float32bits of a
			// float32 array element compiled to a legacy-SSE MOVSS load and store per output).
			for i := range rows {
				oBits[(row+i)*n+col] = outBits[i]
			}
		}
	}
}

// avx2SmallBlockedFloat32Transposed computes what avx2SmallFloat32Transposed computes (same arguments, same
// bits): lhs [m, k] and rhs [n, k] per batch example.
func avx2SmallBlockedFloat32Transposed(lhs, rhs []float32, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	m, n, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount == 0 || m == 0 || n == 0 || k == 0 {
		return
	}
	if k < 8 && avx2SmallTinyKEnabled {
		avx2SmallTinyKFloat32Transposed(lhs, rhs, batchStart, batchCount, m, n, k, output)
		return
	}
	if avx2SmallLanesTakes(k) {
		avx2SmallLanesFloat32Transposed(lhs, rhs, batchStart, batchCount, m, n, k, output)
		return
	}
	for b := batchStart; b < batchStart+batchCount; b++ {
		l := lhs[b*m*k : (b+1)*m*k]
		r := rhs[b*n*k : (b+1)*n*k]
		o := output[b*m*n : (b+1)*m*n]
		row := 0
		nBlk := n - n%4 // columns in the 2x4 blocks
		for ; row+1 < m; row += 2 {
			col := 0
			for ; col+3 < n; col += 4 {
				avx2DotBlock2x4(l, r, o, row, col, n, k)
			}
			if avx2SmallTailCols4x1Enabled {
				continue // the last n%4 columns of these rows below
			}
			for ; col < n; col++ {
				o[row*n+col] = avx2DotTransposed(l[row*k:(row+1)*k], r[col*k:(col+1)*k])
				o[(row+1)*n+col] = avx2DotTransposed(l[(row+1)*k:(row+2)*k], r[col*k:(col+1)*k])
			}
		}
		if avx2SmallTailCols4x1Enabled && nBlk < n {
			// The last n%4 columns of the paired rows, 4 rows at a time: 4 independent chains instead of one
			// (one output at a time, its chain of k/8 fused multiply-adds waits on each one's latency; with
			// LatFormer's factor gradients, [30, 960] x [30, 960]ᵀ, the 2 columns left took a third of the time).
			pairRows, r4 := row, 0
			for ; r4+3 < pairRows; r4 += 4 {
				for col := nBlk; col < n; col++ {
					avx2DotBlock4x1(l, r, o, r4, col, n, k)
				}
			}
			for ; r4 < pairRows; r4++ {
				for col := nBlk; col < n; col++ {
					o[r4*n+col] = avx2DotTransposed(l[r4*k:(r4+1)*k], r[col*k:(col+1)*k])
				}
			}
		}
		for ; row < m; row++ {
			for col := range n {
				o[row*n+col] = avx2DotTransposed(l[row*k:(row+1)*k], r[col*k:(col+1)*k])
			}
		}
	}
}

// avx2DotTransposed is one output of avx2SmallFloat32Transposed: the 8-lane fused multiply-add chain over the
// full chunks of k, reduced, then the tail products added one by one.
func avx2DotTransposed(l, r []float32) float32 {
	k := len(l)
	acc := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
	kk := 0
	for ; kk+8 <= k; kk += 8 {
		acc = archsimd.LoadFloat32x8((*[8]float32)(l[kk:kk+8])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(r[kk:kk+8])), acc)
	}
	res := avx2ReduceSumFloat32x8(acc)
	for ; kk < k; kk++ {
		res += l[kk] * r[kk]
	}
	return res
}

// avx2ReduceSum4x8 is avx2ReduceSumFloat32x8 of four vectors at once, in its order for each:
// ((x0+x4)+(x1+x5)) + ((x2+x6)+(x3+x7)), with the pairs added horizontally across the four, so that no value
// leaves the vector registers (scalar float code between vector code is slow on some CPUs, AMD EPYC here).
func avx2ReduceSum4x8(a, b, c, d archsimd.Float32x8) archsimd.Float32x4 {
	sa, sb := a.GetHi().Add(a.GetLo()), b.GetHi().Add(b.GetLo())
	sc, sd := c.GetHi().Add(c.GetLo()), d.GetHi().Add(d.GetLo())
	return sa.AddPairs(sb).AddPairs(sc.AddPairs(sd))
}

// avx2DotBlock2x4 computes the outputs of rows row, row+1 and columns col..col+3 of
// avx2SmallFloat32Transposed: 8 accumulators, each lhs vector loaded once for 4 columns and each rhs vector
// once for 2 rows, reduced 4 at a time and stored as 4 contiguous outputs.
func avx2DotBlock2x4(l, r, o []float32, row, col, n, k int) {
	const iSize = 4
	lPtr := uintptr(unsafe.Pointer(&l[row*k]))
	rPtr := uintptr(unsafe.Pointer(&r[col*k]))
	ls := uintptr(k) * iSize
	kEnd := k - k%8
	o0 := (*[4]float32)(o[row*n+col : row*n+col+4])
	o1 := (*[4]float32)(o[(row+1)*n+col : (row+1)*n+col+4])
	if avx2SmallAsmEnabled && kEnd > 0 {
		// The same sums in assembly (avx2_small_asm.go): rows row, row+1 of l, col..col+3 of r, all inside.
		avx2Kernel2x4TransposedFloat32(&l[row*k], &r[col*k], &o0[0], int(ls), kEnd/8, n*iSize)
	} else {
		avx2DotBlock2x4Vector(lPtr, rPtr, ls, kEnd, o0, o1)
	}
	avx2DotBlock2x4Tail(l, r, o0, o1, row, col, k, kEnd)
}

// avx2DotBlock2x4Vector is avx2DotBlock2x4's vector part in archsimd: the 8 accumulators over the chunks of k below
// kEnd, reduced 4 at a time into o0 and o1.
func avx2DotBlock2x4Vector(lPtr, rPtr, ls uintptr, kEnd int, o0, o1 *[4]float32) {
	const iSize = 4
	ld := func(p uintptr) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(p))) }
	zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
	a00, a01, a02, a03, a10, a11, a12, a13 := zero, zero, zero, zero, zero, zero, zero, zero
	for off := uintptr(0); off < uintptr(kEnd)*iSize; off += 8 * iSize {
		x0, x1 := ld(lPtr+off), ld(lPtr+ls+off)
		r0 := ld(rPtr + off)
		a00, a10 = x0.MulAdd(r0, a00), x1.MulAdd(r0, a10)
		r1 := ld(rPtr + ls + off)
		a01, a11 = x0.MulAdd(r1, a01), x1.MulAdd(r1, a11)
		r2 := ld(rPtr + 2*ls + off)
		a02, a12 = x0.MulAdd(r2, a02), x1.MulAdd(r2, a12)
		r3 := ld(rPtr + 3*ls + off)
		a03, a13 = x0.MulAdd(r3, a03), x1.MulAdd(r3, a13)
	}
	avx2ReduceSum4x8(a00, a01, a02, a03).Store(o0)
	avx2ReduceSum4x8(a10, a11, a12, a13).Store(o1)
}

// avx2SmallTailCols4x1Enabled lets avx2SmallBlockedFloat32Transposed compute the columns left after the 2x4 blocks 4
// rows at a time (avx2DotBlock4x1; false: one output at a time, for the tests and benchmarks).
var avx2SmallTailCols4x1Enabled = true

// avx2DotBlock4x1 computes the outputs of rows row..row+3 and column col of avx2SmallFloat32Transposed, each as
// avx2DotTransposed does (its own 8-lane chain over the full chunks of k, the same reduction tree, then the tail
// products one by one): 4 chains in flight, the rhs vector loaded once for the 4 rows.
func avx2DotBlock4x1(l, r, o []float32, row, col, n, k int) {
	kEnd := k - k%8
	rc := r[col*k : (col+1)*k]
	l0, l1, l2, l3 := l[row*k:(row+1)*k], l[(row+1)*k:(row+2)*k], l[(row+2)*k:(row+3)*k], l[(row+3)*k:(row+4)*k]
	zero := archsimd.LoadFloat32x8(&avx2ZeroFloat32x8)
	a0, a1, a2, a3 := zero, zero, zero, zero
	for kk := 0; kk < kEnd; kk += 8 {
		rv := archsimd.LoadFloat32x8((*[8]float32)(rc[kk : kk+8]))
		a0 = archsimd.LoadFloat32x8((*[8]float32)(l0[kk:kk+8])).MulAdd(rv, a0)
		a1 = archsimd.LoadFloat32x8((*[8]float32)(l1[kk:kk+8])).MulAdd(rv, a1)
		a2 = archsimd.LoadFloat32x8((*[8]float32)(l2[kk:kk+8])).MulAdd(rv, a2)
		a3 = archsimd.LoadFloat32x8((*[8]float32)(l3[kk:kk+8])).MulAdd(rv, a3)
	}
	var res [4]float32
	avx2ReduceSum4x8(a0, a1, a2, a3).Store(&res)
	archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
	for i, li := range [4][]float32{l0, l1, l2, l3} {
		s := res[i]
		for kk := kEnd; kk < k; kk++ {
			s += li[kk] * rc[kk]
		}
		o[(row+i)*n+col] = s
	}
}

// avx2DotBlock2x4Tail adds the products of k from kEnd on to avx2DotBlock2x4's 8 outputs, one by one (unfused).
func avx2DotBlock2x4Tail(l, r []float32, o0, o1 *[4]float32, row, col, k, kEnd int) {
	if kEnd < k {
		archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
		for i, oi := range [2]*[4]float32{o0, o1} {
			lr := l[(row+i)*k : (row+i+1)*k]
			for c := range 4 {
				rc := r[(col+c)*k : (col+c+1)*k]
				s := oi[c]
				for kk := kEnd; kk < k; kk++ {
					s += lr[kk] * rc[kk]
				}
				oi[c] = s
			}
		}
	}
}
