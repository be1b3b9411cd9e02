// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// The vectorized rows replicate fastmath.Exp32 operation by operation (float32 multiplies and adds kept
// separate, the rounding step in float64), so they are only built where the scalar code is compiled without
// fused multiply-adds: GOAMD64 v1 and v2. With amd64.v3 the compiler fuses x*y+z in the scalar code.

//go:build amd64 && goexperiment.simd && !amd64.v3

package fusedops

import (
	"math"
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

func init() {
	switch {
	case envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512():
		softmaxRowsFloat32 = softmaxRowsAVX512
	case envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) && archsimd.X86.AVX2():
		softmaxRowsFloat32 = softmaxRowsAVX2
	}
}

// Constants of fastmath.Exp32, as the scalar code rounds them.
const (
	expMaxNumF = float32(1.7014117331926442990585209174225846272e38)
	expMaxLogF = float32(88.02969187150841)
	expMinLogF = float32(-88.02969187150841)
	expLog2E   = float64(1.44269504088896341)
	expLn2Hi   = float32(0.693359375)
	expLn2Lo   = float32(-2.12194440e-4)
	expP7      = float32(1.9875691500e-4)
	expP6      = float32(1.3981999507e-3)
	expP5      = float32(8.3334519073e-3)
	expP4      = float32(4.1665795894e-2)
	expP3      = float32(1.6666665459e-1)
	expP2      = float32(5.0000001201e-1)
)

