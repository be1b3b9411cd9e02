// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestAugmentationPermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	perms := AugmentationPermutations(rng, 10)
	if len(perms) != 10 {
		t.Fatalf("got %d permutations, want 10", len(perms))
	}
	if perms[0] != IdentityColors() {
		t.Fatalf("first permutation %v is not the identity", perms[0])
	}
	nonIdentity := 0
	for k, p := range perms {
		if err := p.Validate(); err != nil {
			t.Fatalf("permutation %d: %v", k, err)
		}
		if p[PadToken] != PadToken {
			t.Fatalf("permutation %d maps pad to %d", k, p[PadToken])
		}
		if p != IdentityColors() {
			nonIdentity++
		}
	}
	if nonIdentity != 9 {
		t.Errorf("%d of the 9 random permutations differ from the identity, want 9", nonIdentity)
	}
	again := AugmentationPermutations(rand.New(rand.NewPCG(1, 2)), 10)
	for k := range perms {
		if perms[k] != again[k] {
			t.Fatalf("permutation %d differs for the same rng seed", k)
		}
	}
	if got := AugmentationPermutations(rng, 0); got != nil {
		t.Errorf("copies=0: got %v, want nil", got)
	}
	if got := AugmentationPermutations(rng, 1); len(got) != 1 || got[0] != IdentityColors() {
		t.Errorf("copies=1: got %v, want [identity]", got)
	}
	t.Logf("10 permutations, first = identity, %d random non-identity, all valid", nonIdentity)
}

func TestRandomColorPermutationCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	const n = 1000
	var counts [NumColors][NumColors]int
	fixedPoints := 0
	for range n {
		p := RandomColorPermutation(rng)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for c := range NumColors {
			counts[c][p[c]]++
			if p[c] == int32(c) {
				fixedPoints++
			}
		}
	}
	lo, hi := n, 0
	for c := range NumColors {
		for d := range NumColors {
			lo, hi = min(lo, counts[c][d]), max(hi, counts[c][d])
		}
	}
	// Each count is Binomial(1000, 1/10): mean 100, standard deviation 9.5.
	if lo < 1 {
		t.Errorf("some color never maps to some color over %d permutations (min count %d)", n, lo)
	}
	if lo < 60 || hi > 140 {
		t.Errorf("counts of color c -> d range over [%d, %d], want within [60, 140] (mean 100)", lo, hi)
	}
	// Expected number of fixed points of a uniform permutation is 1 per permutation.
	if mean := float64(fixedPoints) / n; mean < 0.8 || mean > 1.2 {
		t.Errorf("mean fixed points per permutation %.3f, want about 1", mean)
	}
	t.Logf("%d permutations: count of every (color -> color) in [%d, %d] (expected 100), mean fixed points %.3f (expected 1)", n, lo, hi, float64(fixedPoints)/n)
}

func TestColorPermutationCanvasPreservesPad(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := RandomGrid(rng, 7, 5)
	c, err := ToCanvas(g, 30, 30)
	if err != nil {
		t.Fatal(err)
	}
	orig := append([]int32(nil), c.Cells...)
	p := RandomColorPermutation(rng)
	for p == IdentityColors() {
		p = RandomColorPermutation(rng)
	}
	m := p.Canvas(c)
	if m.Rows != 30 || m.Cols != 30 || len(m.Cells) != 900 {
		t.Fatalf("mapped canvas is %dx%d with %d cells", m.Rows, m.Cols, len(m.Cells))
	}
	pads, changed := 0, 0
	for i, v := range c.Cells {
		if (v == PadToken) != (m.Cells[i] == PadToken) {
			t.Fatalf("cell %d: pad status changed (%d -> %d)", i, v, m.Cells[i])
		}
		if v == PadToken {
			pads++
		} else if m.Cells[i] != p[v] {
			t.Fatalf("cell %d: %d mapped to %d, want %d", i, v, m.Cells[i], p[v])
		}
		if m.Cells[i] != v {
			changed++
		}
	}
	if pads != 900-35 {
		t.Errorf("%d pad cells, want %d", pads, 900-35)
	}
	for i := range orig {
		if orig[i] != c.Cells[i] {
			t.Fatalf("Canvas modified its input at cell %d", i)
		}
	}
	mg, ok := m.Grid()
	if !ok || !mg.Equal(p.Grid(g)) {
		t.Fatalf("grid of the mapped canvas (ok=%v)\n%v\ndiffers from the mapped grid\n%v", ok, mg, p.Grid(g))
	}
	if back := p.Inverse().Canvas(m); !slices.Equal(back.Cells, c.Cells) {
		t.Fatal("the inverse permutation does not restore the canvas")
	}
	// In-place Apply, and the length check.
	buf := append([]int32(nil), c.Cells...)
	p.Apply(buf, buf)
	if !slices.Equal(buf, m.Cells) {
		t.Fatal("in-place Apply differs from Canvas")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Apply with len(dst) != len(src) did not panic")
			}
		}()
		p.Apply(make([]int32, 3), make([]int32, 4))
	}()
	var bad ColorPermutation = IdentityColors()
	bad[3] = 4
	if bad.Validate() == nil {
		t.Error("Validate accepted a non-bijection")
	}
	bad = IdentityColors()
	bad[PadToken], bad[0] = 0, PadToken
	if bad.Validate() == nil {
		t.Error("Validate accepted a permutation that moves the pad")
	}
	t.Logf("7x5 grid on 30x30: %d pad cells preserved, %d cells changed color", pads, changed)
}

