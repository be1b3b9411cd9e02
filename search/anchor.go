// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Anchors: boxes read off each input, so that one element g(x) = T(a(x)) ∘ B can follow the input. A
// selection names a box of the input (its non-background, a color, its largest or smallest object, the
// grid); a frame rule crops the input at the box of one selection, lets the base act on the crop, and places
// the result against the box of another selection (or the canvas corner, or the crop's own place), edges
// aligned and a constant offset added. The anchor-relative mask expert (experts.Expert.Anchored) reads the
// same numbers (Frame) per input.

import (
	"fmt"

	"github.com/latformer/latformer/datasets"
)

// SelectionKind is what a Selection reads off an input.
type SelectionKind int

const (
	// SelOrigin is the canvas' top-left cell (a placement reference only).
	SelOrigin SelectionKind = iota
	// SelSame is the source box itself: the result stays where the crop was (a placement reference only).
	SelSame
	// SelGrid is the input's grid (the non-pad rectangle at the top-left).
	SelGrid
	// SelForeground is the box of every cell that is neither pad nor the background (the input's most
	// frequent color; none on a tie).
	SelForeground
	// SelColor is the box of the cells of one color.
	SelColor
	// SelLargest and SelSmallest are the boxes of the largest and the smallest object: 8-connected cells
	// that are neither pad nor background, by number of cells; none when two tie.
	SelLargest
	SelSmallest
	// SelLargestMono and SelSmallestMono are those of the one-color objects: 4-connected cells of one color
	// other than pad and the background (rectangles that touch stay apart).
	SelLargestMono
	SelSmallestMono
	// SelHoled is the box of the one-color object that encloses cells not its own (a hole: cells that
	// cannot reach the box's edge through cells not of the object, 4-connected); none unless exactly one
	// object has a hole.
	SelHoled
	// SelInside is the box of the one-color object lying wholly in another object's hole (the cell a ring
	// encloses); none unless exactly one does.
	SelInside
	// SelUnique is the box of the object (8-connected, as SelLargest) whose pattern, its cells and their
	// colors, no other object has: the odd one out of at least three objects; none unless exactly one is.
	SelUnique
	// SelRect is the box of the largest filled one-color rectangle (of a color other than pad and the
	// background, at least 2 cells): the solid block among noise of its own color; none on a tie.
	SelRect
	// SelTile is the grid's repeating unit: the top-left box of the smallest number of rows and of columns,
	// each dividing the grid's, whose copies make the grid; none where the grid does not repeat.
	SelTile
	// SelRarest is the box of the color with the fewest cells (other than pad): the odd color out, as the
	// one block or frame of its color among many of others; none on a tie.
	SelRarest
	// SelMostOf is the box of the block with the most cells of the color Color: the blocks are 4-connected
	// cells of any colors other than pad and the border's (the most frequent color of the grid's edge cells,
	// which blocks that fill most of the grid do not change); none on a tie or where no block has the color.
	SelMostOf
	// SelUniqueShape is SelUnique by shape alone: the box of the only object (or panel) whose cells, colors
	// aside, no other has; SelSymmetric and SelAsymmetric are the boxes of the only object (or panel) of at
	// least two that is (is not) its own mirror image, left to right, top to bottom or (square) transposed.
	// With Panels, SelUnique and these choose among the panels (Selection.Panels) instead of the objects.
	SelUniqueShape
	SelSymmetric
	SelAsymmetric
	// SelCommon is the box of the first, in reading order, of the objects (8-connected cells of one color
	// other than pad and the background) or panels that are copies of the pattern most of them have, at
	// least two; none on a tie.
	SelCommon
)

// Selection names a box of an input: Kind, and Color for SelColor. Cell narrows it to one cell: the first
// cell of the box, in reading order, that is neither pad nor the background (the box's top-left where all
// are): "the color of" an object as a 1 x 1 crop. Mirror reflects the box through the grid's middle on the
// axes it sets (bit 0: rows, bit 1: columns): where a symmetric pattern is hidden under a color, the box of
// that color mirrored is where the hidden cells can still be read.
//
// Win, where set (rows and columns both > 0), narrows the box to a window of that constant size at one of its
// corners (Corner: bit 0 the last rows, bit 1 the last columns): a part of fixed size read at an edge of
// an object or of the grid, as when every output has one size (none where the box is smaller).
//
// Inner narrows the box to its inside, one cell in from each edge: what a frame encloses (none where the
// box has fewer than 3 rows or columns).
//
// Panels, for the odd-one-out kinds (SelUnique, SelUniqueShape, SelSymmetric, SelAsymmetric), chooses among
// the grid's panels instead of its objects: the rectangles between the full lines of one color (Tile zero),
// or the tiles of size Tile (rows, columns) that make up the grid.
type Selection struct {
	Kind   SelectionKind
	Color  int
	Cell   bool
	Mirror int
	Win    [2]int
	Corner int
	Inner  bool
	Panels bool
	Tile   [2]int
}

