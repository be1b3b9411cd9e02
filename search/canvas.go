// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// What the search reads off a canvas before anything else: its grid, its background and colors, and the
// bounding box of a set of cells.

import "github.com/latformer/latformer/datasets"

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

// GridExtents returns the rows and columns of the grid in a canvas: those holding a non-pad token, at least
// 1 (experts.GridExtents on the host). ARC grids sit at the canvas' top-left, so they are its side lengths.
func GridExtents(c datasets.Canvas) (rows, cols int) {
	rowUsed, colUsed := make([]bool, c.Rows), make([]bool, c.Cols)
	for i, v := range c.Cells {
		if v != datasets.PadToken {
			rowUsed[i/c.Cols], colUsed[i%c.Cols] = true, true
		}
	}
	count := func(used []bool) int {
		n := 0
		for _, u := range used {
			if u {
				n++
			}
		}
		return max(n, 1)
	}
	return count(rowUsed), count(colUsed)
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
