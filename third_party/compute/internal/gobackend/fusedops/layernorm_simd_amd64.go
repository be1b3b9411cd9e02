// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// The vector rows repeat layerNormTrailingAxesRows4's float32 operations one by one (each multiply and add
// separate), so they are only built where the scalar code is compiled without fused multiply-adds: GOAMD64 v1
// and v2 (with amd64.v3 the compiler fuses the variance's d*d + v).

//go:build amd64 && goexperiment.simd && !amd64.v3

package fusedops

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend/ops"
	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	layerNormRows8Float32 = layerNormRows8Float32AVX2
}

// laneIota8 holds the lane numbers, for the masks of rows' last partial vectors (layer norm, softmax).
var laneIota8 = [8]int32{0, 1, 2, 3, 4, 5, 6, 7}

// layerNormRows8Float32AVX2 normalizes the rows of in (rows of normSize >= 8 values) 8 at a time, the rows in
// vector lanes for the sums: each 8x8 tile transposed once (ops.Transpose8x8Words32) so that a column of the 8 rows
// is a vector, the sum and then the sum of squared differences added in column order from zero, the mean and
// variance divided by normSize, the
// inverse standard deviation 1/sqrt(variance + epsilon) in float64 and rounded to float32, then each row
// normalized along its values: ((x - mean) * invStd) * gamma + beta. Every operation is the scalar code's, in its
// order, so the same bits. It returns how many rows it did (a multiple of 8; 0 where normSize < 8); the caller does
// the rest.
func layerNormRows8Float32AVX2(in, out, gamma, beta []float32, normSize int, epsilon float64) int {
	rows := len(in) / normSize
	if normSize < 8 || rows < 8 {
		return 0
	}
	n := normSize
	full := n &^ 7
	// The 8 rows' columns as vectors, column j at cols[8j:8j+8]: each 8x8 tile transposed into place, the row's
	// last partial tile as the tile ending at the row's end (its first columns written again, with the same
	// values). Both passes read them.
	cols := make([]float32, 8*n)
	col := func(j int) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(cols[8*j : 8*j+8])) }
	colsBits := (*uint32)(unsafe.Pointer(&cols[0]))
	var nArr [8]float32
	for i := range nArr {
		nArr[i] = float32(n)
	}
	nF := archsimd.LoadFloat32x8(&nArr)
	eps := [4]float64{epsilon, epsilon, epsilon, epsilon}
	one := [4]float64{1, 1, 1, 1}
	tail := archsimd.LoadInt32x8(&laneIota8).Less(archsimd.BroadcastInt32x8(int32(n - full)))
	var means, invStds [8]float32
	r := 0
	for ; r+8 <= rows; r += 8 {
		src := unsafe.Pointer(&in[r*n])
		for c := 0; c < full; c += 8 {
			ops.Transpose8x8Words32((*uint32)(unsafe.Add(src, c*4)), n*4, (*uint32)(unsafe.Add(unsafe.Pointer(colsBits), c*32)), 32)
		}
		if full < n {
			ops.Transpose8x8Words32((*uint32)(unsafe.Add(src, (n-8)*4)), n*4, (*uint32)(unsafe.Add(unsafe.Pointer(colsBits), (n-8)*32)), 32)
		}
		// The row sums, then the sums of squared differences from the means, each in column order from zero.
		s := archsimd.LoadFloat32x8(&zeroFloat32x8)
		for j := range n {
			s = s.Add(col(j))
		}
		m := s.Div(nF)
		v := archsimd.LoadFloat32x8(&zeroFloat32x8)
		for j := range n {
			d := col(j).Sub(m)
			v = v.Add(d.Mul(d))
		}
		variance := v.Div(nF)
		invLo := archsimd.LoadFloat64x4(&one).Div(variance.GetLo().ConvertToFloat64().Add(archsimd.LoadFloat64x4(&eps)).Sqrt())
		invHi := archsimd.LoadFloat64x4(&one).Div(variance.GetHi().ConvertToFloat64().Add(archsimd.LoadFloat64x4(&eps)).Sqrt())
		variance.SetLo(invLo.ConvertToFloat32()).SetHi(invHi.ConvertToFloat32()).Store(&invStds)
		m.Store(&means)
		// Each row normalized along its values.
		for i := range 8 {
			row := unsafe.Pointer(&in[(r+i)*n])
			dst := unsafe.Pointer(&out[(r+i)*n])
			mv := archsimd.LoadFloat32x4SlicePart(means[i : i+1]).Broadcast1To8()
			sv := archsimd.LoadFloat32x4SlicePart(invStds[i : i+1]).Broadcast1To8()
			for j := 0; j < n; j += 8 {
				masked := j == full
				var x archsimd.Float32x8
				if masked {
					x = archsimd.LoadMaskedFloat32x8((*[8]float32)(unsafe.Add(row, j*4)), tail)
				} else {
					x = archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(row, j*4)))
				}
				y := x.Sub(mv).Mul(sv)
				if gamma != nil {
					if masked {
						y = y.Mul(archsimd.LoadMaskedFloat32x8((*[8]float32)(unsafe.Pointer(&gamma[j])), tail))
					} else {
						y = y.Mul(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&gamma[j]))))
					}
				}
				if beta != nil {
					if masked {
						y = y.Add(archsimd.LoadMaskedFloat32x8((*[8]float32)(unsafe.Pointer(&beta[j])), tail))
					} else {
						y = y.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&beta[j]))))
					}
				}
				if masked {
					y.StoreMasked((*[8]float32)(unsafe.Add(dst, j*4)), tail)
				} else {
					y.Store((*[8]float32)(unsafe.Add(dst, j*4)))
				}
			}
		}
	}
	archsimd.ClearAVXUpperBits() // scalar float code next (ops' vector-state note)
	return r
}
