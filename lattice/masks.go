// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"strings"
)

// Mask, Apply and String of each action: Mask builds the n x n matrix M_g of Table 1 (Theorem 2's
// Kronecker products where the action factors over axes), Apply computes g·x directly on a row-major
// tensor, and String names the element.

// Mask implements Action: I_n.
func (IdentityAction) Mask(dims []int) (*Matrix, error) {
	n, err := actLatticeSize(dims)
	if err != nil {
		return nil, fmt.Errorf("experts.IdentityAction.Mask: %w", err)
	}
	return IdentityMatrix(n), nil
}

// Apply implements Action: a copy of x.
func (IdentityAction) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.IdentityAction.Apply: %w", err)
	}
	return append([]float64(nil), x...), nil
}

// String implements Action.
func (IdentityAction) String() string { return "identity" }

// Mask implements Action: ⊗_a TranslationMask1D(dims[a], Deltas[a]) (Theorem 2).
func (t Translation) Mask(dims []int) (*Matrix, error) {
	if _, err := actLatticeSize(dims); err != nil {
		return nil, fmt.Errorf("experts.Translation.Mask(%s): %w", t, err)
	}
	if len(t.Deltas) != len(dims) {
		return nil, fmt.Errorf("experts.Translation.Mask(%s): %d deltas for a lattice of rank %d (dims %v)", t,
			len(t.Deltas), len(dims), dims)
	}
	return actKronAxes(dims, func(a, l int) *Matrix { return TranslationMask1D(l, t.Deltas[a]) }), nil
}

// Apply implements Action: input cell c moves to output cell (c + Deltas) mod dims.
func (t Translation) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.Translation.Apply(%s): %w", t, err)
	}
	if len(t.Deltas) != len(dims) {
		return nil, fmt.Errorf("experts.Translation.Apply(%s): %d deltas for a lattice of rank %d (dims %v)", t,
			len(t.Deltas), len(dims), dims)
	}
	return actScatter(dims, x, feat, func(in, out []int) bool {
		for a, c := range in {
			out[a] = mod(c+t.Deltas[a], dims[a])
		}
		return true
	}), nil
}

// String implements Action, e.g. "translate(1,-2)".
func (t Translation) String() string { return "translate(" + actJoinInts(t.Deltas) + ")" }

// Mask implements Action: ⊗_a ShiftMask1D(dims[a], Deltas[a]).
func (t Shift) Mask(dims []int) (*Matrix, error) {
	if _, err := actLatticeSize(dims); err != nil {
		return nil, fmt.Errorf("lattice.Shift.Mask(%s): %w", t, err)
	}
	if len(t.Deltas) != len(dims) {
		return nil, fmt.Errorf("lattice.Shift.Mask(%s): %d deltas for a lattice of rank %d (dims %v)", t,
			len(t.Deltas), len(dims), dims)
	}
	return actKronAxes(dims, func(a, l int) *Matrix { return ShiftMask1D(l, t.Deltas[a]) }), nil
}

// Apply implements Action: input cell c moves to output cell c + Deltas if that is inside the lattice
// (and is lost otherwise); output cells nothing moves to are zero.
func (t Shift) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("lattice.Shift.Apply(%s): %w", t, err)
	}
	if len(t.Deltas) != len(dims) {
		return nil, fmt.Errorf("lattice.Shift.Apply(%s): %d deltas for a lattice of rank %d (dims %v)", t,
			len(t.Deltas), len(dims), dims)
	}
	return actScatter(dims, x, feat, func(in, out []int) bool {
		inside := true
		for a, c := range in {
			out[a] = c + t.Deltas[a]
			inside = inside && out[a] >= 0 && out[a] < dims[a]
		}
		return inside
	}), nil
}

// String implements Action, e.g. "shift(1,-2)".
func (t Shift) String() string { return "shift(" + actJoinInts(t.Deltas) + ")" }

// Mask implements Action: an explicit permutation of the cells of the whole lattice, with output (i, j)
// of the plane reading (j, l-1-i) for one quarter turn, (l-1-i, l-1-j) for two and (l-1-j, i) for three.
func (r Rotation) Mask(dims []int) (*Matrix, error) {
	l, err := actCheckPlane(dims, r.AxisA, r.AxisB)
	if err != nil {
		return nil, fmt.Errorf("experts.Rotation.Mask(%s): %w", r, err)
	}
	q := mod(r.Quarter, 4)
	return actPermutationMask(dims, func(out, in []int) {
		copy(in, out)
		i, j := out[r.AxisA], out[r.AxisB]
		switch q {
		case 1:
			in[r.AxisA], in[r.AxisB] = j, l-1-i
		case 2:
			in[r.AxisA], in[r.AxisB] = l-1-i, l-1-j
		case 3:
			in[r.AxisA], in[r.AxisB] = l-1-j, i
		}
	}), nil
}

