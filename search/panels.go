// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Odd ones out (SelOdd): of several candidates read off an input (its objects, or its panels: the rectangles
// between the full lines of one color, or the tiles of a fixed size), the one that differs from the others
// (unique: its cells and colors; uniqueshape: its cells alone) or the only one with (symmetric) or without
// (asymmetric) a mirror symmetry; or the one most of them are copies of (common).

import (
	"slices"

	"github.com/latformer/latformer/datasets"
)

// member is a candidate of an odd-one-out selection: its box and its cells, row by row over the box, the
// color where the candidate has a cell and -1 where it has none (an object's box holds other cells too; a
// panel holds all of its box).
type member struct {
	box   Box
	cells []int32
}

// objectMembers are the objects as the largest row (SelObject) reads them: 8-connected cells that fg
// accepts (neither pad nor the background), each of one color where mono is set (8-connected still).
func objectMembers(c datasets.Canvas, fg func(int32) bool, mono bool) []member {
	objs := flood(c, fg, false, mono)
	out := make([]member, len(objs))
	for k, o := range objs {
		m := member{box: o.box, cells: make([]int32, o.box.H*o.box.W)}
		for i := range m.cells {
			m.cells[i] = -1
		}
		for _, i := range o.cells {
			m.cells[(i/c.Cols-o.box.R0)*o.box.W+i%c.Cols-o.box.C0] = c.Cells[i]
		}
		out[k] = m
	}
	return out
}

// panelMembers are the panels of the grid, each with all the cells of its box: with tile zero, the
// rectangles between the full rows and columns of the separator color (separatorColor), every rectangle
// that is not itself a line; else the tiles of that size that make up the grid. None (false) where the grid has
// no separator or does not divide into the tiles, or where there are fewer than two panels.
func panelMembers(c datasets.Canvas, tile [2]int) ([]member, bool) {
	h, w := GridExtents(c)
	var rows, cols [][2]int // spans: first, count
	if tile[0] > 0 {
		if h%tile[0] != 0 || w%tile[1] != 0 {
			return nil, false
		}
		for r := 0; r < h; r += tile[0] {
			rows = append(rows, [2]int{r, tile[0]})
		}
		for col := 0; col < w; col += tile[1] {
			cols = append(cols, [2]int{col, tile[1]})
		}
	} else {
		sep := separatorColor(c, h, w)
		if sep < 0 {
			return nil, false
		}
		full := func(n, m int, at func(i, j int) int32) (spans [][2]int) {
			start := 0
			for i := 0; i <= n; i++ {
				line := i < n
				for j := 0; j < m && line; j++ {
					line = at(i, j) == int32(sep)
				}
				if i == n || line {
					if i > start {
						spans = append(spans, [2]int{start, i - start})
					}
					start = i + 1
				}
			}
			return spans
		}
		rows = full(h, w, func(i, j int) int32 { return c.Cells[i*c.Cols+j] })
		cols = full(w, h, func(i, j int) int32 { return c.Cells[j*c.Cols+i] })
	}
	if len(rows)*len(cols) < 2 {
		return nil, false
	}
	var out []member
	for _, r := range rows {
		for _, col := range cols {
			m := member{box: Box{r[0], col[0], r[1], col[1]}}
			for i := r[0]; i < r[0]+r[1]; i++ {
				m.cells = append(m.cells, c.Cells[i*c.Cols+col[0]:i*c.Cols+col[0]+col[1]]...)
			}
			out = append(out, m)
		}
	}
	return out, true
}

// separatorColor is the color of the full lines of the h x w grid: of the colors with at least one full row or column,
// the one other than the background where the background is one of two; -1 where none is, or more remain
// (a grid of one color has only lines, and panelMembers finds no panel between them).
func separatorColor(c datasets.Canvas, h, w int) int {
	var lines [datasets.NumTokens]bool
	at := func(r, col int) int32 { return c.Cells[r*c.Cols+col] }
	for r := range h {
		v, same := at(r, 0), true
		for col := 1; col < w && same; col++ {
			same = at(r, col) == v
		}
		lines[v] = lines[v] || same
	}
	for col := range w {
		v, same := at(0, col), true
		for r := 1; r < h && same; r++ {
			same = at(r, col) == v
		}
		lines[v] = lines[v] || same
	}
	bg := Background(c)
	var found []int
	for v, ok := range lines {
		if ok && v != datasets.PadToken {
			found = append(found, v)
		}
	}
	if len(found) == 2 && bg >= 0 {
		found = slices.DeleteFunc(found, func(v int) bool { return v == bg })
	}
	if len(found) != 1 {
		return -1
	}
	return found[0]
}

