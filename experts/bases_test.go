// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"fmt"
	"testing"

	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

// denseMask is lattice's mask of a on the expert's canvas.
func denseMask(t *testing.T, e Expert, a lattice.Action) *lattice.Matrix {
	t.Helper()
	m, err := a.Mask([]int{e.Rows, e.Cols})
	if err != nil {
		t.Fatalf("%v.Mask on %dx%d: %v", a, e.Rows, e.Cols, err)
	}
	return m
}

// rawBases lists every setting of the non-translation gates of e, duplicates included.
func rawBases(e Expert) []Element {
	var out []Element
	for _, sr := range e.axisScalings() {
		for _, sc := range e.axisScalings() {
			for q := range 4 {
				for flips := range 4 {
					el := Element{Flip: [2]bool{flips&1 != 0, flips&2 != 0}, Quarter: q, Scale: [2]int{sr.factor, sc.factor}, Down: [2]bool{sr.down, sc.down}}
					if (q == 0 || (e.Rotation && e.Rows == e.Cols)) && (flips == 0 || e.Reflection) {
						out = append(out, el)
					}
				}
			}
		}
	}
	return out
}

// TestBases checks Expert.Bases against lattice's dense masks: the identity first, no two bases with
// the same mask, every setting of the non-translation gates has the mask of a base with at most its
// Parts (so flipping both axes gives way to the 180° rotation), and the dihedral group has exactly its
// 8 elements (4 without rotation) when scaling is off.
func TestBases(t *testing.T) {
	for _, dims := range [][2]int{{3, 3}, {4, 4}, {5, 5}, {3, 5}, {1, 4}} {
		for _, scaling := range []bool{true, false} {
			e := DefaultExpert(dims[0], dims[1])
			e.Scaling = scaling
			bases := e.Bases()
			name := fmt.Sprintf("%dx%d scaling=%v", dims[0], dims[1], scaling)
			if bases[0].Parts() != 0 || denseMask(t, e, e.ActionOf(bases[0])).MaxAbsDiff(lattice.IdentityMatrix(e.N())) != 0 {
				t.Fatalf("%s: first base %+v is not the identity", name, bases[0])
			}
			index := map[string]int{} // dense mask -> base
			for i, b := range bases {
				key := fmt.Sprint(denseMask(t, e, e.ActionOf(b)).Data)
				if j, dup := index[key]; dup {
					t.Fatalf("%s: bases %+v and %+v have the same mask", name, bases[j], b)
				}
				index[key] = i
				if i > 0 && b.Parts() < bases[i-1].Parts() {
					t.Fatalf("%s: bases not sorted by Parts at %d", name, i)
				}
			}
			raw := rawBases(e)
			for _, el := range raw {
				found, ok := index[fmt.Sprint(denseMask(t, e, e.ActionOf(el)).Data)]
				if !ok {
					t.Fatalf("%s: %+v (%v) has no base with its mask", name, el, e.ActionOf(el))
				}
				if bases[found].Parts() > el.Parts() {
					t.Fatalf("%s: %+v (%d parts) is kept as %+v (%d parts)", name, el, el.Parts(), bases[found], bases[found].Parts())
				}
			}
			t.Logf("%s: %d gate settings, %d bases", name, len(raw), len(bases))
			if scaling || dims[0] == 1 {
				continue
			}
			want := 4 // identity, flips of rows, of columns, of both
			if dims[0] == dims[1] {
				want = 8 // D4
			}
			if len(bases) != want {
				t.Errorf("%s: %d bases, want %d", name, len(bases), want)
			}
		}
	}
	e := DefaultExpert(4, 4)
	e.Scaling = false
	if n := len(e.Bases()); n < 8 {
		t.Fatalf("4x4: %d bases, want at least the 8 of the dihedral group", n)
	}
	for _, b := range e.Bases() {
		if b.Flip == [2]bool{true, true} {
			t.Errorf("4x4: the flip of both axes %+v is kept instead of the 180° rotation", b)
		}
	}
}

