// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
)

// Action is an element g of the symmetry group G_m of an m-dimensional hypercubic lattice (translations,
// 4-fold rotations, axis and diagonal reflections; Theorem 1) or a scaling of the lattice (Section 3.3,
// Appendix C "Scaling"). It acts on a row-major tensor of shape dims (see the package documentation for
// the layout convention).
type Action interface {
	// Mask returns the n x n attention mask M_g of the action on a lattice of the given dims (n = product
	// of dims): row i has its 1 in the column of the input cell that output cell i reads, so that the
	// masked attention with M_g is M_g X = g·X (Theorem 1, Appendix C base case). It returns an error
	// if g is not defined on that lattice (axis out of range, rotation of axes of different lengths,
	// scaling factor < 1, ...).
	Mask(dims []int) (*Matrix, error)

	// Apply applies g directly to a row-major tensor x of shape dims + [feat] (len(x) = n*feat) by
	// coordinate arithmetic, independently of Mask: it is the reference the masks are tested against.
	// The result has the same shape. For Downscale, output cell c is the mean of the input cells
	// c*h ... c*h+h-1 (per axis) that exist, and 0 if that block is empty.
	Apply(dims []int, x []float64, feat int) ([]float64, error)

	// String returns a short description, e.g. "translate(1,-2)", "rot90(0,1)x1", "reflect(0)",
	// "transpose(0,1)", "antitranspose(0,1)", "upscale(2,3)", "downscale(2,3)", "identity", and
	// "a∘b" for compositions.
	String() string
}

// IdentityAction is the identity element of G_m: its mask is I_n (Table 1, "Identity") and Apply
// returns a copy of its input. It is defined on every lattice.
type IdentityAction struct{}

// Translation is the circular translation by Deltas[a] cells along each axis a (len(Deltas) must equal
// the lattice rank): output cell c reads input cell (c - Deltas) mod dims. Its mask is the Kronecker
// product of the 1-D circulant masks TranslationMask1D(dims[a], Deltas[a]) (Theorem 2; Table 1,
// "Translation", o_k = -δ). Deltas may be negative or larger than the axis length.
type Translation struct{ Deltas []int }

// Shift is the zero-fill translation by Deltas[a] cells along each axis a: output cell c reads input
// cell c - Deltas when that is inside the lattice, and nothing otherwise (Apply writes zeros there). Its
// mask is the Kronecker product of the 1-D masks ShiftMask1D(dims[a], Deltas[a]): the circular
// Translation's mask with the rows of the shifted-in cells zeroed.
//
// A Shift is not a group element: it is not invertible (the cells shifted out are lost), so Theorem 1's
// group structure and Theorem 2's Fourier-shift form (a circulant mask) do not apply to it, while the
// Kronecker factorization over axes does. In masked attention an all-zero mask row makes the output cell
// zero (layers.MaskedAttentionCore's guard): a shifted-in cell receives no input, and the layer's residual
// and feed-forward network decide what it becomes. ARC needs it wherever a grid moves on a canvas whose
// other cells must not wrap around onto it (overlays of two halves of a grid, objects pushed to a side).
type Shift struct{ Deltas []int }

// Rotation is Quarter counter-clockwise 90° turns (taken mod 4, any int) in the plane of the two axes
// AxisA (row-like) and AxisB (column-like), which must be distinct and have the same length l. For
// Quarter = 1 output cell (i, j) of the plane reads input cell (j, l-1-i), as NumPy's
// rot90(x, 1, axes=(AxisA, AxisB)); the other axes are untouched. The axes need not be adjacent. On a
// 2-D l x l lattice Rotation{0, 1, 1} has mask Rotation90Mask2D(l), whose Fourier shift is in Table 1
// ("Rotation (90°)"). Its mask is built as an explicit coordinate permutation of the whole lattice.
type Rotation struct{ AxisA, AxisB, Quarter int }

// Reflection reverses the lattice along Axis: output cell c reads the input cell with c[Axis] replaced
// by l-1-c[Axis]. Its mask is I ⊗ ... ⊗ ReflectionMask1D(l) ⊗ ... ⊗ I (Theorem 2; Table 1,
// "Reflection"; Appendix C).
type Reflection struct{ Axis int }

// DiagonalReflection is the reflection about the main diagonal (Anti = false: output (i, j) of the
// plane of AxisA and AxisB reads input (j, i), a transpose) or the anti-diagonal (Anti = true: output
// (i, j) reads input (l-1-j, l-1-i)) of the square plane of two distinct axes of equal length l (the
// "diagonal reflections" of Theorem 1). Its mask is built as an explicit coordinate permutation. As
// group elements, transpose = Rotation{A,B,1} ∘ Reflection{B} and antitranspose = Rotation{A,B,1} ∘
// Reflection{A}.
type DiagonalReflection struct {
	AxisA, AxisB int
	Anti         bool
}

// Upscale is the up-scaling of the lattice by the integer factor Factors[a] >= 1 along each axis a
// (len(Factors) must equal the lattice rank): output cell c reads input cell floor(c / Factors), and
// the result is cut to the same dims. Its mask is the Kronecker product of UpscaleMask1D(dims[a],
// Factors[a]), the M_S^(h) of Appendix C ("Scaling"; Table 1, "Upscaling", see FourierShift for the
// sign erratum).
type Upscale struct{ Factors []int }

// Downscale is the down-scaling of the lattice by the integer factor Factors[a] >= 1 along each axis:
// its mask is the transpose of Upscale{Factors}'s mask (the paper: down-scaling is the transpose of
// up-scaling), i.e. the Kronecker product of UpscaleMask1D(dims[a], Factors[a])^T. Row j of that mask
// has a 1 on each of the cells of the block j*h ... j*h+h-1 (per axis) that exist, so its rows do not
// have a single 1 and rows of empty blocks (j >= ceil(l/h)) are zero; the masked attention of
// Section 3.1, which renormalizes rows, turns it into the block mean that Apply computes. It is the
// left inverse of Upscale on the cells j < ceil(l/h).
type Downscale struct{ Factors []int }

