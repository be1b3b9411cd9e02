// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"strconv"
	"strings"
)

// Checks of lattice shapes and the index arithmetic of row-major cells, shared by the actions.

// actLatticeSize validates dims (rank >= 1, every length >= 1) and returns n = product of dims.
func actLatticeSize(dims []int) (int, error) {
	if len(dims) == 0 {
		return 0, fmt.Errorf("lattice dims %v: rank must be >= 1", dims)
	}
	n := 1
	for a, l := range dims {
		if l < 1 {
			return 0, fmt.Errorf("lattice dims %v: axis %d has length %d < 1", dims, a, l)
		}
		n *= l
	}
	return n, nil
}

// actCheckTensor validates dims and that x has shape dims + [feat]; it returns n.
func actCheckTensor(dims []int, x []float64, feat int) (int, error) {
	n, err := actLatticeSize(dims)
	if err != nil {
		return 0, err
	}
	if feat < 1 {
		return 0, fmt.Errorf("feat must be >= 1, got %d", feat)
	}
	if len(x) != n*feat {
		return 0, fmt.Errorf("x has %d values, want %d = %d cells (dims %v) x %d features",
			len(x), n*feat, n, dims, feat)
	}
	return n, nil
}

// actCheckAxis validates dims and that axis is one of its axes.
func actCheckAxis(dims []int, axis int) error {
	if _, err := actLatticeSize(dims); err != nil {
		return err
	}
	if axis < 0 || axis >= len(dims) {
		return fmt.Errorf("axis %d out of range for lattice dims %v (rank %d)", axis, dims, len(dims))
	}
	return nil
}

// actCheckPlane validates that a and b are distinct axes of dims of equal length, and returns that length.
func actCheckPlane(dims []int, a, b int) (int, error) {
	if err := actCheckAxis(dims, a); err != nil {
		return 0, err
	}
	if err := actCheckAxis(dims, b); err != nil {
		return 0, err
	}
	if a == b {
		return 0, fmt.Errorf("the two axes of the plane must differ, got %d and %d (lattice dims %v)", a, b, dims)
	}
	if dims[a] != dims[b] {
		return 0, fmt.Errorf("axes %d and %d must have equal lengths, lattice dims %v has %d and %d", a, b, dims,
			dims[a], dims[b])
	}
	return dims[a], nil
}

// actCheckFactors validates dims and one scaling factor >= 1 per axis.
func actCheckFactors(dims []int, factors []int) error {
	if _, err := actLatticeSize(dims); err != nil {
		return err
	}
	if len(factors) != len(dims) {
		return fmt.Errorf("%d factors for a lattice of rank %d (dims %v)", len(factors), len(dims), dims)
	}
	for a, h := range factors {
		if h < 1 {
			return fmt.Errorf("factor %d of axis %d must be >= 1 (lattice dims %v)", h, a, dims)
		}
	}
	return nil
}

// actKronAxes returns perAxis(0, dims[0]) ⊗ perAxis(1, dims[1]) ⊗ ... (row-major: axis 0 outermost).
func actKronAxes(dims []int, perAxis func(axis, l int) *Matrix) *Matrix {
	m := perAxis(0, dims[0])
	for a := 1; a < len(dims); a++ {
		m = Kron(m, perAxis(a, dims[a]))
	}
	return m
}

// actPermutationMask returns the n x n binary mask whose row i (output cell with coordinates out) has its
// 1 in the column of the input cell src(out) writes into in.
func actPermutationMask(dims []int, src func(out, in []int)) *Matrix {
	n, _ := actLatticeSize(dims)
	m := NewMatrix(n, n)
	out, in := make([]int, len(dims)), make([]int, len(dims))
	for i := range n {
		actUnflatten(dims, i, out)
		src(out, in)
		m.Set(i, actFlatten(dims, in), 1)
	}
	return m
}

// actScatter returns y with y[dst(c)] = x[c] for every input cell c that dst keeps (dst writes the
// destination's coordinates and returns false for a cell that leaves the lattice); cells nothing lands
// on are zero. dst must be injective on the cells it keeps.
func actScatter(dims []int, x []float64, feat int, dst func(in, out []int) bool) []float64 {
	n := len(x) / feat
	y := make([]float64, len(x))
	in, out := make([]int, len(dims)), make([]int, len(dims))
	for i := range n {
		actUnflatten(dims, i, in)
		if !dst(in, out) {
			continue
		}
		j := actFlatten(dims, out)
		copy(y[j*feat:(j+1)*feat], x[i*feat:(i+1)*feat])
	}
	return y
}

// actUnflatten writes the row-major coordinates of flat index i into c.
func actUnflatten(dims []int, i int, c []int) {
	for a := len(dims) - 1; a >= 0; a-- {
		c[a] = i % dims[a]
		i /= dims[a]
	}
}

// actFlatten returns the row-major flat index of coordinates c.
func actFlatten(dims []int, c []int) int {
	i := 0
	for a, l := range dims {
		i = i*l + c[a]
	}
	return i
}

func actOnes(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func actJoinInts(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}