// Apply implements Action: Quarter (mod 4) successive quarter turns, each moving input cell (a, b) of the
// plane to output cell (l-1-b, a).
func (r Rotation) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.Rotation.Apply(%s): %w", r, err)
	}
	l, err := actCheckPlane(dims, r.AxisA, r.AxisB)
	if err != nil {
		return nil, fmt.Errorf("experts.Rotation.Apply(%s): %w", r, err)
	}
	y := append([]float64(nil), x...)
	for range mod(r.Quarter, 4) {
		y = actScatter(dims, y, feat, func(in, out []int) bool {
			copy(out, in)
			out[r.AxisA], out[r.AxisB] = l-1-in[r.AxisB], in[r.AxisA]
			return true
		})
	}
	return y, nil
}

// String implements Action, e.g. "rot90(0,1)x1".
func (r Rotation) String() string {
	return fmt.Sprintf("rot90(%d,%d)x%d", r.AxisA, r.AxisB, r.Quarter)
}

// Mask implements Action: I ⊗ ... ⊗ ReflectionMask1D(dims[Axis]) ⊗ ... ⊗ I (Theorem 2).
func (f Reflection) Mask(dims []int) (*Matrix, error) {
	if err := actCheckAxis(dims, f.Axis); err != nil {
		return nil, fmt.Errorf("experts.Reflection.Mask(%s): %w", f, err)
	}
	return actKronAxes(dims, func(a, l int) *Matrix {
		if a == f.Axis {
			return ReflectionMask1D(l)
		}
		return IdentityMatrix(l)
	}), nil
}

// Apply implements Action: output cell c reads c with c[Axis] -> l-1-c[Axis].
func (f Reflection) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.Reflection.Apply(%s): %w", f, err)
	}
	if err := actCheckAxis(dims, f.Axis); err != nil {
		return nil, fmt.Errorf("experts.Reflection.Apply(%s): %w", f, err)
	}
	return actScatter(dims, x, feat, func(in, out []int) bool {
		copy(out, in)
		out[f.Axis] = dims[f.Axis] - 1 - in[f.Axis]
		return true
	}), nil
}

// String implements Action, e.g. "reflect(0)".
func (f Reflection) String() string { return fmt.Sprintf("reflect(%d)", f.Axis) }

// Mask implements Action: an explicit permutation of the cells of the whole lattice, with output (i, j)
// of the plane reading (j, i) (main diagonal) or (l-1-j, l-1-i) (anti-diagonal).
func (d DiagonalReflection) Mask(dims []int) (*Matrix, error) {
	l, err := actCheckPlane(dims, d.AxisA, d.AxisB)
	if err != nil {
		return nil, fmt.Errorf("experts.DiagonalReflection.Mask(%s): %w", d, err)
	}
	return actPermutationMask(dims, func(out, in []int) {
		copy(in, out)
		i, j := out[d.AxisA], out[d.AxisB]
		if d.Anti {
			in[d.AxisA], in[d.AxisB] = l-1-j, l-1-i
		} else {
			in[d.AxisA], in[d.AxisB] = j, i
		}
	}), nil
}

// Apply implements Action: input cell (a, b) of the plane moves to (b, a) (main diagonal) or
// (l-1-b, l-1-a) (anti-diagonal).
func (d DiagonalReflection) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.DiagonalReflection.Apply(%s): %w", d, err)
	}
	l, err := actCheckPlane(dims, d.AxisA, d.AxisB)
	if err != nil {
		return nil, fmt.Errorf("experts.DiagonalReflection.Apply(%s): %w", d, err)
	}
	return actScatter(dims, x, feat, func(in, out []int) bool {
		copy(out, in)
		a, b := in[d.AxisA], in[d.AxisB]
		if d.Anti {
			out[d.AxisA], out[d.AxisB] = l-1-b, l-1-a
		} else {
			out[d.AxisA], out[d.AxisB] = b, a
		}
		return true
	}), nil
}

// String implements Action: "transpose(a,b)" or "antitranspose(a,b)".
func (d DiagonalReflection) String() string {
	name := "transpose"
	if d.Anti {
		name = "antitranspose"
	}
	return fmt.Sprintf("%s(%d,%d)", name, d.AxisA, d.AxisB)
}