// actComposition is g_1 ∘ g_2 ∘ ... ∘ g_k (apply the last first).
type actComposition struct{ actions []Action }

// Compose returns the composition g_1 ∘ g_2 ∘ ... ∘ g_k of the given actions: the LAST one is applied
// first. Its Mask is the matrix product M_{g_1} M_{g_2} ... M_{g_k} (Table 1 caption: "Composition of
// actions is given by matrix multiplication of the masks"), and Apply applies g_k, then g_{k-1}, ...,
// then g_1. Compose() is the identity and Compose(g) is g.
func Compose(actions ...Action) Action {
	switch len(actions) {
	case 0:
		return IdentityAction{}
	case 1:
		return actions[0]
	}
	return actComposition{actions: append([]Action(nil), actions...)}
}

// Parts returns the actions a composes, g_1, ..., g_k of a = g_1 ∘ ... ∘ g_k (nested compositions
// flattened, so no part is a composition), or [a] when a is not a composition.
func Parts(a Action) []Action {
	c, ok := a.(actComposition)
	if !ok {
		return []Action{a}
	}
	var out []Action
	for _, g := range c.actions {
		out = append(out, Parts(g)...)
	}
	return out
}

// Permutation returns, for an action a whose mask on dims is a permutation (every action of G_m and
// Upscale: exactly one 1 per row), perm with perm[i] = the column of the single 1 in row i of
// a.Mask(dims), i.e. the flat index of the input cell that output cell i reads. Gathering the rows of a
// row-major n x d tensor with perm applies a. It returns an error if the mask is not defined on dims or
// if a row does not have exactly one 1 (e.g. Downscale with a factor > 1).
func Permutation(a Action, dims []int) ([]int, error) {
	m, err := a.Mask(dims)
	if err != nil {
		return nil, err
	}
	perm := make([]int, m.Rows)
	for i := range m.Rows {
		perm[i] = -1
		for j := range m.Cols {
			switch v := m.At(i, j); v {
			case 0:
			case 1:
				if perm[i] >= 0 {
					return nil, fmt.Errorf("experts.Permutation: row %d of the mask of %s on dims %v "+
						"has more than one 1 (columns %d and %d)", i, a, dims, perm[i], j)
				}
				perm[i] = j
			default:
				return nil, fmt.Errorf("experts.Permutation: the mask of %s on dims %v is not binary: "+
					"element (%d, %d) = %g", a, dims, i, j, v)
			}
		}
		if perm[i] < 0 {
			return nil, fmt.Errorf("experts.Permutation: row %d of the mask of %s on dims %v has no 1", i, a, dims)
		}
	}
	return perm, nil
}

// AllActions returns a list of actions covering every kind defined on the lattice dims, for tests of
// Theorem 1 (every mask has one 1 per row and implements its action): the identity; every translation
// whose per-axis deltas are taken from {0, 1, l-1, -2} (all combinations over the axes, duplicates
// removed); Rotation with Quarter 1, 2 and 3 for every pair of axes of equal length; every Reflection;
// both DiagonalReflections for every pair of axes of equal length; Upscale and Downscale with factor 2
// and 3 on each single axis, with factor 2 on all axes and, on lattices of rank >= 2, a mixed one with
// factors 2, 3, 2, 3, ... . It returns nil if dims is not a valid lattice.
func AllActions(dims []int) []Action {
	if _, err := actLatticeSize(dims); err != nil {
		return nil
	}
	rank := len(dims)
	actions := []Action{IdentityAction{}}

	// Translations: Cartesian product of per-axis delta sets.
	perAxis := make([][]int, rank)
	for a, l := range dims {
		seen := map[int]bool{}
		for _, d := range []int{0, 1, l - 1, -2} {
			if !seen[d] {
				seen[d] = true
				perAxis[a] = append(perAxis[a], d)
			}
		}
	}
	deltas := make([]int, rank)
	var rec func(a int)
	rec = func(a int) {
		if a == rank {
			actions = append(actions, Translation{Deltas: append([]int(nil), deltas...)})
			return
		}
		for _, d := range perAxis[a] {
			deltas[a] = d
			rec(a + 1)
		}
	}
	rec(0)

	for a := range rank {
		for b := a + 1; b < rank; b++ {
			if dims[a] == dims[b] {
				for q := 1; q <= 3; q++ {
					actions = append(actions, Rotation{AxisA: a, AxisB: b, Quarter: q})
				}
			}
		}
	}
	for a := range rank {
		actions = append(actions, Reflection{Axis: a})
	}
	for a := range rank {
		for b := a + 1; b < rank; b++ {
			if dims[a] == dims[b] {
				actions = append(actions, DiagonalReflection{AxisA: a, AxisB: b},
					DiagonalReflection{AxisA: a, AxisB: b, Anti: true})
			}
		}
	}

	var factorSets [][]int
	for a := range rank {
		for _, h := range []int{2, 3} {
			f := actOnes(rank)
			f[a] = h
			factorSets = append(factorSets, f)
		}
	}
	if rank >= 2 {
		all2, mixed := actOnes(rank), actOnes(rank)
		for a := range rank {
			all2[a] = 2
			mixed[a] = 2 + a%2
		}
		factorSets = append(factorSets, all2, mixed)
	}
	for _, f := range factorSets {
		actions = append(actions, Upscale{Factors: f})
	}
	for _, f := range factorSets {
		actions = append(actions, Downscale{Factors: append([]int(nil), f...)})
	}
	return actions
}
