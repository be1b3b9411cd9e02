// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// theorem1Lattices are the lattices of the Theorem 1 tests: 1-D, square, non-square 2-D and 3-D, plus
// two 3-D lattices with equal-length axes (adjacent and not) so that 3-D rotations and diagonal
// reflections are covered too.
var theorem1Lattices = [][]int{{7}, {5, 5}, {4, 6}, {3, 4, 5}, {3, 3, 3}, {4, 3, 4}}

// actTestMatX returns the product of the n x n matrix m with the n x feat row-major tensor x.
func actTestMatX(m *Matrix, x []float64, feat int) []float64 {
	y := make([]float64, m.Rows*feat)
	for i := range m.Rows {
		for j := range m.Cols {
			if v := m.At(i, j); v != 0 {
				for f := range feat {
					y[i*feat+f] += v * x[j*feat+f]
				}
			}
		}
	}
	return y
}

func actTestMaxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

func actTestRandom(rng *rand.Rand, size int) []float64 {
	x := make([]float64, size)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

func actTestProd(dims []int) int {
	n := 1
	for _, l := range dims {
		n *= l
	}
	return n
}

// TestActionTheorem1 checks Theorem 1 for every action of AllActions on 1-D, 2-D and 3-D lattices: the
// mask is binary with exactly one 1 per row and its masked attention M X equals the action applied by
// coordinate arithmetic; for Downscale, the row-normalized mask is the block mean and is the left
// inverse of up-scaling on the cells j < ceil(l/h).
func TestActionTheorem1(t *testing.T) {
	const feat = 3
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dims := range theorem1Lattices {
		n := actTestProd(dims)
		actions := AllActions(dims)
		if len(actions) == 0 {
			t.Fatalf("AllActions(%v) is empty", dims)
		}
		kinds := map[string]int{}
		var worst float64
		for _, a := range actions {
			name := a.String()
			kinds[strings.SplitN(name, "(", 2)[0]]++
			m, err := a.Mask(dims)
			if err != nil {
				t.Fatalf("%s.Mask(%v): %v", name, dims, err)
			}
			if m.Rows != n || m.Cols != n {
				t.Fatalf("%s.Mask(%v) is %dx%d, want %dx%d", name, dims, m.Rows, m.Cols, n, n)
			}
			for _, v := range m.Data {
				if v != 0 && v != 1 {
					t.Fatalf("%s.Mask(%v) is not binary: has %g", name, dims, v)
				}
			}
			x := actTestRandom(rng, n*feat)
			if down, ok := a.(Downscale); ok {
				checkDownscale(t, dims, down, m, x, feat)
				continue
			}
			for i := range n {
				var s float64
				for j := range n {
					s += m.At(i, j)
				}
				if s != 1 {
					t.Fatalf("%s.Mask(%v): row %d has %g ones, want exactly 1", name, dims, i, s)
				}
			}
			want, err := a.Apply(dims, x, feat)
			if err != nil {
				t.Fatalf("%s.Apply(%v): %v", name, dims, err)
			}
			d := actTestMaxDiff(actTestMatX(m, x, feat), want)
			worst = max(worst, d)
			if d > 1e-12 {
				t.Errorf("%s on %v: max |M X - g·X| = %g", name, dims, d)
			}
		}
		t.Logf("dims %v (n=%d): %d actions %v, max |M X - g·X| = %g", dims, n, len(actions), kinds, worst)
	}
}

// checkDownscale checks that the row-normalized Downscale mask computes the block means of Apply, and
// that it is the left inverse of Upscale on the cells whose coordinates are all < ceil(l/h).
func checkDownscale(t *testing.T, dims []int, down Downscale, m *Matrix, x []float64, feat int) {
	t.Helper()
	n := actTestProd(dims)
	normalized := m.Clone()
	for i := range n {
		var s float64
		for j := range n {
			s += m.At(i, j)
		}
		for j := range n {
			if s == 0 {
				normalized.Set(i, j, 0)
			} else {
				normalized.Set(i, j, m.At(i, j)/s)
			}
		}
	}
	mean, err := down.Apply(dims, x, feat)
	if err != nil {
		t.Fatalf("%s.Apply(%v): %v", down, dims, err)
	}
	if d := actTestMaxDiff(actTestMatX(normalized, x, feat), mean); d > 1e-12 {
		t.Errorf("%s on %v: max |normalize(M) X - mean blocks| = %g", down, dims, d)
	}
	up, err := Upscale{Factors: down.Factors}.Apply(dims, x, feat)
	if err != nil {
		t.Fatalf("upscale Apply: %v", err)
	}
	back := actTestMatX(normalized, up, feat)
	c := make([]int, len(dims))
	checked := 0
	for j := range n {
		actUnflatten(dims, j, c)
		inside := true
		for a := range c {
			h := down.Factors[a]
			if c[a] >= (dims[a]+h-1)/h {
				inside = false
			}
		}
		if !inside {
			continue
		}
		checked++
		for f := range feat {
			if d := math.Abs(back[j*feat+f] - x[j*feat+f]); d > 1e-12 {
				t.Fatalf("%s on %v: down(up(X)) differs from X at cell %v by %g", down, dims, c, d)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("%s on %v: no cell checked", down, dims)
	}
}

// TestRotationMatchesRotation90Mask2D checks that Rotation{0,1,1} on an l x l lattice is exactly the
// primitive Rotation90Mask2D(l) of Table 1, and that Permutation reads it back: the 1 of each row.
func TestRotationMatchesRotation90Mask2D(t *testing.T) {
	for l := 1; l <= 7; l++ {
		m, err := Rotation{AxisA: 0, AxisB: 1, Quarter: 1}.Mask([]int{l, l})
		if err != nil {
			t.Fatal(err)
		}
		if d := m.MaxAbsDiff(Rotation90Mask2D(l)); d != 0 {
			t.Errorf("l=%d: Rotation{0,1,1} differs from Rotation90Mask2D by %g", l, d)
		}
		perm, err := Permutation(Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, []int{l, l})
		if err != nil {
			t.Fatal(err)
		}
		// perm[k] is the column of the 1 in row k of the mask: output cell k reads input cell perm[k].
		for k := range perm {
			if got := m.At(k, perm[k]); got != 1 {
				t.Fatalf("l=%d: Permutation[%d] = %d, but the mask's row %d has %g there", l, k, perm[k], k, got)
			}
		}
	}
}

// TestPermutationGathersApply checks that gathering the cells with Permutation applies the action, and
// that Permutation refuses masks that are not permutations (Downscale).
func TestPermutationGathersApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const feat = 2
	count := 0
	for _, dims := range theorem1Lattices {
		n := actTestProd(dims)
		for _, a := range AllActions(dims) {
			perm, err := Permutation(a, dims)
			if _, isDown := a.(Downscale); isDown {
				isIdentity := true
				for _, h := range a.(Downscale).Factors {
					isIdentity = isIdentity && h == 1
				}
				if err == nil && !isIdentity {
					t.Errorf("Permutation(%s, %v) should fail", a, dims)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Permutation(%s, %v): %v", a, dims, err)
			}
			x := actTestRandom(rng, n*feat)
			got := make([]float64, n*feat)
			for i, j := range perm {
				copy(got[i*feat:(i+1)*feat], x[j*feat:(j+1)*feat])
			}
			want, err := a.Apply(dims, x, feat)
			if err != nil {
				t.Fatal(err)
			}
			if d := actTestMaxDiff(got, want); d != 0 {
				t.Errorf("%s on %v: gather(perm) differs from Apply by %g", a, dims, d)
			}
			count++
		}
	}
	if _, err := Permutation(Downscale{Factors: []int{2}}, []int{5}); err == nil {
		t.Errorf("Permutation(downscale(2)) on [5] should fail")
	} else {
		t.Logf("Permutation(downscale(2), [5]) error: %v", err)
	}
	if count < 200 {
		t.Errorf("%d permutations checked, want at least 200 (AllActions on %d lattices)", count, len(theorem1Lattices))
	}
	t.Logf("%d permutations checked", count)
}

// TestComposeMaskIsProduct checks that the mask of a composition is the product of the masks
// (M_{g∘h} = M_g M_h, Table 1 caption) and that Apply of the composition applies the last action first.
func TestComposeMaskIsProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const feat = 3
	for _, tc := range []struct {
		dims []int
		step int // use every step-th action of AllActions, to bound the cost.
	}{{[]int{7}, 1}, {[]int{5, 5}, 1}, {[]int{4, 6}, 1}, {[]int{3, 4, 5}, 7}} {
		n := actTestProd(tc.dims)
		all := AllActions(tc.dims)
		var sub []Action
		for i := 0; i < len(all); i += tc.step {
			sub = append(sub, all[i])
		}
		pairs, triples := 0, 0
		for _, a := range sub {
			ma, _ := a.Mask(tc.dims)
			for _, b := range sub {
				mb, _ := b.Mask(tc.dims)
				c := Compose(a, b)
				mc, err := c.Mask(tc.dims)
				if err != nil {
					t.Fatalf("%s.Mask(%v): %v", c, tc.dims, err)
				}
				if d := mc.MaxAbsDiff(ma.MatMul(mb)); d != 0 {
					t.Fatalf("%s on %v: Mask differs from the product by %g", c, tc.dims, d)
				}
				x := actTestRandom(rng, n*feat)
				bx, _ := b.Apply(tc.dims, x, feat)
				want, _ := a.Apply(tc.dims, bx, feat)
				got, err := c.Apply(tc.dims, x, feat)
				if err != nil {
					t.Fatal(err)
				}
				if d := actTestMaxDiff(got, want); d != 0 {
					t.Fatalf("%s on %v: Apply differs from a.Apply(b.Apply(x)) by %g", c, tc.dims, d)
				}
				_, aDown := a.(Downscale)
				_, bDown := b.(Downscale)
				if !aDown && !bDown {
					if d := actTestMaxDiff(actTestMatX(mc, x, feat), got); d > 1e-12 {
						t.Fatalf("%s on %v: M X differs from Apply by %g", c, tc.dims, d)
					}
				}
				pairs++
			}
		}
		// A few triple compositions of permutations: Compose(a, b, c) = a∘b∘c.
		for i := 0; i+2 < len(sub); i += 3 {
			a, b, c := sub[i], sub[i+1], sub[i+2]
			comp := Compose(a, b, c)
			mc, err := comp.Mask(tc.dims)
			if err != nil {
				t.Fatal(err)
			}
			ma, _ := a.Mask(tc.dims)
			mb, _ := b.Mask(tc.dims)
			mcc, _ := c.Mask(tc.dims)
			if d := mc.MaxAbsDiff(ma.MatMul(mb).MatMul(mcc)); d != 0 {
				t.Fatalf("%s on %v: Mask differs from the product by %g", comp, tc.dims, d)
			}
			triples++
		}
		t.Logf("dims %v: %d pairs and %d triples checked", tc.dims, pairs, triples)
	}
	if s := Compose(Reflection{Axis: 0}, Translation{Deltas: []int{1, -2}}).String(); s != "reflect(0)∘translate(1,-2)" {
		t.Errorf("Compose String = %q", s)
	}
	if _, ok := Compose().(IdentityAction); !ok {
		t.Errorf("Compose() should be the identity")
	}
}

// TestRotationGroupIdentities checks relations of the lattice symmetry group on the masks: quarter turns
// compose additively mod 4, a half turn is the product of the two axis reflections, and the diagonal
// reflections are a quarter turn after an axis reflection: transpose(A,B) = rot90(A,B)x1 ∘ reflect(B),
// antitranspose(A,B) = rot90(A,B)x1 ∘ reflect(A). It also uses non-adjacent axes of 3-D lattices.
func TestRotationGroupIdentities(t *testing.T) {
	type plane struct {
		dims []int
		a, b int
	}
	planes := []plane{
		{[]int{1, 1}, 0, 1}, {[]int{2, 2}, 0, 1}, {[]int{5, 5}, 0, 1}, {[]int{6, 6}, 1, 0},
		{[]int{4, 3, 4}, 0, 2}, {[]int{3, 3, 3}, 0, 1}, {[]int{3, 3, 3}, 1, 2}, {[]int{2, 5, 3, 5}, 1, 3},
	}
	mask := func(a Action, dims []int) *Matrix {
		t.Helper()
		m, err := a.Mask(dims)
		if err != nil {
			t.Fatalf("%s.Mask(%v): %v", a, dims, err)
		}
		return m
	}
	checked := 0
	for _, p := range planes {
		n := actTestProd(p.dims)
		rot := func(q int) Action { return Rotation{AxisA: p.a, AxisB: p.b, Quarter: q} }
		identities := []struct {
			name        string
			left, right Action
		}{
			{"rot x4 = identity", rot(4), IdentityAction{}},
			{"rot x0 = identity", rot(0), IdentityAction{}},
			{"rot x-1 = rot x3", rot(-1), rot(3)},
			{"rot x5 = rot x1", rot(5), rot(1)},
			{"rot x1 ∘ rot x1 = rot x2", Compose(rot(1), rot(1)), rot(2)},
			{"rot x1 ∘ rot x3 = identity", Compose(rot(1), rot(3)), IdentityAction{}},
			{"rot x1^4 = identity", Compose(rot(1), rot(1), rot(1), rot(1)), IdentityAction{}},
			{"rot x2 = reflect(A) ∘ reflect(B)", rot(2), Compose(Reflection{Axis: p.a}, Reflection{Axis: p.b})},
			{"rot(B,A) x1 = rot(A,B) x3", Rotation{AxisA: p.b, AxisB: p.a, Quarter: 1}, rot(3)},
			{"transpose = rot x1 ∘ reflect(B)", DiagonalReflection{AxisA: p.a, AxisB: p.b}, Compose(rot(1), Reflection{Axis: p.b})},
			{"antitranspose = rot x1 ∘ reflect(A)", DiagonalReflection{AxisA: p.a, AxisB: p.b, Anti: true}, Compose(rot(1), Reflection{Axis: p.a})},
			{"antitranspose = reflect(A) ∘ transpose ∘ reflect(A)", DiagonalReflection{AxisA: p.a, AxisB: p.b, Anti: true},
				Compose(Reflection{Axis: p.a}, DiagonalReflection{AxisA: p.a, AxisB: p.b}, Reflection{Axis: p.a})},
			{"transpose ∘ transpose = identity", Compose(DiagonalReflection{AxisA: p.a, AxisB: p.b}, DiagonalReflection{AxisA: p.a, AxisB: p.b}), IdentityAction{}},
			{"transpose(A,B) = transpose(B,A)", DiagonalReflection{AxisA: p.a, AxisB: p.b}, DiagonalReflection{AxisA: p.b, AxisB: p.a}},
			{"reflect(A) ∘ rot x1 ∘ reflect(A) = rot x3", Compose(Reflection{Axis: p.a}, rot(1), Reflection{Axis: p.a}), rot(3)},
		}
		for _, id := range identities {
			if d := mask(id.left, p.dims).MaxAbsDiff(mask(id.right, p.dims)); d != 0 {
				t.Errorf("dims %v axes (%d,%d): %s fails: max diff %g", p.dims, p.a, p.b, id.name, d)
			}
			checked++
		}
		// Quarter turns against the NumPy rot90 reading on the plane: output (i,j) reads (j, l-1-i).
		if len(p.dims) == 2 && p.a == 0 {
			l := p.dims[0]
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(i)
			}
			y, err := rot(1).Apply(p.dims, x, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i := range l {
				for j := range l {
					if y[i*l+j] != x[j*l+(l-1-i)] {
						t.Fatalf("rot90 on %dx%d: y(%d,%d)=%g, want x(%d,%d)", l, l, i, j, y[i*l+j], j, l-1-i)
					}
				}
			}
		}
	}
	t.Logf("%d group identities checked on %d planes", checked, len(planes))
}

// TestActionErrors checks that actions undefined on a lattice return errors with context.
func TestActionErrors(t *testing.T) {
	for _, tc := range []struct {
		action Action
		dims   []int
		want   string // substring of the error
	}{
		{Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, []int{4, 6}, "[4 6]"},
		{DiagonalReflection{AxisA: 0, AxisB: 1}, []int{4, 6}, "[4 6]"},
		{Rotation{AxisA: 0, AxisB: 2, Quarter: 1}, []int{5, 5}, "axis 2 out of range"},
		{Rotation{AxisA: 1, AxisB: 1, Quarter: 1}, []int{5, 5}, "must differ"},
		{Rotation{AxisA: -1, AxisB: 1, Quarter: 1}, []int{5, 5}, "axis -1 out of range"},
		{Reflection{Axis: 2}, []int{5, 5}, "axis 2 out of range"},
		{Reflection{Axis: 1}, []int{7}, "axis 1 out of range"},
		{Translation{Deltas: []int{1}}, []int{5, 5}, "1 deltas for a lattice of rank 2"},
		{Upscale{Factors: []int{2, 0}}, []int{5, 5}, "factor 0 of axis 1"},
		{Downscale{Factors: []int{2}}, []int{5, 5}, "1 factors for a lattice of rank 2"},
		{IdentityAction{}, []int{}, "rank must be >= 1"},
		{Reflection{Axis: 0}, []int{3, 0}, "axis 1 has length 0"},
		{Compose(Reflection{Axis: 0}, Rotation{AxisA: 0, AxisB: 1, Quarter: 1}), []int{4, 6}, "[4 6]"},
	} {
		_, err := tc.action.Mask(tc.dims)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s.Mask(%v): error %v, want one containing %q", tc.action, tc.dims, err, tc.want)
			continue
		}
		n := max(actTestProd(tc.dims), 1)
		_, errApply := tc.action.Apply(tc.dims, make([]float64, n), 1)
		if errApply == nil {
			t.Errorf("%s.Apply(%v) should fail", tc.action, tc.dims)
		}
		t.Logf("%s on %v: %v", tc.action, tc.dims, err)
	}
	if _, err := (Reflection{Axis: 0}).Apply([]int{5}, make([]float64, 4), 1); err == nil {
		t.Errorf("Apply with a wrong-length x should fail")
	}
	if AllActions([]int{0}) != nil {
		t.Errorf("AllActions of an invalid lattice should be nil")
	}
}

// TestActionStrings checks the String forms of the actions.
func TestActionStrings(t *testing.T) {
	for _, tc := range []struct {
		a    Action
		want string
	}{
		{Translation{Deltas: []int{1, -2}}, "translate(1,-2)"},
		{Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, "rot90(0,1)x1"},
		{Reflection{Axis: 0}, "reflect(0)"},
		{DiagonalReflection{AxisA: 0, AxisB: 1}, "transpose(0,1)"},
		{DiagonalReflection{AxisA: 0, AxisB: 1, Anti: true}, "antitranspose(0,1)"},
		{Upscale{Factors: []int{2, 3}}, "upscale(2,3)"},
		{Downscale{Factors: []int{2, 3}}, "downscale(2,3)"},
		{IdentityAction{}, "identity"},
		{Compose(Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, Reflection{Axis: 1}), "rot90(0,1)x1∘reflect(1)"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// TestScaleMasksAreTransposes checks that the Downscale mask is the transpose of the Upscale mask and
// that both are Kronecker products of the 1-D primitives (Theorem 2's construction).
func TestScaleMasksAreTransposes(t *testing.T) {
	for _, tc := range []struct{ dims, factors []int }{
		{[]int{7}, []int{3}}, {[]int{5, 5}, []int{2, 3}}, {[]int{4, 6}, []int{1, 4}}, {[]int{3, 4, 5}, []int{2, 3, 2}},
	} {
		up, err := Upscale{Factors: tc.factors}.Mask(tc.dims)
		if err != nil {
			t.Fatal(err)
		}
		down, err := Downscale{Factors: tc.factors}.Mask(tc.dims)
		if err != nil {
			t.Fatal(err)
		}
		if d := down.MaxAbsDiff(up.Transpose()); d != 0 {
			t.Errorf("%v %v: Downscale mask is not Upscale^T (diff %g)", tc.dims, tc.factors, d)
		}
		want := UpscaleMask1D(tc.dims[0], tc.factors[0])
		for a := 1; a < len(tc.dims); a++ {
			want = Kron(want, UpscaleMask1D(tc.dims[a], tc.factors[a]))
		}
		if d := up.MaxAbsDiff(want); d != 0 {
			t.Errorf("%v %v: Upscale mask is not the Kronecker product (diff %g)", tc.dims, tc.factors, d)
		}
	}
}

// TestTranslationKronecker checks Theorem 2's inductive step on a 2-D translation: the mask of
// translate(d0,d1) is TranslationMask1D(l0,d0) ⊗ TranslationMask1D(l1,d1) and also the product of the
// per-axis translations (I ⊗ M_2)(M_1 ⊗ I).
func TestTranslationKronecker(t *testing.T) {
	dims := []int{4, 6}
	for d0 := -4; d0 <= 4; d0++ {
		for d1 := -6; d1 <= 6; d1++ {
			m, err := Translation{Deltas: []int{d0, d1}}.Mask(dims)
			if err != nil {
				t.Fatal(err)
			}
			k := Kron(TranslationMask1D(4, d0), TranslationMask1D(6, d1))
			p := Kron(TranslationMask1D(4, d0), IdentityMatrix(6)).MatMul(Kron(IdentityMatrix(4), TranslationMask1D(6, d1)))
			if m.MaxAbsDiff(k) != 0 || m.MaxAbsDiff(p) != 0 {
				t.Fatalf("translate(%d,%d) on %v is not the Kronecker product", d0, d1, dims)
			}
		}
	}
}

// TestShift checks the zero-fill translation: on 1-D, 2-D and 3-D lattices its mask applied to a tensor
// equals Apply (cells moved by Deltas, shifted-in cells zero), it is the circular translation's mask with
// the wrapped rows zeroed (every row has at most one 1, and a row is zero exactly for a shifted-in cell),
// and same-sign shifts compose by adding while opposite ones lose the cells that left.
func TestShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, dims := range theorem1Lattices {
		n := actTestProd(dims)
		for range 6 {
			deltas := make([]int, len(dims))
			for a, l := range dims {
				deltas[a] = rng.IntN(2*l+1) - l
			}
			s := Shift{Deltas: deltas}
			m, err := s.Mask(dims)
			if err != nil {
				t.Fatal(err)
			}
			x := actTestRandom(rng, n*2)
			want, err := s.Apply(dims, x, 2)
			if err != nil {
				t.Fatal(err)
			}
			if d := actTestMaxDiff(actTestMatX(m, x, 2), want); d > 0 {
				t.Errorf("%v on %v: mask and Apply differ by %g", s, dims, d)
			}
			circ, _ := Translation{Deltas: deltas}.Mask(dims)
			for i := range n {
				rowSum, same := 0.0, true
				for j := range n {
					rowSum += m.At(i, j)
					same = same && (m.At(i, j) == 0 || circ.At(i, j) == 1)
				}
				if rowSum > 1 || !same {
					t.Fatalf("%v on %v: row %d is not a row of the circular mask or zero", s, dims, i)
				}
			}
		}
	}
	for _, c := range []struct{ a, b int }{{1, 2}, {0, 3}, {-2, -1}, {4, 4}} {
		got := ShiftMask1D(7, c.a).MatMul(ShiftMask1D(7, c.b))
		if !got.Equal(ShiftMask1D(7, c.a+c.b), 0) {
			t.Errorf("shift %d then %d is not the shift by %d", c.b, c.a, c.a+c.b)
		}
	}
	if back := ShiftMask1D(5, -1).MatMul(ShiftMask1D(5, 1)); back.Equal(IdentityMatrix(5), 0) {
		t.Error("a shift and its opposite give the identity: the shifted-out cell should be lost")
	}
	if s := (Shift{Deltas: []int{1, -2}}).String(); s != "shift(1,-2)" {
		t.Errorf("String = %q", s)
	}
}

// TestParts checks that Parts lists a composition's actions in order, flattening nested compositions, and
// returns any other action alone; composing the parts again gives the same mask.
func TestParts(t *testing.T) {
	tr, fl, up := Translation{Deltas: []int{1, 2}}, Reflection{Axis: 1}, Upscale{Factors: []int{2, 1}}
	a := Compose(tr, Compose(fl, up))
	parts := Parts(a)
	if len(parts) != 3 || parts[0].String() != tr.String() || parts[1].String() != fl.String() || parts[2].String() != up.String() {
		t.Fatalf("Parts(%v) = %v, want [%v %v %v]", a, parts, tr, fl, up)
	}
	dims := []int{4, 6}
	m1, err1 := a.Mask(dims)
	m2, err2 := Compose(parts...).Mask(dims)
	if err1 != nil || err2 != nil || !slices.Equal(m1.Data, m2.Data) {
		t.Errorf("Compose(Parts(a)) has another mask than a (%v, %v)", err1, err2)
	}
	if p := Parts(fl); len(p) != 1 || p[0].String() != fl.String() {
		t.Errorf("Parts(%v) = %v, want the action alone", fl, p)
	}
}
