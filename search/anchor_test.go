// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// canvasOf places the rows (digits, '.' for pad) at the top-left of a rows x cols canvas.
func canvasOf(rows, cols int, lines ...string) datasets.Canvas {
	c := datasets.Canvas{Rows: rows, Cols: cols, Cells: make([]int32, rows*cols)}
	for i := range c.Cells {
		c.Cells[i] = datasets.PadToken
	}
	for r, l := range lines {
		for j, ch := range l {
			if ch != '.' {
				c.Cells[r*cols+j] = int32(ch - '0')
			}
		}
	}
	return c
}

// TestSelectionBoxes checks the anchors' boxes on hand-made grids: the background, the foreground, a
// color, the largest and smallest objects (8-connected, several colors) and one-color objects
// (4-connected), and the selections that read no box (a missing color, a tie).
// twoObjects is a 6 x 7 grid on a 7 x 8 canvas: a 2-3 block of 4 cells and two diagonal 4s.
func twoObjects() datasets.Canvas {
	return canvasOf(7, 8,
		"0000000",
		"0220000",
		"0230000",
		"0000400",
		"0000040",
		"0000000",
	)
}

func TestSelectionBoxes(t *testing.T) {
	x := twoObjects()
	cases := []struct {
		sel  Selection
		want Box
		ok   bool
	}{
		{sel("origin"), Box{0, 0, 1, 1}, true},
		{sel("grid"), Box{0, 0, 6, 7}, true},
		{sel("fg"), Box{1, 1, 4, 5}, true},
		{sel("color2"), Box{1, 1, 2, 2}, true},
		{sel("color4"), Box{3, 4, 2, 2}, true},
		{sel("color7"), Box{}, false},
		// 8-connected: the 2-3 block (4 cells) and the diagonal 4s (2 cells).
		{sel("largest"), Box{1, 1, 2, 2}, true},
		{sel("smallest"), Box{3, 4, 2, 2}, true},
		// One color, 4-connected: the three 2s, the 3 and each 4 alone: the 2s are the largest, the
		// smallest tie (three single cells).
		{sel("largest1"), Box{1, 1, 2, 2}, true},
		{sel("smallest1"), Box{}, false},
	}
	if bg := Background(x); bg != 0 {
		t.Fatalf("Background = %d, want 0", bg)
	}
	for _, c := range cases {
		got, ok := c.sel.BoxOf(x)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%v: box %+v, %v; want %+v, %v", c.sel, got, ok, c.want, c.ok)
		}
	}
	tie := canvasOf(3, 3, "10", "01")
	if bg := Background(tie); bg != -1 {
		t.Errorf("Background of a tie = %d, want -1", bg)
	}
}

// TestFrameRulePlacements checks where each placement puts a result: aligned edges with an offset, one
// step toward the reference, up against it, and in place on the axes where the boxes overlap.
func TestFrameRulePlacements(t *testing.T) {
	x := canvasOf(10, 10,
		"0000000000",
		"0220000000",
		"0220000000",
		"0000000000",
		"0000000000",
		"0000000000",
		"0000000550",
		"0000000550",
		"0000000000",
		"0000000000",
	)
	src, grey := sel("color2"), sel("color5")
	same := func(h, w int) (int, int) { return h, w }
	cases := []struct {
		rule   FrameRule
		dr, dc int
	}{
		{FrameRule{Src: src, Dst: sel("origin")}, 0, 0},
		// The result's last row and column on the grey block's last ones, one cell up.
		{FrameRule{Src: src, Dst: grey, Align: [2][2]bool{{true, true}, {true, true}}, Offset: [2]int{-1, 0}}, 5, 7},
		{FrameRule{Src: src, Dst: grey, Place: PlaceToward}, 2, 2},
		{FrameRule{Src: src, Dst: grey, Place: PlaceTouch}, 4, 5},
		{FrameRule{Src: src, Dst: sel("same"), Align: [2][2]bool{{false, false}, {true, true}}}, 1, 1},
	}
	for _, c := range cases {
		f, ok := c.rule.FrameOf(x, same)
		if !ok || f.R0 != 1 || f.C0 != 1 || f.H != 2 || f.W != 2 || f.DR != c.dr || f.DC != c.dc {
			t.Errorf("%v: frame %+v, %v; want the 2x2 box at (1, 1) placed at (%d, %d)", c.rule, f, ok, c.dr, c.dc)
		}
	}
	// Overlapping rows: touch moves along the columns only.
	y := canvasOf(6, 8, "22000055", "22000055", "00000000")
	f, ok := FrameRule{Src: src, Dst: grey, Place: PlaceTouch}.FrameOf(y, same)
	if !ok || f.DR != 0 || f.DC != 4 {
		t.Errorf("touch with overlapping rows: frame %+v, %v; want placed at (0, 4)", f, ok)
	}
}