// String names the selection as the CSVs and docs write it.
func (s Selection) String() string {
	if s.Inner {
		t := s
		t.Inner = false
		return "inner(" + t.String() + ")"
	}
	if s.Win[0] > 0 {
		t := s
		t.Win, t.Corner = [2]int{}, 0
		corner := [4]string{"tl", "bl", "tr", "br"}[s.Corner&3]
		return fmt.Sprintf("window%dx%d%s(%s)", s.Win[0], s.Win[1], corner, t)
	}
	if s.Mirror != 0 {
		t := s
		t.Mirror = 0
		axes := map[int]string{1: "0", 2: "1", 3: "01"}[s.Mirror]
		return "mirror" + axes + "(" + t.String() + ")"
	}
	if s.Cell {
		t := s
		t.Cell = false
		return "cell(" + t.String() + ")"
	}
	switch s.Kind {
	case SelOrigin:
		return "origin"
	case SelSame:
		return "same"
	case SelGrid:
		return "grid"
	case SelForeground:
		return "fg"
	case SelColor:
		return fmt.Sprintf("color%d", s.Color)
	case SelLargest:
		return "largest"
	case SelSmallest:
		return "smallest"
	case SelLargestMono:
		return "largest1"
	case SelSmallestMono:
		return "smallest1"
	case SelHoled:
		return "holed"
	case SelInside:
		return "inside"
	case SelRect:
		return "rect"
	case SelTile:
		return "tile"
	case SelRarest:
		return "rarest"
	case SelMostOf:
		return fmt.Sprintf("most%d", s.Color)
	}
	name := map[SelectionKind]string{SelUnique: "unique", SelUniqueShape: "uniqueshape", SelSymmetric: "symmetric",
		SelAsymmetric: "asymmetric", SelCommon: "common"}[s.Kind]
	switch {
	case name == "":
		return fmt.Sprintf("selection(%d)", int(s.Kind))
	case s.Tile[0] > 0:
		return fmt.Sprintf("%s(tiles%dx%d)", name, s.Tile[0], s.Tile[1])
	case s.Panels:
		return name + "(panels)"
	}
	return name
}

// Box is a rectangle of a canvas: top-left cell (R0, C0), H rows, W columns.
type Box struct{ R0, C0, H, W int }

// Background returns the most frequent color of the canvas' non-pad cells, or -1 on a tie or an empty grid.
func Background(c datasets.Canvas) int { return extremeColor(colorCounts(c), true) }

// colorCounts returns how many of the canvas' cells have each color (pad's count left 0).
func colorCounts(c datasets.Canvas) (count [datasets.NumTokens]int) {
	for _, v := range c.Cells {
		if v != datasets.PadToken {
			count[v]++
		}
	}
	return count
}