func TestNoisyOneHot(t *testing.T) {
	for _, w := range []float64{0, 0.2, 0.4, 0.6, 1} {
		for tok := int32(0); tok < NumTokens; tok++ {
			v, err := NoisyOneHot(tok, w)
			if err != nil {
				t.Fatalf("token %d, w %g: %v", tok, w, err)
			}
			if len(v) != NumTokens {
				t.Fatalf("length %d, want %d", len(v), NumTokens)
			}
			sum := 0.0
			for i, x := range v {
				sum += x
				want := w
				if int32(i) == tok {
					want = 1 // (1-w)·1 + w
				}
				if math.Abs(x-want) > 1e-12 {
					t.Fatalf("token %d, w %g: entry %d = %g, want %g", tok, w, i, x, want)
				}
			}
			// (1-w)·1 + w·NumTokens = 1 + (NumTokens-1)·w = 1 + 10w.
			if want := 1 + float64(NumTokens-1)*w; math.Abs(sum-want) > 1e-12 {
				t.Fatalf("token %d, w %g: sum %g, want %g", tok, w, sum, want)
			}
		}
		t.Logf("w=%.1f: sum = %.1f = 1 + 10w for all 11 tokens", w, 1+10*w)
	}
	for _, w := range []float64{-0.1, 1.1, math.NaN(), math.Inf(1)} {
		if _, err := NoisyOneHot(0, w); err == nil {
			t.Errorf("w = %g: no error", w)
		}
	}
	for _, tok := range []int32{-1, NumTokens} {
		if _, err := NoisyOneHot(tok, 0.5); err == nil {
			t.Errorf("token %d: no error", tok)
		}
	}
}

// TestAugmentationPermutationsWith checks the restricted augmentation: black stays black with KeepBlack,
// only the task's colors move (among themselves) with Colors, every permutation is valid, the first is the
// identity, and the zero options reproduce AugmentationPermutations.
func TestAugmentationPermutationsWith(t *testing.T) {
	task := []Canvas{{Rows: 1, Cols: 4, Cells: []int32{0, 3, 7, PadToken}}, {Rows: 1, Cols: 2, Cells: []int32{3, 5}}}
	colors := TaskColors(task...)
	if fmt.Sprint(colors) != "[0 3 5 7]" {
		t.Fatalf("TaskColors = %v, want [0 3 5 7]", colors)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	moved := map[int32]bool{}
	for _, p := range AugmentationPermutationsWith(rng, 200, AugmentOptions{KeepBlack: true, Colors: colors}) {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for c := range int32(NumColors) {
			inTask := c == 3 || c == 5 || c == 7
			if !inTask && p[c] != c {
				t.Fatalf("%v moves color %d, which is black or not in the task", p, c)
			}
			if inTask && !(p[c] == 3 || p[c] == 5 || p[c] == 7) {
				t.Fatalf("%v maps task color %d outside the task's colors", p, c)
			}
			if p[c] != c {
				moved[c] = true
			}
		}
	}
	if len(moved) != 3 {
		t.Errorf("colors ever moved: %v, want 3, 5 and 7", moved)
	}
	for _, p := range AugmentationPermutationsWith(rand.New(rand.NewPCG(5, 6)), 50, AugmentOptions{KeepBlack: true}) {
		if p[0] != 0 {
			t.Fatalf("KeepBlack: %v moves black", p)
		}
	}
	a := AugmentationPermutationsWith(rand.New(rand.NewPCG(7, 8)), 10, AugmentOptions{})
	b := AugmentationPermutations(rand.New(rand.NewPCG(7, 8)), 10)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("zero options differ from AugmentationPermutations")
	}
	if got := AugmentationPermutationsWith(rng, 3, AugmentOptions{KeepBlack: true}); got[0] != IdentityColors() {
		t.Error("the first permutation is not the identity")
	}
}

// TestAugmentFixedColors checks that OutputOnlyColors finds the colors that only the outputs have, and
// that Fixed colors are never moved nor taken by another color, while every other color still moves.
func TestAugmentFixedColors(t *testing.T) {
	inputs := []Canvas{{Rows: 1, Cols: 3, Cells: []int32{0, 1, 5}}, {Rows: 1, Cols: 2, Cells: []int32{1, PadToken}}}
	outputs := []Canvas{{Rows: 1, Cols: 3, Cells: []int32{0, 2, 1}}, {Rows: 1, Cols: 2, Cells: []int32{8, PadToken}}}
	fixed := OutputOnlyColors(inputs, outputs)
	if fmt.Sprint(fixed) != "[2 8]" {
		t.Fatalf("OutputOnlyColors = %v, want [2 8]", fixed)
	}
	moved := map[int32]bool{}
	for _, p := range AugmentationPermutationsWith(rand.New(rand.NewPCG(9, 10)), 300, AugmentOptions{KeepBlack: true, Fixed: fixed}) {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for c := range int32(NumColors) {
			if p[c] != c {
				moved[c] = true
			}
			if c != 2 && c != 8 && (p[c] == 2 || p[c] == 8) {
				t.Fatalf("%v maps color %d onto the fixed color %d", p, c, p[c])
			}
		}
		if p[0] != 0 || p[2] != 2 || p[8] != 8 {
			t.Fatalf("%v moves black or a fixed color", p)
		}
	}
	if len(moved) != 7 {
		t.Errorf("colors ever moved: %v, want the 7 that are neither black nor fixed", moved)
	}
}