// TestProposeAnchored checks the anchored search end to end on a task no canvas or grid element fits: an
// object moved to the grid's top-left corner, wherever it is. The top proposal predicts a test input
// whose object is elsewhere again, and the size-relative search finds nothing.
func TestProposeAnchored(t *testing.T) {
	ins := []datasets.Canvas{
		canvasOf(8, 8, "000000", "000000", "000340", "000300", "000000"),
		canvasOf(8, 8, "0000000", "0000000", "0000000", "0000000", "0000066", "0000006"),
		canvasOf(8, 8, "00000", "07000", "07700", "00000"),
	}
	outs := []datasets.Canvas{
		canvasOf(8, 8, "340000", "300000", "000000", "000000", "000000"),
		canvasOf(8, 8, "6600000", "0600000", "0000000", "0000000", "0000000", "0000000"),
		canvasOf(8, 8, "70000", "77000", "00000", "00000"),
	}
	test := canvasOf(8, 8, "0000000", "0000000", "0000000", "0000990", "0000000")
	want := canvasOf(8, 8, "9900000", "0000000", "0000000", "0000000", "0000000")
	group := Group{Bases: []lattice.Action{lattice.IdentityAction{}}, BaseCost: []int{0}, Grid: true}
	if props, err := Propose(ins, outs, group, 0); err != nil || len(props) != 0 {
		t.Fatalf("grid search: %d proposals (%v), want none", len(props), err)
	}
	group.Grid, group.Anchored = false, true
	props, err := Propose(ins, outs, group, 0)
	if err != nil || len(props) == 0 {
		t.Fatalf("anchored search: %d proposals (%v), want some", len(props), err)
	}
	rule, ok := props[0].Anchored()
	if !ok {
		t.Fatalf("top proposal %v is not anchored", props[0].Action)
	}
	got, ok, err := props[0].Generalize().Predict(test)
	if err != nil || !ok || !slices.Equal(got.Cells, want.Cells) {
		t.Errorf("top proposal %v: predicts %v (ok %v, %v), want %v", rule, got.Cells, ok, err, want.Cells)
	}
}

// TestObjectColors checks the colors of the object a selection picks: the non-background colors inside its
// box for the object selections, none for the others.
func TestObjectColors(t *testing.T) {
	x := twoObjects()
	cases := []struct {
		sel  Selection
		want []int
		ok   bool
	}{
		{sel("largest"), []int{2, 3}, true},
		{sel("smallest"), []int{4}, true},
		{sel("largest1"), []int{2, 3}, true}, // the 2s' box holds the 3
		{sel("smallest1"), nil, false},       // a tie
		{sel("fg"), nil, false},
		{sel("grid"), nil, false},
		{sel("color2"), nil, false},
	}
	for _, c := range cases {
		got, ok := c.sel.ObjectColors(x)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%v: %v %v, want %v %v", c.sel, got, ok, c.want, c.ok)
		}
	}
}

