// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Objects (connected components) and the boxes of the selection table's rows that pick one (SelObject):
// by size, by a hole, the solid rectangle, the block with the most cells of a color; and the grid's
// repeating tile (SelTile). Each reads one box off an input, or none where it does not single out one.

import (
	"slices"

	"github.com/latformer/latformer/datasets"
)

// object is a connected component of a canvas: its cells (indices, in the order found) and its box.
type object struct {
	cells []int
	box   Box
}

// components returns the 8-connected components of the cells where in is true (mono: 4-connected cells
// of one color), in reading order of their first cell.
func components(c datasets.Canvas, in func(int32) bool, mono bool) []object {
	return flood(c, in, mono, mono)
}

// components4 returns the 4-connected components of the cells where in is true, of any colors.
func components4(c datasets.Canvas, in func(int32) bool) []object { return flood(c, in, true, false) }

// flood returns the components of the cells where in is true: 4-connected (four) or 8-connected, of one
// color (mono) or of any, in reading order of their first cell.
func flood(c datasets.Canvas, in func(int32) bool, four, mono bool) []object {
	seen := make([]bool, len(c.Cells))
	var out []object
	for start, v := range c.Cells {
		if seen[start] || !in(v) {
			continue
		}
		seen[start] = true
		stack := []int{start}
		o := object{box: Box{c.Rows, c.Cols, -1, -1}}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			o.cells = append(o.cells, i)
			r, col := i/c.Cols, i%c.Cols
			o.box = Box{min(o.box.R0, r), min(o.box.C0, col), max(o.box.H, r), max(o.box.W, col)}
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					rr, cc := r+dr, col+dc
					if rr < 0 || cc < 0 || rr >= c.Rows || cc >= c.Cols || (four && dr != 0 && dc != 0) {
						continue
					}
					if j := rr*c.Cols + cc; !seen[j] && in(c.Cells[j]) && (!mono || c.Cells[j] == v) {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
		}
		// box held the last row and column while growing.
		o.box.H, o.box.W = o.box.H-o.box.R0+1, o.box.W-o.box.C0+1
		out = append(out, o)
	}
	return out
}

// objectBox is the box of the largest (or smallest) component of the cells where in is true (components:
// 8-connected; mono: 4-connected cells of one color); false when there is none or two tie.
func objectBox(c datasets.Canvas, in func(int32) bool, largest, mono bool) (Box, bool) {
	best, bestSize, tie := Box{}, -1, false
	for _, o := range components(c, in, mono) {
		size := len(o.cells)
		switch {
		case bestSize < 0 || (largest && size > bestSize) || (!largest && size < bestSize):
			best, bestSize, tie = o.box, size, false
		case size == bestSize:
			tie = true
		}
	}
	if bestSize < 0 || tie {
		return Box{}, false
	}
	return best, true
}

// enclosed returns the cells of o's box that are not o's and cannot reach the box's edge through cells
// not of o (4-connected): its holes. Every cell outside the box reaches the canvas' edge without
// crossing o, so the box's edge stands for the outside.
func enclosed(c datasets.Canvas, o object) []int {
	b := o.box
	if b.H < 3 || b.W < 3 {
		return nil
	}
	local := func(i int) int { return (i/c.Cols-b.R0)*b.W + i%c.Cols - b.C0 }
	mine := make([]bool, b.H*b.W)
	for _, i := range o.cells {
		mine[local(i)] = true
	}
	out := make([]bool, b.H*b.W)
	var stack []int
	for k := range mine {
		r, col := k/b.W, k%b.W
		if !mine[k] && (r == 0 || col == 0 || r == b.H-1 || col == b.W-1) {
			out[k] = true
			stack = append(stack, k)
		}
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, col := k/b.W, k%b.W
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			rr, cc := r+d[0], col+d[1]
			if rr < 0 || cc < 0 || rr >= b.H || cc >= b.W {
				continue
			}
			if j := rr*b.W + cc; !mine[j] && !out[j] {
				out[j] = true
				stack = append(stack, j)
			}
		}
	}
	var holes []int
	for k := range mine {
		if !mine[k] && !out[k] {
			holes = append(holes, (b.R0+k/b.W)*c.Cols+b.C0+k%b.W)
		}
	}
	return holes
}