// copyCounts returns, for each member, how many members (itself included) have its size and its key
// (key(m) as a slice): copies of one pattern.
func copyCounts(ms []member, key func(m member) []int32) []int {
	keys := make([][]int32, len(ms))
	for k, m := range ms {
		keys[k] = append([]int32{int32(m.box.H), int32(m.box.W)}, key(m)...)
	}
	counts := make([]int, len(ms))
	for k := range ms {
		for j := range ms {
			if slices.Equal(keys[j], keys[k]) {
				counts[k]++
			}
		}
	}
	return counts
}

// oddOne is the box of the only member of at least three whose key no other member has (copyCounts 1); false
// unless exactly one is alone.
func oddOne(ms []member, key func(m member) []int32) (Box, bool) {
	if len(ms) < 3 {
		return Box{}, false
	}
	counts := copyCounts(ms, key)
	return lone(ms, func(k int) bool { return counts[k] == 1 })
}

// commonOne is the box of the first member, in reading order, of the key that more members have than any
// other key (copyCounts), at least two; false on a tie between two keys.
func commonOne(ms []member, key func(m member) []int32) (Box, bool) {
	counts := copyCounts(ms, key)
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	// The members of the most common key are most of them; another key as common adds as many again.
	first, n := -1, 0
	for k, c := range counts {
		if c == most {
			if first < 0 {
				first = k
			}
			n++
		}
	}
	if most < 2 || n != most {
		return Box{}, false
	}
	return ms[first].box, true
}

// lone is the box of the only member for which has (its index) is true; false unless exactly one.
func lone(ms []member, has func(k int) bool) (Box, bool) {
	found := -1
	for k := range ms {
		if has(k) {
			if found >= 0 {
				return Box{}, false
			}
			found = k
		}
	}
	if found < 0 {
		return Box{}, false
	}
	return ms[found].box, true
}

// loneWith is the box of the only member of at least two for which has is true; false unless exactly one.
func loneWith(ms []member, has func(m member) bool) (Box, bool) {
	if len(ms) < 2 {
		return Box{}, false
	}
	return lone(ms, func(k int) bool { return has(ms[k]) })
}

// symmetric reports whether m's cells equal their mirror image left to right or top to bottom, or (a square
// box) their transpose.
func symmetric(m member) bool {
	h, w := m.box.H, m.box.W
	at := func(r, col int) int32 { return m.cells[r*w+col] }
	check := func(f func(r, col int) int32) bool {
		for r := range h {
			for col := range w {
				if at(r, col) != f(r, col) {
					return false
				}
			}
		}
		return true
	}
	return check(func(r, col int) int32 { return at(r, w-1-col) }) ||
		check(func(r, col int) int32 { return at(h-1-r, col) }) ||
		(h == w && check(func(r, col int) int32 { return at(col, r) }))
}

// asymmetric reports whether m is not symmetric.
func asymmetric(m member) bool { return !symmetric(m) }

// cellsKey is a member's pattern: its cells and their colors.
func cellsKey(m member) []int32 { return m.cells }

// shapeKey is a member's shape, colors aside: 1 where it has a cell of a color other than bg, else 0.
func shapeKey(bg int) func(m member) []int32 {
	return func(m member) []int32 {
		mask := make([]int32, len(m.cells))
		for i, v := range m.cells {
			mask[i] = int32(boolInt(v >= 0 && int(v) != bg))
		}
		return mask
	}
}

// oddBox is the box of an odd one out (SelOdd; the row's odd picks it) among the candidates of s: the
// input's panels where s.Panels is set (separator lines, or tiles of size s.Tile), else its objects
// (8-connected cells other than pad and the background; of one color each for a mono row, such as
// common, whose copies are one-color shapes that may touch others).
func oddBox(c datasets.Canvas, s Selection, row *selector) (Box, bool) {
	bg := Background(c)
	if bg < 0 {
		return Box{}, false
	}
	var ms []member
	if s.Panels {
		var ok bool
		if ms, ok = panelMembers(c, s.Tile); !ok {
			return Box{}, false
		}
	} else {
		ms = objectMembers(c, func(v int32) bool { return v != datasets.PadToken && int(v) != bg }, row.mono)
	}
	return row.odd(ms, bg)
}

// oddUnique is the odd of the unique row: the only member whose cells and colors no other has.
func oddUnique(ms []member, _ int) (Box, bool) { return oddOne(ms, cellsKey) }

// oddUniqueShape is the odd of the uniqueshape row: the only member of its shape, colors aside.
func oddUniqueShape(ms []member, bg int) (Box, bool) { return oddOne(ms, shapeKey(bg)) }

// oddSymmetric is the odd of the symmetric row: the only member that is its own mirror image.
func oddSymmetric(ms []member, _ int) (Box, bool) { return loneWith(ms, symmetric) }

// oddAsymmetric is the odd of the asymmetric row: the only member that is not its own mirror image.
func oddAsymmetric(ms []member, _ int) (Box, bool) { return loneWith(ms, asymmetric) }

// oddCommon is the odd of the common row: the first of the copies of the pattern most members share.
func oddCommon(ms []member, _ int) (Box, bool) { return commonOne(ms, cellsKey) }