// Mask implements Action: ⊗_a UpscaleMask1D(dims[a], Factors[a]) (Theorem 2, Appendix C "Scaling").
func (u Upscale) Mask(dims []int) (*Matrix, error) {
	if err := actCheckFactors(dims, u.Factors); err != nil {
		return nil, fmt.Errorf("experts.Upscale.Mask(%s): %w", u, err)
	}
	return actKronAxes(dims, func(a, l int) *Matrix { return UpscaleMask1D(l, u.Factors[a]) }), nil
}

// Apply implements Action: output cell c reads input cell floor(c / Factors).
func (u Upscale) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	n, err := actCheckTensor(dims, x, feat)
	if err != nil {
		return nil, fmt.Errorf("experts.Upscale.Apply(%s): %w", u, err)
	}
	if err := actCheckFactors(dims, u.Factors); err != nil {
		return nil, fmt.Errorf("experts.Upscale.Apply(%s): %w", u, err)
	}
	y := make([]float64, len(x))
	c, src := make([]int, len(dims)), make([]int, len(dims))
	for i := range n {
		actUnflatten(dims, i, c)
		for a := range c {
			src[a] = c[a] / u.Factors[a]
		}
		j := actFlatten(dims, src)
		copy(y[i*feat:(i+1)*feat], x[j*feat:(j+1)*feat])
	}
	return y, nil
}

// String implements Action, e.g. "upscale(2,3)".
func (u Upscale) String() string { return "upscale(" + actJoinInts(u.Factors) + ")" }

// Mask implements Action: ⊗_a UpscaleMask1D(dims[a], Factors[a])^T, the transpose of Upscale's mask.
func (d Downscale) Mask(dims []int) (*Matrix, error) {
	if err := actCheckFactors(dims, d.Factors); err != nil {
		return nil, fmt.Errorf("experts.Downscale.Mask(%s): %w", d, err)
	}
	return actKronAxes(dims, func(a, l int) *Matrix { return UpscaleMask1D(l, d.Factors[a]).Transpose() }), nil
}

// Apply implements Action: output cell c is the mean of the existing input cells c*h ... c*h+h-1 (per
// axis), 0 if there are none.
func (d Downscale) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	n, err := actCheckTensor(dims, x, feat)
	if err != nil {
		return nil, fmt.Errorf("experts.Downscale.Apply(%s): %w", d, err)
	}
	if err := actCheckFactors(dims, d.Factors); err != nil {
		return nil, fmt.Errorf("experts.Downscale.Apply(%s): %w", d, err)
	}
	sum := make([]float64, len(x))
	count := make([]int, n)
	c, dst := make([]int, len(dims)), make([]int, len(dims))
	for i := range n { // every input cell i contributes to the output cell of its block.
		actUnflatten(dims, i, c)
		for a := range c {
			dst[a] = c[a] / d.Factors[a]
		}
		j := actFlatten(dims, dst)
		count[j]++
		for f := range feat {
			sum[j*feat+f] += x[i*feat+f]
		}
	}
	for j := range n {
		if count[j] > 0 {
			for f := range feat {
				sum[j*feat+f] /= float64(count[j])
			}
		}
	}
	return sum, nil
}

// String implements Action, e.g. "downscale(2,3)".
func (d Downscale) String() string { return "downscale(" + actJoinInts(d.Factors) + ")" }

// Mask implements Action: M_{g_1} M_{g_2} ... M_{g_k}.
func (c actComposition) Mask(dims []int) (*Matrix, error) {
	var m *Matrix
	for _, a := range c.actions {
		ma, err := a.Mask(dims)
		if err != nil {
			return nil, fmt.Errorf("experts.Compose(%s).Mask: %w", c, err)
		}
		if m == nil {
			m = ma
		} else {
			m = m.MatMul(ma)
		}
	}
	return m, nil
}

// Apply implements Action: g_k first, g_1 last.
func (c actComposition) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	y := x
	for k := len(c.actions) - 1; k >= 0; k-- {
		var err error
		y, err = c.actions[k].Apply(dims, y, feat)
		if err != nil {
			return nil, fmt.Errorf("experts.Compose(%s).Apply: %w", c, err)
		}
	}
	return y, nil
}

// String implements Action: "g1∘g2∘...".
func (c actComposition) String() string {
	parts := make([]string, len(c.actions))
	for i, a := range c.actions {
		parts[i] = a.String()
	}
	return strings.Join(parts, "∘")
}