// TestElementRoundTrip is the proposal -> gates -> read-back round trip: for every base of the expert
// times translations of every kind (none, circular, zero-fill forwards and backwards, zero-fill on one
// axis and circular on the other), on a square and a non-square canvas, the hard gates set by
// LogitsFor(el, 3) and discretized by the graph (GatesFromLogits hard, DecodeGates, ElementOf) read
// back an element with the same mask, and the expert's dense hard mask equals lattice's mask of
// ActionOf(el) exactly.
func TestElementRoundTrip(t *testing.T) {
	backend := testutil.Backend(t)
	for _, dims := range [][2]int{{5, 5}, {4, 6}} {
		e := DefaultExpert(dims[0], dims[1])
		shifts := []struct {
			shift [2]int
			zero  [2]bool
		}{
			{[2]int{0, 0}, [2]bool{}},
			{[2]int{1, 2}, [2]bool{}},
			{[2]int{dims[0] - 1, dims[1] - 1}, [2]bool{}},
			{[2]int{2, -3}, [2]bool{true, true}},
			{[2]int{-1, 1}, [2]bool{true, true}},
			{[2]int{3, 4}, [2]bool{true, false}},
			{[2]int{1, -2}, [2]bool{false, true}},
		}
		var els []Element
		var logits [][]float32
		for _, b := range e.Bases() {
			for _, s := range shifts {
				el := b
				el.Shift, el.ZeroFill = s.shift, s.zero
				els = append(els, el)
				logits = append(logits, e.LogitsFor(el, 3))
			}
		}
		if len(els) < 8*len(shifts) {
			t.Fatalf("%d elements, want at least 8 bases x %d translations", len(els), len(shifts))
		}
		res, err := e.EvaluateLogits(backend, logits, true, false)
		if err != nil {
			t.Fatal(err)
		}
		for i, el := range els {
			want := denseMask(t, e, e.ActionOf(el))
			back := e.ElementOf(res.Gates[i])
			if d := denseMask(t, e, e.ActionOf(back)).MaxAbsDiff(want); d != 0 {
				t.Fatalf("%v: %+v (%v) reads back as %+v (%v)", dims, el, e.ActionOf(el), back, e.ActionOf(back))
			}
			if d := res.Masks[i].MaxAbsDiff(want); d != 0 {
				t.Fatalf("%v: the hard mask of %+v differs from lattice's mask of %v by %g", dims, el, e.ActionOf(el), d)
			}
			same, err := e.SameMask(e.ActionOf(el), res.Actions[i])
			if err != nil || !same {
				t.Fatalf("%v: SameMask(%v, %v) = %v, %v; want true", dims, e.ActionOf(el), res.Actions[i], same, err)
			}
		}
		t.Logf("%dx%d: %d elements (%d bases x %d translations) round-trip exactly", dims[0], dims[1], len(els), len(e.Bases()), len(shifts))
	}
}

// TestSameMask checks SameMask against the dense masks on pairs of different and equal actions.
func TestSameMask(t *testing.T) {
	e := DefaultExpert(4, 4)
	cases := []struct {
		a, b lattice.Action
		same bool
	}{
		{lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1}), lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2}, true},
		{lattice.Translation{Deltas: []int{4, 0}}, lattice.IdentityAction{}, true},
		{lattice.Translation{Deltas: []int{1, 0}}, lattice.Shift{Deltas: []int{1, 0}}, false},
		{lattice.Downscale{Factors: []int{2, 1}}, lattice.Downscale{Factors: []int{3, 1}}, false},
		{lattice.Upscale{Factors: []int{4, 1}}, lattice.Upscale{Factors: []int{5, 1}}, true}, // a 4-row axis: all rows read row 0
		{lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 3}, false},
	}
	for _, c := range cases {
		got, err := e.SameMask(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		dense := denseMask(t, e, c.a).MaxAbsDiff(denseMask(t, e, c.b)) == 0
		if got != c.same || dense != c.same {
			t.Errorf("SameMask(%v, %v) = %v, dense masks equal %v; want %v", c.a, c.b, got, dense, c.same)
		}
	}
}
