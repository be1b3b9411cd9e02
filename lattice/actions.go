package lattice

import (
	"fmt"
	"strconv"
	"strings"
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
					return nil, fmt.Errorf("experts.Permutation: row %d of the mask of %s on dims %v has more than one 1 (columns %d and %d)", i, a, dims, perm[i], j)
				}
				perm[i] = j
			default:
				return nil, fmt.Errorf("experts.Permutation: the mask of %s on dims %v is not binary: element (%d, %d) = %g", a, dims, i, j, v)
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
				actions = append(actions, DiagonalReflection{AxisA: a, AxisB: b}, DiagonalReflection{AxisA: a, AxisB: b, Anti: true})
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

// ---------------------------------------------------------------------------------------------------
// Mask, Apply and String of each action.

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
		return nil, fmt.Errorf("experts.Translation.Mask(%s): %d deltas for a lattice of rank %d (dims %v)", t, len(t.Deltas), len(dims), dims)
	}
	return actKronAxes(dims, func(a, l int) *Matrix { return TranslationMask1D(l, t.Deltas[a]) }), nil
}

// Apply implements Action: input cell c moves to output cell (c + Deltas) mod dims.
func (t Translation) Apply(dims []int, x []float64, feat int) ([]float64, error) {
	if _, err := actCheckTensor(dims, x, feat); err != nil {
		return nil, fmt.Errorf("experts.Translation.Apply(%s): %w", t, err)
	}
	if len(t.Deltas) != len(dims) {
		return nil, fmt.Errorf("experts.Translation.Apply(%s): %d deltas for a lattice of rank %d (dims %v)", t, len(t.Deltas), len(dims), dims)
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
		return nil, fmt.Errorf("lattice.Shift.Mask(%s): %d deltas for a lattice of rank %d (dims %v)", t, len(t.Deltas), len(dims), dims)
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
		return nil, fmt.Errorf("lattice.Shift.Apply(%s): %d deltas for a lattice of rank %d (dims %v)", t, len(t.Deltas), len(dims), dims)
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

// ---------------------------------------------------------------------------------------------------
// Lattice helpers.

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
		return 0, fmt.Errorf("x has %d values, want %d = %d cells (dims %v) x %d features", len(x), n*feat, n, dims, feat)
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
		return 0, fmt.Errorf("axes %d and %d must have equal lengths, lattice dims %v has %d and %d", a, b, dims, dims[a], dims[b])
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
