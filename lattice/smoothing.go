// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import "math"

// HeatKernel returns exp(-t L) for the graph Laplacian L = D - A of the undirected graph with the given
// symmetric adjacency matrix: the heat-diffusion (graph convolution) kernel used for mask smoothing
// (Section 4.2). Row i is the distribution after diffusing a unit of heat from vertex i for time t; rows
// sum to 1. Computed by scaling and squaring of the Taylor series, in float64.
func HeatKernel(adjacency *Matrix, t float64) *Matrix {
	n := adjacency.Rows
	lap := NewMatrix(n, n)
	for i := range n {
		var deg float64
		for j := range n {
			a := adjacency.At(i, j)
			deg += a
			lap.Set(i, j, -a)
		}
		lap.Set(i, i, lap.At(i, i)+deg)
	}
	// exp(-tL) = (exp(-tL/2^s))^(2^s), with ||tL/2^s|| <= 0.5 and a 20-term Taylor series.
	var norm float64
	for _, v := range lap.Data {
		norm = max(norm, math.Abs(v))
	}
	norm *= float64(n) * t
	s := 0
	for norm > 0.5 {
		norm /= 2
		s++
	}
	x := lap.Clone()
	scale := -t / math.Pow(2, float64(s))
	for i := range x.Data {
		x.Data[i] *= scale
	}
	result := IdentityMatrix(n)
	term := IdentityMatrix(n)
	for k := 1; k <= 20; k++ {
		term = term.MatMul(x)
		for i := range term.Data {
			term.Data[i] /= float64(k)
		}
		for i := range result.Data {
			result.Data[i] += term.Data[i]
		}
	}
	for range s {
		result = result.MatMul(result)
	}
	return result
}

// CycleAdjacency returns the adjacency matrix of the cycle graph C_n: the Cayley graph of the cyclic
// group of translations of an n-cell axis (or of the 4 rotations, n = 4) with the primitive action as
// generator. For n = 2 the two vertices are joined by one edge.
func CycleAdjacency(n int) *Matrix {
	a := NewMatrix(n, n)
	if n < 2 {
		return a
	}
	for i := range n {
		a.Set(i, (i+1)%n, 1)
		a.Set((i+1)%n, i, 1)
	}
	return a
}

// CycleHeatKernel returns HeatKernel(CycleAdjacency(n), t): a circulant matrix whose row i is the
// discrete Gaussian centred on i, the smoothing kernel of translations along an n-cell axis and (n = 4)
// of rotations in C4 (Figure 4).
func CycleHeatKernel(n int, t float64) *Matrix {
	return HeatKernel(CycleAdjacency(n), t)
}