// holedBox is the box of the holed object (inside false) or of the one inside a hole (inside true), among the
// one-color objects of the foreground cells.
func holedBox(c datasets.Canvas, fg func(int32) bool, inside bool) (Box, bool) {
	objs := components(c, fg, true)
	var found []Box
	if !inside {
		for _, o := range objs {
			if len(enclosed(c, o)) > 0 {
				found = append(found, o.box)
			}
		}
	} else {
		hole := make([]bool, len(c.Cells))
		for _, o := range objs {
			for _, i := range enclosed(c, o) {
				hole[i] = true
			}
		}
		for _, o := range objs {
			if !slices.ContainsFunc(o.cells, func(i int) bool { return !hole[i] }) {
				found = append(found, o.box)
			}
		}
	}
	if len(found) != 1 {
		return Box{}, false
	}
	return found[0], true
}

// rectBox is rect's box: the largest rectangle all of whose cells have one foreground color, at
// least 2 cells; none on a tie of areas between two rectangles (a rectangle inside a larger one of its color
// has the smaller area, so only the largest ones can tie).
func rectBox(c datasets.Canvas, fg func(int32) bool) (Box, bool) {
	best, area, tie := Box{}, 1, false
	for r0 := range c.Rows {
		for c0 := range c.Cols {
			v := c.Cells[r0*c.Cols+c0]
			if !fg(v) {
				continue
			}
			// width: the run of v from (r0, c0) on each row, the narrowest so far.
			width := c.Cols - c0
			for r := r0; r < c.Rows && width > 0; r++ {
				w := 0
				for w < width && c.Cells[r*c.Cols+c0+w] == v {
					w++
				}
				width = w
				if width == 0 {
					break
				}
				h := r - r0 + 1
				switch a := h * width; {
				case a > area:
					best, area, tie = Box{r0, c0, h, width}, a, false
				case a == area:
					tie = true
				}
			}
		}
	}
	if area < 2 || tie {
		return Box{}, false
	}
	return best, true
}

// tileBox is the tile's box: the smallest divisors ph of the grid's rows and pw of its columns with every
// cell equal to the cell ph rows up and pw columns left of it; none where both are the grid's own sides.
func tileBox(c datasets.Canvas) (Box, bool) {
	h, w := GridExtents(c)
	if h == 0 || w == 0 {
		return Box{}, false
	}
	at := func(r, col int) int32 { return c.Cells[r*c.Cols+col] }
	period := func(n int, same func(a, b int) bool) int {
		for p := 1; p < n; p++ {
			if n%p != 0 {
				continue
			}
			ok := true
			for a := p; a < n && ok; a++ {
				ok = same(a, a-p)
			}
			if ok {
				return p
			}
		}
		return n
	}
	ph := period(h, func(a, b int) bool {
		for col := range w {
			if at(a, col) != at(b, col) {
				return false
			}
		}
		return true
	})
	pw := period(w, func(a, b int) bool {
		for r := range h {
			if at(r, a) != at(r, b) {
				return false
			}
		}
		return true
	})
	if ph == h && pw == w {
		return Box{}, false
	}
	return Box{0, 0, ph, pw}, true
}

// borderColor is the most frequent color of the grid's edge cells; -1 on a tie.
func borderColor(c datasets.Canvas) int {
	h, w := GridExtents(c)
	var count [datasets.NumTokens]int
	for r := range h {
		for col := range w {
			if r == 0 || col == 0 || r == h-1 || col == w-1 {
				count[c.Cells[r*c.Cols+col]]++
			}
		}
	}
	return extremeColor(count, true)
}

// mostOfBox is the box of most<color>: of the blocks (4-connected cells other than pad and the border's color,
// of any colors), the one with the most cells of color; none on a tie or where none has the color.
func mostOfBox(c datasets.Canvas, color int) (Box, bool) {
	border := borderColor(c)
	if border < 0 {
		return Box{}, false
	}
	in := func(v int32) bool { return v != datasets.PadToken && int(v) != border }
	best, bestN, tie := Box{}, 0, false
	for _, o := range components4(c, in) {
		n := 0
		for _, i := range o.cells {
			if int(c.Cells[i]) == color {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = o.box, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if bestN == 0 || tie {
		return Box{}, false
	}
	return best, true
}
