// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package ops

import (
	"math"
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

// Exp of float32 values 4 at a time, with the bits of the generic executor, float32(math.Exp(float64(x))).
//
// On amd64 math.Exp is assembly (math/exp_amd64.s, its FMA path on CPUs with AVX and FMA, as every AVX2 CPU
// has): x·log2(e) rounded to the nearest integer n, the reduced argument r = (x - n·ln2hi - n·ln2lo)/16 by fused
// multiply-adds, a Taylor polynomial in r by fused multiply-adds, four squarings (y·(y+2)), and the result times
// 2^n. exp4Float32AVX2 does these float64 operations in the same order in the 4 lanes of a vector (the same
// IEEE operations round the same way), so each lane is the scalar function's float64 value, and the float64 to
// float32 conversion is the same instruction's. The scalar code's other branches (overflow above 709.78,
// subnormal results, infinities, NaNs) only matter here outside [-200, 100], where every float32 result is +0
// (below) or +Inf (above), or for NaNs, which both return the input's NaN; those lanes are set apart.
// TestExpFloat32AVX2MatchesMath checks a sweep of every float32 bit pattern at a stride (and, with
// $GOMLX_EXP_EXHAUSTIVE=1, all 2^32 of them).

// The constants of math/exp_amd64.s (the same decimal literals, rounded to float64 as the assembler does), in
// memory so that the loop loads them into vector registers (no scalar float instructions around it).
var (
	expF64Log2E    = splat4(1.4426950408889634073599246810018920)
	expF64Ln2U     = splat4(0.69314718055966295651160180568695068359375)
	expF64Ln2L     = splat4(0.28235290563031577122588448175013436025525412068e-12)
	expF64Sixteen1 = splat4(0.0625)
	expF64Taylor   = [8][4]float64{ // exprodata+64, +56, +48, +40, +32, +24, +0, +8: the Horner order
		splat4(2.4801587301587301587e-5), splat4(1.9841269841269841270e-4), splat4(1.3888888888888888889e-3),
		splat4(8.3333333333333333333e-3), splat4(4.1666666666666666667e-2), splat4(1.6666666666666666667e-1),
		splat4(0.5), splat4(1.0),
	}
	expF64Two      = splat4(2)
	expF64One      = splat4(1)
	expF64MinusOne = splat4(-1)
	expF64Zero     = splat4(0)
	// 2^52 + 2^51 + 1023: n + expF64Magic (n an integer, |n| < 2^50) is exact and its low bits hold n + 1023,
	// which shifted left by 52 are the bits of 2^n for -1022 <= n <= 1023.
	expF64Magic  = splat4(6755399441055744 + 1023)
	expF64Hi     = splat4(100)
	expF64Lo     = splat4(-200)
	expF64PosInf = splat4(math.Inf(1))
)

// splat4 returns x in the 4 values of a vector's worth of memory.
func splat4(x float64) [4]float64 { return [4]float64{x, x, x, x} }

func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		return // (math.Exp takes its FMA path where the CPU has AVX and FMA: the path replicated here)
	}
	f32ExpRows = expFloat32AVX2
}

// expFloat32AVX2 sets out[i] = float32(math.Exp(float64(in[i]))) (same bits), 8 values at a time in two vectors of
// 4 float64 (two independent chains in flight): math/exp_amd64.s's FMA path (see above), converted to float32.
// One loop body (a function per vector is not inlined, and the call spilled every register; the constants are
// memory operands), the last partial vector with masked loads and stores.
func expFloat32AVX2(in, out []float32) {
	n := len(in)
	out = out[:n]
	for i := 0; i < n; i += 8 {
		var v archsimd.Float32x8
		if i+8 <= n {
			v = archsimd.LoadFloat32x8Slice(in[i : i+8])
		} else {
			v = archsimd.LoadFloat32x8SlicePart(in[i:])
		}
		a, b := v.GetLo().ConvertToFloat64(), v.GetHi().ConvertToFloat64()
		// k = float64(int32(x·log2e)), rounded to nearest even as CVTSD2SL does; + 0 turns a -0 into the +0 that the
		// integer conversion gives.
		ka := a.Mul(archsimd.LoadFloat64x4(&expF64Log2E)).RoundToEven().Add(archsimd.LoadFloat64x4(&expF64Zero))
		kb := b.Mul(archsimd.LoadFloat64x4(&expF64Log2E)).RoundToEven().Add(archsimd.LoadFloat64x4(&expF64Zero))
		// -(k·c) + r, as VFNMADD231SD, is (-k)·c + r, one rounding.
		na, nb := ka.Mul(archsimd.LoadFloat64x4(&expF64MinusOne)), kb.Mul(archsimd.LoadFloat64x4(&expF64MinusOne))
		ra := na.MulAdd(archsimd.LoadFloat64x4(&expF64Ln2U), a)
		rb := nb.MulAdd(archsimd.LoadFloat64x4(&expF64Ln2U), b)
		ra = na.MulAdd(archsimd.LoadFloat64x4(&expF64Ln2L), ra)
		rb = nb.MulAdd(archsimd.LoadFloat64x4(&expF64Ln2L), rb)
		ra, rb = ra.Mul(archsimd.LoadFloat64x4(&expF64Sixteen1)), rb.Mul(archsimd.LoadFloat64x4(&expF64Sixteen1))
		pa := archsimd.LoadFloat64x4(&expF64Taylor[0]).MulAdd(ra, archsimd.LoadFloat64x4(&expF64Taylor[1]))
		pb := archsimd.LoadFloat64x4(&expF64Taylor[0]).MulAdd(rb, archsimd.LoadFloat64x4(&expF64Taylor[1]))
		for t := 2; t < len(expF64Taylor); t++ {
			pa = pa.MulAdd(ra, archsimd.LoadFloat64x4(&expF64Taylor[t]))
			pb = pb.MulAdd(rb, archsimd.LoadFloat64x4(&expF64Taylor[t]))
		}
		two := archsimd.LoadFloat64x4(&expF64Two)
		ya, yb := ra.Mul(pa), rb.Mul(pb)
		for range 3 {
			ya, yb = ya.Mul(ya.Add(two)), yb.Mul(yb.Add(two))
		}
		ya = ya.MulAdd(ya.Add(two), archsimd.LoadFloat64x4(&expF64One))
		yb = yb.MulAdd(yb.Add(two), archsimd.LoadFloat64x4(&expF64One))
		ya = ya.Mul(ka.Add(archsimd.LoadFloat64x4(&expF64Magic)).AsUint64x4().ShiftAllLeft(52).AsFloat64x4())
		yb = yb.Mul(kb.Add(archsimd.LoadFloat64x4(&expF64Magic)).AsUint64x4().ShiftAllLeft(52).AsFloat64x4())
		inf, zero := archsimd.LoadFloat64x4(&expF64PosInf), archsimd.LoadFloat64x4(&expF64Zero)
		hi, lo := archsimd.LoadFloat64x4(&expF64Hi), archsimd.LoadFloat64x4(&expF64Lo)
		ya = a.Merge(zero.Merge(inf.Merge(ya, a.Greater(hi)), a.Less(lo)), a.IsNaN())
		yb = b.Merge(zero.Merge(inf.Merge(yb, b.Greater(hi)), b.Less(lo)), b.IsNaN())
		res := v.SetLo(ya.ConvertToFloat32()).SetHi(yb.ConvertToFloat32())
		if i+8 <= n {
			res.StoreSlice(out[i : i+8])
		} else {
			res.StoreSlicePart(out[i:])
		}
	}
	archsimd.ClearAVXUpperBits() // scalar float code next (workerspool.ClearVectorState says why)
}