// extremeColor returns the color with the most cells in count (most) or the fewest, among the colors present
// (pad excluded); -1 on a tie or where none is present.
func extremeColor(count [datasets.NumTokens]int, most bool) int {
	best, tie := -1, false
	for col := range datasets.PadToken {
		switch {
		case count[col] == 0:
		case best < 0 || (most && count[col] > count[best]) || (!most && count[col] < count[best]):
			best, tie = col, false
		case count[col] == count[best]:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// BoxOf returns the box the selection reads off the canvas, and false where it reads none (an absent color,
// no foreground, a tie between objects). SelOrigin is the 1 x 1 box at (0, 0); SelSame has no box of its own.
func (s Selection) BoxOf(c datasets.Canvas) (Box, bool) {
	if s.Mirror != 0 || s.Cell || s.Win[0] > 0 || s.Inner {
		b, ok := s.base().BoxOf(c)
		if !ok {
			return Box{}, false
		}
		return s.modify(c, b)
	}
	switch s.Kind {
	case SelOrigin:
		return Box{0, 0, 1, 1}, true
	case SelGrid:
		h, w := GridExtents(c)
		return Box{0, 0, h, w}, true
	case SelColor:
		return boxWhere(c, func(v int32) bool { return int(v) == s.Color })
	case SelTile:
		return tileBox(c)
	case SelRarest:
		return rarestBox(c)
	case SelMostOf:
		return mostOfBox(c, s.Color)
	case SelUnique, SelUniqueShape, SelSymmetric, SelAsymmetric, SelCommon:
		return oddBox(c, s)
	case SelForeground, SelLargest, SelSmallest, SelLargestMono, SelSmallestMono, SelHoled, SelInside, SelRect:
		bg := Background(c)
		if bg < 0 {
			return Box{}, false
		}
		fg := func(v int32) bool { return v != datasets.PadToken && int(v) != bg }
		switch s.Kind {
		case SelForeground:
			return boxWhere(c, fg)
		case SelLargestMono, SelSmallestMono:
			return objectBox(c, fg, s.Kind == SelLargestMono, true)
		case SelHoled, SelInside:
			return holedBox(c, fg, s.Kind == SelInside)
		case SelRect:
			return rectBox(c, fg)
		}
		return objectBox(c, fg, s.Kind == SelLargest, false)
	}
	return Box{}, false
}

// base is the selection without its modifiers (Cell, Mirror, Win, Inner): its kind, color and candidates.
func (s Selection) base() Selection {
	return Selection{Kind: s.Kind, Color: s.Color, Panels: s.Panels, Tile: s.Tile}
}

// modify applies the selection's modifiers to b, the box its base reads off c: the box mirrored through the
// grid's middle (Mirror; false where it leaves the grid), then its first cell (Cell), then its inside
// (Inner; false where it has fewer than 3 rows or columns), then the window at its corner (Win; false where
// b is smaller than the window).
func (s Selection) modify(c datasets.Canvas, b Box) (Box, bool) {
	if s.Mirror != 0 {
		h, w := GridExtents(c)
		if s.Mirror&1 != 0 {
			b.R0 = h - b.R0 - b.H
		}
		if s.Mirror&2 != 0 {
			b.C0 = w - b.C0 - b.W
		}
		if b.R0 < 0 || b.C0 < 0 {
			return Box{}, false
		}
	}
	if s.Cell {
		b = firstCell(c, b)
	}
	if s.Inner {
		if b.H < 3 || b.W < 3 {
			return Box{}, false
		}
		b = Box{b.R0 + 1, b.C0 + 1, b.H - 2, b.W - 2}
	}
	if s.Win[0] > 0 {
		h, w := s.Win[0], s.Win[1]
		if h > b.H || w > b.W {
			return Box{}, false
		}
		if s.Corner&1 != 0 {
			b.R0 += b.H - h
		}
		if s.Corner&2 != 0 {
			b.C0 += b.W - w
		}
		b.H, b.W = h, w
	}
	return b, true
}

// firstCell is the 1 x 1 box of the first cell of b, in reading order, that is neither pad nor the
// background; b's top-left where there is none.
func firstCell(c datasets.Canvas, b Box) Box {
	bg := Background(c)
	for r := b.R0; r < b.R0+b.H; r++ {
		for col := b.C0; col < b.C0+b.W; col++ {
			if v := c.Cells[r*c.Cols+col]; v != datasets.PadToken && int(v) != bg {
				return Box{r, col, 1, 1}
			}
		}
	}
	return Box{b.R0, b.C0, 1, 1}
}

// ObjectColors returns the colors of the object the selection picks on the canvas: the colors other than
// pad and the background inside its box, ascending, for the object selections (SelLargest, SelSmallest,
// their one-color kinds, SelHoled, SelInside, SelUnique, SelRect; the whole object's box where Cell is set);
// ok is false for the others and where the selection reads no box.
func (s Selection) ObjectColors(c datasets.Canvas) (colors []int, ok bool) {
	switch s.Kind {
	case SelLargest, SelSmallest, SelLargestMono, SelSmallestMono, SelHoled, SelInside, SelUnique, SelRect, SelMostOf,
		SelUniqueShape, SelSymmetric, SelAsymmetric, SelCommon:
	default:
		return nil, false
	}
	s.Cell, s.Win, s.Corner, s.Inner = false, [2]int{}, 0, false
	b, ok := s.BoxOf(c)
	if !ok {
		return nil, false
	}
	bg := Background(c)
	var seen [datasets.NumTokens]bool
	for r := b.R0; r < b.R0+b.H; r++ {
		for col := b.C0; col < b.C0+b.W; col++ {
			if v := c.Cells[r*c.Cols+col]; v != datasets.PadToken && int(v) != bg {
				seen[v] = true
			}
		}
	}
	for v, in := range seen {
		if in {
			colors = append(colors, v)
		}
	}
	return colors, true
}

// rarestBox is SelRarest's box: that of the color with the fewest cells, other than pad; none on a tie.
func rarestBox(c datasets.Canvas) (Box, bool) {
	best := extremeColor(colorCounts(c), false)
	if best < 0 {
		return Box{}, false
	}
	return boxWhere(c, func(v int32) bool { return int(v) == best })
}

// boxWhere is the bounding box of the cells where in is true.
func boxWhere(c datasets.Canvas, in func(int32) bool) (Box, bool) {
	r0, c0, r1, c1 := c.Rows, c.Cols, -1, -1
	for i, v := range c.Cells {
		if in(v) {
			r, col := i/c.Cols, i%c.Cols
			r0, c0, r1, c1 = min(r0, r), min(c0, col), max(r1, r), max(c1, col)
		}
	}
	if r1 < 0 {
		return Box{}, false
	}
	return Box{r0, c0, r1 - r0 + 1, c1 - c0 + 1}, true
}

// Placement is how a frame rule places the result against its reference box.
type Placement int

const (
	// PlaceAlign: on each axis an edge of the result on an edge of the reference, plus an offset.
	PlaceAlign Placement = iota
	// PlaceToward: one cell toward the reference on each axis where the reference lies wholly after (or
	// before) the source box; in place on the others.
	PlaceToward
	// PlaceTouch: up against the reference on each axis where it lies wholly after (the result's last
	// cell just before its first) or wholly before it; in place on the others.
	PlaceTouch
)

// FrameRule is the anchor-relative part of an element g(x) = T(a(x)) ∘ B: the input is cropped at the box
// of Src, the base B acts on the crop as on a grid at the canvas' top-left (turns, flips, then scaling), and
// the result, a box of h x w cells, is moved so that on each axis its edge Align[a][0] (false: the first
// row or column, true: the last) lands on the edge Align[a][1] of the reference box of Dst, plus Offset[a].
// Dst SelOrigin is the canvas corner (the crop stays at the top-left: Offset 0 and first edges), SelSame the
// source box itself (in place).
type FrameRule struct {
	Src, Dst Selection
	Align    [2][2]bool
	Offset   [2]int
	// Place is how the result is placed (PlaceAlign: Align and Offset; PlaceToward and PlaceTouch: moves
	// toward Dst's box, Align and Offset unused).
	Place Placement
	// ScaleByColors up-scales the result by k x k, k the number of colors of the input other than the
	// background (a scaling read off the input, CountColors); the base then does not scale.
	ScaleByColors bool
}

// CountColors returns the number of colors of the canvas other than pad and its background (Background;
// every color when the background is a tie).
func CountColors(c datasets.Canvas) int {
	bg := Background(c)
	var seen [datasets.NumTokens]bool
	n := 0
	for _, v := range c.Cells {
		if v != datasets.PadToken && int(v) != bg && !seen[v] {
			seen[v] = true
			n++
		}
	}
	return n
}

// String writes the rule as "crop(SRC)" followed by where it goes: "@DST[edges]+(dr,dc)".
func (r FrameRule) String() string {
	s := "crop(" + r.Src.String() + ")"
	if r.ScaleByColors {
		s += "∘upscale(colors)"
	}
	if r.Dst.Kind == SelOrigin && r.Offset == [2]int{} {
		return s
	}
	edge := func(b bool) string {
		if b {
			return "max"
		}
		return "min"
	}
	switch r.Place {
	case PlaceToward:
		return s + "@toward(" + r.Dst.String() + ")"
	case PlaceTouch:
		return s + "@touch(" + r.Dst.String() + ")"
	}
	s += "@" + r.Dst.String()
	if r.Dst.Kind != SelOrigin {
		s += fmt.Sprintf("[%s>%s,%s>%s]", edge(r.Align[0][0]), edge(r.Align[0][1]), edge(r.Align[1][0]), edge(r.Align[1][1]))
	}
	if r.Offset != [2]int{} {
		s += fmt.Sprintf("+(%d,%d)", r.Offset[0], r.Offset[1])
	}
	return s
}

// Frame is what the anchor-relative expert reads per input: the source box (R0, C0, H, W) that is cropped
// and acted on as a grid, the shift (DR, DC) that places the result, and the up-scaling SR x SC read off
// the input (0: the base's own). experts.Expert.Anchored builds its masks from these eight numbers.
type Frame struct{ R0, C0, H, W, DR, DC, SR, SC int }

// Ints returns the frame as the int32 the expert's input holds (experts.FrameLen of them), in the order of
// the struct.
func (f Frame) Ints() [8]int32 {
	return [8]int32{int32(f.R0), int32(f.C0), int32(f.H), int32(f.W), int32(f.DR), int32(f.DC), int32(f.SR), int32(f.SC)}
}

// FrameOf returns the frame of the rule on input c, for a base whose result on an H x W crop is an h x w
// box (moved(H, W) = h, w); false where a selection reads no box on c.
func (r FrameRule) FrameOf(c datasets.Canvas, moved func(h, w int) (int, int)) (Frame, bool) {
	boxes := map[Selection]Box{}
	for _, s := range []Selection{r.Src, r.Dst} {
		if s.Kind == SelSame {
			continue
		}
		b, ok := s.BoxOf(c)
		if !ok {
			return Frame{}, false
		}
		boxes[s] = b
	}
	h, w := moved(boxes[r.Src].H, boxes[r.Src].W)
	return r.frameFromBoxes(boxes, [2]int{h, w})
}
