// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import "fmt"

// TranslationMask1D returns the l x l circulant mask M_T^(δ) of a circular translation by delta cells
// along a 1-D lattice (Section 3.2): row i has its 1 in column (i - delta) mod l, so the masked
// attention of x is (x_{l-δ}, ..., x_{l-1}, x_0, ..., x_{l-1-δ}) ("shift right by δ"). Negative deltas
// shift left. Its Fourier shift is o_k = -δ (Table 1).
func TranslationMask1D(l, delta int) *Matrix {
	m := NewMatrix(l, l)
	for i := range l {
		m.Set(i, mod(i-delta, l), 1)
	}
	return m
}

// ShiftMask1D returns the l x l mask of the zero-fill shift by delta cells of a 1-D lattice: row i has
// its 1 in column i - delta when that is inside 0..l-1, and is all zero otherwise (the cells shifted in
// from outside). It is TranslationMask1D(l, delta) with the rows that wrap around zeroed; for |delta| >= l
// it is all zero. Same-sign shifts compose by adding: ShiftMask1D(l, a)·ShiftMask1D(l, b) =
// ShiftMask1D(l, a+b) for a, b >= 0 (or both <= 0).
func ShiftMask1D(l, delta int) *Matrix {
	m := NewMatrix(l, l)
	for i := range l {
		if j := i - delta; j >= 0 && j < l {
			m.Set(i, j, 1)
		}
	}
	return m
}

// ReflectionMask1D returns the l x l anti-identity mask M_F that reverses a 1-D lattice: row i has its
// 1 in column l-1-i (Appendix C, "Reflection"; Table 1).
func ReflectionMask1D(l int) *Matrix {
	m := NewMatrix(l, l)
	for i := range l {
		m.Set(i, l-1-i, 1)
	}
	return m
}

// UpscaleMask1D returns the l x l mask M_S^(h) of up-scaling a 1-D lattice by the integer factor h >= 1:
// row i has its 1 in column floor(i/h), so the output is (x_0, ..., x_0, x_1, ..., x_1, ...) with every
// element repeated h times and the result cut to l cells (Appendix C, "Scaling"). Its transpose is the
// down-scaling mask, whose row j attends to the h cells j*h, ..., j*h+h-1; rows j >= ceil(l/h) of the
// transpose are all zero (nothing lands there).
func UpscaleMask1D(l, h int) *Matrix {
	if h < 1 {
		panic(fmt.Sprintf("experts.UpscaleMask1D: factor must be >= 1, got %d", h))
	}
	m := NewMatrix(l, l)
	for i := range l {
		m.Set(i, i/h, 1)
	}
	return m
}

// Rotation90Mask2D returns the l^2 x l^2 mask M_R^(90) of a 90° counter-clockwise rotation of an l x l
// square lattice (row-major): output cell (i, j) reads input cell (j, l-1-i), as NumPy's rot90. Its
// Fourier shift is given in Table 1 (see FourierShift).
func Rotation90Mask2D(l int) *Matrix {
	n := l * l
	m := NewMatrix(n, n)
	for i := range l {
		for j := range l {
			m.Set(i*l+j, j*l+(l-1-i), 1)
		}
	}
	return m
}

// mod returns a mod n in [0, n).
func mod(a, n int) int {
	r := a % n
	if r < 0 {
		r += n
	}
	return r
}

// GridReflectionMask1D returns the l x l mask that reverses the first e cells of a 1-D lattice and
// leaves the others in place: row i < e has its 1 in column e-1-i, row i >= e in column i. With e = l it
// is ReflectionMask1D.
func GridReflectionMask1D(l, e int) *Matrix {
	m := NewMatrix(l, l)
	for i := range l {
		if i < e {
			m.Set(i, e-1-i, 1)
		} else {
			m.Set(i, i, 1)
		}
	}
	return m
}

// GridTranslationMask1D returns the l x l mask of the circular translation by delta of the first e cells
// of a 1-D lattice, the others left in place: row i < e has its 1 in column (i-delta) mod e, row i >= e in
// column i. With e = l it is TranslationMask1D.
func GridTranslationMask1D(l, e, delta int) *Matrix {
	m := NewMatrix(l, l)
	for i := range l {
		if i < e {
			m.Set(i, mod(i-delta, e), 1)
		} else {
			m.Set(i, i, 1)
		}
	}
	return m
}