// softmaxRowsAVX512 is fusedSoftmax over the last axis (rows of axisSize contiguous values) with the max,
// the exp and the normalization on 16 values at a time, the row's last partial vector included (its
// missing lanes count as -Inf for the max and are not stored). The sum stays a scalar running sum in the
// scalar code's order, so the results are the scalar code's to the last bit, NaN payloads included (a row
// whose sum is NaN is normalized by scalar code). The tails stay in vector
// registers: scalar float code between vector instructions slows down by half here (AMD EPYC, AVX-512).
func softmaxRowsAVX512(input, output []float32, axisSize int) {
	if axisSize <= 0 {
		return
	}
	const lanes = 16
	var maxBuf [lanes]float32
	iota := archsimd.LoadInt32x16(&[lanes]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	negInf := archsimd.BroadcastFloat32x16(float32(math.Inf(-1)))
	tail := axisSize % lanes
	vecEnd := axisSize - tail
	inTail := iota.Less(archsimd.BroadcastInt32x16(int32(tail)))
	for rowStart := 0; rowStart+axisSize <= len(input); rowStart += axisSize {
		in := input[rowStart : rowStart+axisSize]
		out := output[rowStart : rowStart+axisSize]

		// Pass 1: the max, with the scalar code's rule (a value replaces the max only if greater).
		m := negInf
		for i := 0; i < vecEnd; i += lanes {
			x := archsimd.LoadFloat32x16Slice(in[i : i+lanes])
			m = x.Merge(m, x.Greater(m))
		}
		if tail > 0 {
			x := archsimd.LoadFloat32x16SlicePart(in[vecEnd:]).Merge(negInf, inTail)
			m = x.Merge(m, x.Greater(m))
		}
		m.Store(&maxBuf)
		maxVal := float32(math.Inf(-1))
		for _, v := range maxBuf {
			if v > maxVal {
				maxVal = v
			}
		}

		// Pass 2: exp and the running sum.
		var sum float32
		mv := archsimd.BroadcastFloat32x16(maxVal)
		for i := 0; i < vecEnd; i += lanes {
			exp32x16(archsimd.LoadFloat32x16Slice(in[i : i+lanes]).Sub(mv)).StoreSlice(out[i : i+lanes])
			for _, v := range out[i : i+lanes] {
				sum += v
			}
		}
		if tail > 0 {
			exp32x16(archsimd.LoadFloat32x16SlicePart(in[vecEnd:]).Sub(mv)).StoreSlicePart(out[vecEnd:])
			for _, v := range out[vecEnd:] {
				sum += v
			}
		}

		// Pass 3: normalize.
		invSum := 1.0 / sum
		if invSum != invSum {
			normalizeNaNRow(out, invSum)
			continue
		}
		iv := archsimd.BroadcastFloat32x16(invSum)
		for i := 0; i < vecEnd; i += lanes {
			archsimd.LoadFloat32x16Slice(out[i : i+lanes]).Mul(iv).StoreSlice(out[i : i+lanes])
		}
		if tail > 0 {
			archsimd.LoadFloat32x16SlicePart(out[vecEnd:]).Mul(iv).StoreSlicePart(out[vecEnd:])
		}
	}
	// Scalar float code after this (other ops on this thread) would otherwise pay for the dirty upper halves.
	archsimd.ClearAVXUpperBits()
}

// normalizeNaNRow is pass 3 for a row whose sum is NaN, in scalar code: a vector multiply may take the NaN
// of either operand where both are NaN, the scalar one keeps the element's, and NaN bits are kept too.
func normalizeNaNRow(out []float32, invSum float32) {
	for i := range out {
		out[i] *= invSum
	}
}

// softmaxRowsAVX2 is softmaxRowsAVX512 with 8 lanes, the rows in groups of 4 (their sums side by side).
func softmaxRowsAVX2(input, output []float32, axisSize int) {
	if axisSize <= 0 {
		return
	}
	// Rows in groups of 4: the max and the exps of each row, then the 4 running sums side by side (each in
	// its row's order, from 0: the same sums; four chains of dependent adds in flight instead of one), then
	// the normalization of each.
	const group = 4
	var sums [group]float32
	for groupStart := 0; groupStart+axisSize <= len(input); groupStart += group * axisSize {
		rows := min(group, (len(input)-groupStart)/axisSize)
		for r := range rows {
			start := groupStart + r*axisSize
			softmaxExpRowAVX2(input[start:start+axisSize], output[start:start+axisSize])
		}
		out := output[groupStart : groupStart+rows*axisSize]
		archsimd.ClearAVXUpperBits() // scalar code next: no dirty upper halves (see the benchmark's note)
		if rows == group {
			o0, o1, o2, o3 := out[:axisSize], out[axisSize:2*axisSize], out[2*axisSize:3*axisSize], out[3*axisSize:4*axisSize]
			var s0, s1, s2, s3 float32
			for i := range o0 {
				s0 += o0[i]
				s1 += o1[i]
				s2 += o2[i]
				s3 += o3[i]
			}
			sums = [group]float32{s0, s1, s2, s3}
		} else {
			for r := range rows {
				var sum float32
				for _, v := range out[r*axisSize : (r+1)*axisSize] {
					sum += v
				}
				sums[r] = sum
			}
		}
		for r := range rows {
			softmaxNormalizeRowAVX2(out[r*axisSize:(r+1)*axisSize], sums[r])
		}
	}
	archsimd.ClearAVXUpperBits()
}

// softmaxExpRowAVX2 writes exp(x - max(in)) of one row into out, 8 values at a time (the row's last partial
// vector too; its missing lanes count as -Inf for the max and are not stored).
func softmaxExpRowAVX2(in, out []float32) {
	const lanes = 8
	axisSize := len(in)
	negInf := archsimd.BroadcastFloat32x8(float32(math.Inf(-1)))
	tail := axisSize % lanes
	vecEnd := axisSize - tail
	m := negInf
	for i := 0; i < vecEnd; i += lanes {
		x := archsimd.LoadFloat32x8Slice(in[i : i+lanes])
		m = x.Merge(m, x.Greater(m))
	}
	if tail > 0 {
		inTail := archsimd.LoadInt32x8(&laneIota8).Less(archsimd.BroadcastInt32x8(int32(tail)))
		x := archsimd.LoadFloat32x8SlicePart(in[vecEnd:]).Merge(negInf, inTail)
		m = x.Merge(m, x.Greater(m))
	}
	// The lanes' maximum in every lane, in registers (a store and 8 scalar compares per row cost more than a
	// row of 100 values' exps). No lane is NaN (a NaN never compares greater), so VMAXPS gives the maximum the
	// scalar loop found, but for the sign of a zero maximum, which leaves every exp(x - max) unchanged (x - (+0)
	// and x - (-0) differ only for x = -0, and exp of either zero is 1).
	m = m.Max(m.Permute(archsimd.LoadUint32x8(&softmaxSwap128)))
	m = m.Max(m.Permute(archsimd.LoadUint32x8(&softmaxSwap64)))
	mv := m.Max(m.Permute(archsimd.LoadUint32x8(&softmaxSwap32)))
	expRowsAVX2(in, out, mv) // the row's last partial vector too, masked
}

// Lane indices for softmaxExpRowAVX2's maximum across lanes (VPERMPS): the 128-bit halves swapped, then pairs,
// then neighbors.
var (
	softmaxSwap128 = [8]uint32{4, 5, 6, 7, 0, 1, 2, 3}
	softmaxSwap64  = [8]uint32{2, 3, 0, 1, 6, 7, 4, 5}
	softmaxSwap32  = [8]uint32{1, 0, 3, 2, 5, 4, 7, 6}
)

// softmaxNormalizeRowAVX2 multiplies a row of exps by 1/sum (a NaN 1/sum by the scalar loop).
func softmaxNormalizeRowAVX2(out []float32, sum float32) {
	const lanes = 8
	invSum := 1.0 / sum
	if invSum != invSum {
		normalizeNaNRow(out, invSum)
		return
	}
	iv := archsimd.BroadcastFloat32x8(invSum)
	vecEnd := len(out) - len(out)%lanes
	for i := 0; i < vecEnd; i += lanes {
		archsimd.LoadFloat32x8Slice(out[i : i+lanes]).Mul(iv).StoreSlice(out[i : i+lanes])
	}
	if vecEnd < len(out) {
		archsimd.LoadFloat32x8SlicePart(out[vecEnd:]).Mul(iv).StoreSlicePart(out[vecEnd:])
	}
}

// exp32x16 is fastmath.Exp32 on 16 lanes, operation by operation.
func exp32x16(x archsimd.Float32x16) archsimd.Float32x16 {
	log2E := archsimd.BroadcastFloat64x8(expLog2E)
	half := archsimd.BroadcastFloat64x8(0.5)
	// z = float32(floor(float64(x)*log2E + 0.5)), in float64 as the scalar code does it.
	zLo := x.GetLo().ConvertToFloat64().Mul(log2E).Add(half).FloorScaled(0).ConvertToFloat32()
	zHi := x.GetHi().ConvertToFloat64().Mul(log2E).Add(half).FloorScaled(0).ConvertToFloat32()
	z := x.SetLo(zLo).SetHi(zHi)
	g := x.Sub(z.Mul(archsimd.BroadcastFloat32x16(expLn2Hi))).Sub(z.Mul(archsimd.BroadcastFloat32x16(expLn2Lo)))
	scale := z.ConvertToInt32().Add(archsimd.BroadcastInt32x16(127)).ShiftAllLeft(23).AsFloat32x16()
	p := archsimd.BroadcastFloat32x16(expP7).Mul(g).Add(archsimd.BroadcastFloat32x16(expP6))
	p = p.Mul(g).Add(archsimd.BroadcastFloat32x16(expP5))
	p = p.Mul(g).Add(archsimd.BroadcastFloat32x16(expP4))
	p = p.Mul(g).Add(archsimd.BroadcastFloat32x16(expP3))
	p = p.Mul(g).Add(archsimd.BroadcastFloat32x16(expP2))
	e := scale.Mul(p.Mul(g.Mul(g)).Add(g).Add(archsimd.BroadcastFloat32x16(1)))
	e = archsimd.BroadcastFloat32x16(expMaxNumF).Merge(e, x.Greater(archsimd.BroadcastFloat32x16(expMaxLogF)))
	return archsimd.BroadcastFloat32x16(0).Merge(e, x.Less(archsimd.BroadcastFloat32x16(expMinLogF)))
}

// zeroFloat32x8 is expRowsAVX2's (and the layer norm's) zero vector (loaded: archsimd.BroadcastFloat32x8(0) compiles to a legacy-SSE
// XORPS, slow between AVX instructions on this project's AMD EPYC).
var zeroFloat32x8 [8]float32

// expRowsAVX2 writes fastmath.Exp32(in[i] - mv) to out[i] for every value of in (the last partial vector masked; out may be
// in), 8 at a time, operation by operation as exp32x16 does on 16 lanes, in one loop with the constants broadcast
// once (an exp function per vector was not inlined: each call spilled every vector register and broadcast its
// constants again).
func expRowsAVX2(in, out []float32, mv archsimd.Float32x8) {
	const lanes = 8
	log2E := archsimd.BroadcastFloat64x4(expLog2E)
	half := archsimd.BroadcastFloat64x4(0.5)
	ln2Hi := archsimd.BroadcastFloat32x8(expLn2Hi)
	ln2Lo := archsimd.BroadcastFloat32x8(expLn2Lo)
	bias := archsimd.BroadcastInt32x8(127)
	p7 := archsimd.BroadcastFloat32x8(expP7)
	p6 := archsimd.BroadcastFloat32x8(expP6)
	p5 := archsimd.BroadcastFloat32x8(expP5)
	p4 := archsimd.BroadcastFloat32x8(expP4)
	p3 := archsimd.BroadcastFloat32x8(expP3)
	p2 := archsimd.BroadcastFloat32x8(expP2)
	one := archsimd.BroadcastFloat32x8(1)
	maxNum := archsimd.BroadcastFloat32x8(expMaxNumF)
	maxLog := archsimd.BroadcastFloat32x8(expMaxLogF)
	minLog := archsimd.BroadcastFloat32x8(expMinLogF)
	zero := archsimd.LoadFloat32x8(&zeroFloat32x8)
	out = out[:len(in)]
	for i := 0; i < len(in); i += lanes {
		whole := i+lanes <= len(in)
		var v archsimd.Float32x8
		if whole {
			v = archsimd.LoadFloat32x8Slice(in[i : i+lanes])
		} else {
			v = archsimd.LoadFloat32x8SlicePart(in[i:]) // the last partial vector: its missing lanes not stored
		}
		x := v.Sub(mv)
		zLo := x.GetLo().ConvertToFloat64().Mul(log2E).Add(half).Floor().ConvertToFloat32()
		zHi := x.GetHi().ConvertToFloat64().Mul(log2E).Add(half).Floor().ConvertToFloat32()
		z := x.SetLo(zLo).SetHi(zHi)
		g := x.Sub(z.Mul(ln2Hi)).Sub(z.Mul(ln2Lo))
		scale := z.ConvertToInt32().Add(bias).ShiftAllLeft(23).AsFloat32x8()
		p := p7.Mul(g).Add(p6)
		p = p.Mul(g).Add(p5)
		p = p.Mul(g).Add(p4)
		p = p.Mul(g).Add(p3)
		p = p.Mul(g).Add(p2)
		e := scale.Mul(p.Mul(g.Mul(g)).Add(g).Add(one))
		e = maxNum.Merge(e, x.Greater(maxLog))
		if r := zero.Merge(e, x.Less(minLog)); whole {
			r.StoreSlice(out[i : i+lanes])
		} else {
			r.StoreSlicePart(out[i:])
		}
	}
}