// TestObjectSelections checks the selections that pick one object by a property, on hand-made grids: the
// holed object and the one inside its hole, the odd one out, the largest filled rectangle among noise of
// its color, the grid's tile, and an object's first cell; and that each reads no box where the property
// does not single out one object.
func TestObjectSelections(t *testing.T) {
	ring := canvasOf(8, 8,
		"0000000",
		"0333000",
		"0353000",
		"0333000",
		"0000220",
		"0000220",
		"0000000",
	)
	twoRings := canvasOf(8, 8,
		"3330000",
		"3030000",
		"3330000",
		"0000444",
		"0000404",
		"0000444",
	)
	odd := canvasOf(8, 8,
		"2202200",
		"2002000",
		"0000000",
		"2202200",
		"2000200",
	)
	noisy := canvasOf(8, 8,
		"0700000",
		"0777000",
		"0777000",
		"0777000",
		"0000110",
		"0000110",
	)
	tieRects := canvasOf(8, 8,
		"1100000",
		"1100220",
		"0000220",
	)
	tiled := canvasOf(6, 6, "121212", "343434", "121212", "343434")
	dots := canvasOf(6, 6,
		"12100",
		"11100",
		"00021",
		"00212",
		"00121",
	)
	// Four panels between lines of 3 (background 8): the bottom-left one holds a 4, the only one not its
	// own mirror image ("84/88").
	panels := canvasOf(6, 6,
		"88388",
		"88388",
		"33333",
		"84388",
		"88388",
	)
	// Rows of 3 between rows of 8 (the background, with full rows too): three panels, the last with a 4.
	stripes := canvasOf(6, 6, "88888", "33333", "88888", "33333", "84888")
	// Three 3 x 3 tiles in a column, background 0: "1../11./...", "22./2../..." and "3../33./...": the
	// middle one's shape differs (colors aside), and only it is symmetric (its own transpose). Their blank
	// last row and column are lines of the background too (no other color has one): panels of 2 x 2.
	tiles := canvasOf(10, 10,
		"100", "110", "000",
		"220", "200", "000",
		"300", "330", "000",
	)
	// Objects: an "L" of 2s, a cross of 7s (its own mirror image), a diagonal pair of 5s (its own
	// transpose) and an "L" of 4s, the 2s' shape.
	shapes := canvasOf(10, 10,
		"2000700",
		"2207770",
		"0000700",
		"5000000",
		"0500400",
		"0000440",
	)
	// Two "L"s of 2s and one of 7s touching the first at a corner (one-color objects: apart).
	twoLs := canvasOf(8, 8, "2002000", "2202200", "0070000", "0770000")
	crossAndLs := canvasOf(10, 10,
		"2000700",
		"2207770",
		"0000700",
		"0000000",
		"0000400",
		"0000440",
	)
	// A 4 x 6 grid, each row a palindrome, with a block hidden under 0 at rows 1-2, columns 0-1.
	hidden := canvasOf(5, 7, "123321", "004554", "007667", "898898")
	cases := []struct {
		name string
		x    datasets.Canvas
		sel  Selection
		want Box
		ok   bool
	}{
		{"ring", ring, sel("holed"), Box{1, 1, 3, 3}, true},
		{"ring", ring, sel("inside"), Box{2, 2, 1, 1}, true},
		{"ring", ring, sel("cell(inside)"), Box{2, 2, 1, 1}, true},
		{"ring", ring, sel("cell(holed)"), Box{1, 1, 1, 1}, true},
		{"two rings", twoRings, sel("holed"), Box{}, false},
		// Holes holding only the background: no object inside.
		{"two rings", twoRings, sel("inside"), Box{}, false},
		// Three copies of "22/2." and one "22/.2" (bottom right): the odd one out.
		{"odd", odd, sel("unique"), Box{3, 3, 2, 2}, true},
		{"two objects", twoObjects(), sel("unique"), Box{}, false},
		// The 3 x 3 block of 7s, not the 7 above it (the one-color object) nor the 2 x 2 of 1s.
		{"noisy", noisy, sel("rect"), Box{1, 1, 3, 3}, true},
		{"noisy", noisy, sel("largest1"), Box{0, 1, 4, 3}, true},
		{"tie", tieRects, sel("rect"), Box{}, false},
		{"tiled", tiled, sel("tile"), Box{0, 0, 2, 2}, true},
		{"not tiled", ring, sel("tile"), Box{}, false},
		// The hidden block's mirror images: columns 4-5 (through the middle column), rows 1-2 (through the
		// middle row, the same rows), both.
		{"hidden", hidden, sel("mirror1(color0)"), Box{1, 4, 2, 2}, true},
		{"hidden", hidden, sel("mirror0(color0)"), Box{1, 0, 2, 2}, true},
		{"hidden", hidden, sel("mirror01(color0)"), Box{1, 4, 2, 2}, true},
		// The first cell, in reading order, of the smallest object (the diagonal 4s).
		{"two objects", twoObjects(), sel("cell(smallest)"), Box{3, 4, 1, 1}, true},
		// Windows of 2 x 1 at the corners of the 3 x 3 ring; none larger than the box.
		{"ring", ring, sel("window2x1tl(holed)"), Box{1, 1, 2, 1}, true},
		{"ring", ring, sel("window2x1bl(holed)"), Box{2, 1, 2, 1}, true},
		{"ring", ring, sel("window2x1tr(holed)"), Box{1, 3, 2, 1}, true},
		{"ring", ring, sel("window2x1br(holed)"), Box{2, 3, 2, 1}, true},
		{"ring", ring, sel("window4x1tl(holed)"), Box{}, false},
		// The inside of the ring; the 1 x 1 object has none.
		{"ring", ring, sel("inner(holed)"), Box{2, 2, 1, 1}, true},
		{"ring", ring, sel("inner(inside)"), Box{}, false},
		// The 1s: 4 cells against the 7s' 10 and the background's.
		{"noisy", noisy, sel("rarest"), Box{4, 4, 2, 2}, true},
		// The 3s and the 4s: 8 cells each.
		{"two rings", twoRings, sel("rarest"), Box{}, false},
		// Blocks of 1s with red dots, more cells than the border's 0s: the block with the most 2s. The
		// blocks touch at a corner only (4-connected: two blocks).
		{"dots", dots, sel("most2"), Box{2, 2, 3, 3}, true},
		{"dots", dots, sel("most1"), Box{0, 0, 2, 3}, true},
		{"dots", dots, sel("most5"), Box{}, false},
		// The panel with the 4 among three alike, by its colors and by its shape; the only asymmetric one.
		{"panels", panels, sel("unique(panels)"), Box{3, 0, 2, 2}, true},
		{"panels", panels, sel("uniqueshape(panels)"), Box{3, 0, 2, 2}, true},
		{"panels", panels, sel("asymmetric(panels)"), Box{3, 0, 2, 2}, true},
		{"panels", panels, sel("symmetric(panels)"), Box{}, false},
		{"stripes", stripes, sel("unique(panels)"), Box{4, 0, 1, 5}, true},
		// No tiles of 2 x 2 in a 5 x 5 grid.
		{"panels", panels, sel("unique(tiles2x2)"), Box{}, false},
		// Tiles of 3 x 3: the colors make all three alone (none), the shapes single out the middle one.
		{"tiles", tiles, sel("unique(tiles3x3)"), Box{}, false},
		{"tiles", tiles, sel("uniqueshape(tiles3x3)"), Box{3, 0, 3, 3}, true},
		{"tiles", tiles, sel("symmetric(tiles3x3)"), Box{3, 0, 3, 3}, true},
		{"tiles", tiles, sel("uniqueshape(panels)"), Box{3, 0, 2, 2}, true},
		// Among the objects: the cross and the diagonal are each alone in shape and both symmetric: none.
		{"shapes", shapes, sel("uniqueshape"), Box{}, false},
		{"shapes", shapes, sel("symmetric"), Box{}, false},
		{"shapes", shapes, sel("asymmetric"), Box{}, false},
		{"cross and Ls", crossAndLs, sel("uniqueshape"), Box{0, 3, 3, 3}, true},
		{"cross and Ls", crossAndLs, sel("symmetric"), Box{0, 3, 3, 3}, true},
		{"two Ls", twoLs, sel("common"), Box{0, 0, 2, 2}, true},
		// Two copies of the 2s' "L" and two single 7s: the two patterns tie.
		{"tie", canvasOf(8, 8, "2002000", "2202200", "0000000", "7070000"), sel("common"), Box{}, false},
		{"cross and Ls", crossAndLs, sel("common"), Box{}, false},
		// By colors, the two Ls differ: three alone, none.
		{"cross and Ls", crossAndLs, sel("unique"), Box{}, false},
	}
	for _, c := range cases {
		got, ok := c.sel.BoxOf(c.x)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: %v: box %+v, %v; want %+v, %v", c.name, c.sel, got, ok, c.want, c.ok)
		}
	}
	// Every modified source reads the box of a source without modifiers: on the panels, where the odd one
	// out reads a box among the panels but none among the objects, no cell of it is offered.
	for _, x := range []datasets.Canvas{panels, tiles, ring, noisy} {
		psrcs, _, _ := frameSelections([]datasets.Canvas{x}, [][2]int{{3, 3}})
		for _, s := range psrcs {
			if s.modifiers() != 0 && s.Mirror == 0 && !slices.Contains(psrcs, s.base()) {
				t.Errorf("source %v: its base %v is not a source", s, s.base())
			}
		}
	}
	// Windows of the outputs' one size (and its transpose) at the corners of the boxes larger than it.
	one := canvasOf(2, 3, "12")
	if w := windowSizes([]datasets.Canvas{one, one}); !slices.Equal(w, [][2]int{{1, 2}, {2, 1}}) {
		t.Errorf("windowSizes of two 1 x 2 outputs = %v; want [[1 2] [2 1]]", w)
	}
	if w := windowSizes([]datasets.Canvas{one, canvasOf(2, 3, "1", "2")}); w != nil {
		t.Errorf("windowSizes of outputs of two sizes = %v; want none", w)
	}
	wsrcs, _, _ := frameSelections([]datasets.Canvas{ring}, [][2]int{{3, 3}, {1, 1}})
	var windows []string
	for _, s := range wsrcs {
		if s.Win[0] > 0 && s.base() == sel("holed") {
			windows = append(windows, s.String())
		}
	}
	if !slices.Equal(windows, []string{"window1x1tl(holed)", "window1x1bl(holed)", "window1x1tr(holed)", "window1x1br(holed)"}) {
		t.Errorf("windows of the ring: %v; want the 1 x 1 ones at its four corners (3 x 3 is the box itself)", windows)
	}
	// Only the mirror through the columns reads the hidden cells where they are visible: the search
	// offers the mirrored boxes that do not overlap the color's own.
	srcs, refs, _ := frameSelections([]datasets.Canvas{hidden}, nil)
	var mirrored []string
	for _, s := range srcs {
		if s.Mirror != 0 && s.Color == 0 {
			mirrored = append(mirrored, s.String())
		}
	}
	if !slices.Equal(mirrored, []string{"mirror1(color0)", "mirror01(color0)"}) {
		t.Errorf("mirrored sources of color 0: %v; want [mirror1(color0) mirror01(color0)]", mirrored)
	}
	for _, r := range refs {
		if r.Mirror != 0 || r.Cell {
			t.Errorf("reference %v: mirrored and one-cell selections are sources only", r)
		}
	}
	if colors, ok := (sel("cell(holed)")).ObjectColors(ring); !ok || !slices.Equal(colors, []int{3, 5}) {
		t.Errorf("ObjectColors(cell(holed)) = %v, %v; want the ring's box colors [3 5]", colors, ok)
	}
}
