// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"math"
	"strings"
)

// Matrix is a small dense row-major float64 matrix, used for the exact lattice masks and the frozen
// kernels of the mask experts. Element (i, j) is Data[i*Cols+j].
type Matrix struct {
	Rows, Cols int
	Data       []float64
}

// NewMatrix returns a zero rows x cols matrix.
func NewMatrix(rows, cols int) *Matrix {
	return &Matrix{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
}

// IdentityMatrix returns the n x n identity matrix I_n, the mask of the identity action.
func IdentityMatrix(n int) *Matrix {
	m := NewMatrix(n, n)
	for i := range n {
		m.Data[i*n+i] = 1
	}
	return m
}

// At returns element (i, j).
func (m *Matrix) At(i, j int) float64 { return m.Data[i*m.Cols+j] }

// Set sets element (i, j) to v.
func (m *Matrix) Set(i, j int, v float64) { m.Data[i*m.Cols+j] = v }

// Clone returns a deep copy of m.
func (m *Matrix) Clone() *Matrix {
	c := NewMatrix(m.Rows, m.Cols)
	copy(c.Data, m.Data)
	return c
}

// MatMul returns the matrix product m * b. It panics if the inner dimensions differ.
func (m *Matrix) MatMul(b *Matrix) *Matrix {
	if m.Cols != b.Rows {
		panic(fmt.Sprintf("experts.Matrix.MatMul: shapes %dx%d and %dx%d do not match", m.Rows, m.Cols, b.Rows, b.Cols))
	}
	out := NewMatrix(m.Rows, b.Cols)
	for i := range m.Rows {
		row := out.Data[i*b.Cols : (i+1)*b.Cols]
		for k := range m.Cols {
			a := m.Data[i*m.Cols+k]
			if a == 0 {
				continue
			}
			bRow := b.Data[k*b.Cols : (k+1)*b.Cols]
			for j, bv := range bRow {
				row[j] += a * bv
			}
		}
	}
	return out
}

// Transpose returns m^T.
func (m *Matrix) Transpose() *Matrix {
	t := NewMatrix(m.Cols, m.Rows)
	for i := range m.Rows {
		for j := range m.Cols {
			t.Data[j*m.Rows+i] = m.Data[i*m.Cols+j]
		}
	}
	return t
}

// Kron returns the Kronecker product a ⊗ b: element ((i1, i2), (j1, j2)) is a[i1, j1] * b[i2, j2], with
// the row-major index i1*b.Rows+i2 (see the package documentation for the layout convention).
func Kron(a, b *Matrix) *Matrix {
	out := NewMatrix(a.Rows*b.Rows, a.Cols*b.Cols)
	for i1 := range a.Rows {
		for j1 := range a.Cols {
			av := a.At(i1, j1)
			if av == 0 {
				continue
			}
			for i2 := range b.Rows {
				for j2 := range b.Cols {
					out.Set(i1*b.Rows+i2, j1*b.Cols+j2, av*b.At(i2, j2))
				}
			}
		}
	}
	return out
}

// MaxAbsDiff returns max |m - b| over all elements, or +Inf if the shapes differ.
func (m *Matrix) MaxAbsDiff(b *Matrix) float64 {
	if m.Rows != b.Rows || m.Cols != b.Cols {
		return math.Inf(1)
	}
	var d float64
	for i, v := range m.Data {
		d = max(d, math.Abs(v-b.Data[i]))
	}
	return d
}

// Equal reports whether m and b have the same shape and all elements within tol.
func (m *Matrix) Equal(b *Matrix, tol float64) bool { return m.MaxAbsDiff(b) <= tol }

// ASCII renders m as text, one line per row: '#' for values >= 0.5, '+' for values in [0.1, 0.5), '.'
// for smaller ones. Handy to look at a mask in a terminal.
func (m *Matrix) ASCII() string {
	var sb strings.Builder
	for i := range m.Rows {
		for j := range m.Cols {
			v := m.At(i, j)
			switch {
			case v >= 0.5:
				sb.WriteByte('#')
			case v >= 0.1:
				sb.WriteByte('+')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
