// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math/rand/v2"
)

// Synthetic families whose group element changes from pair to pair: it follows the input (g = g(x),
// Section 2), so no one element of the canvas or of the grid describes a task, while one anchor-relative
// element does (search.FrameRule). Each input is a black grid of 5 to 10 rows and columns (on a canvas of
// at least 10) holding one object: a random shape of 1 to 4 rows and columns whose bounding box is exactly
// that, in random colors 1..9 (one color, 2, in FamilyAnchorTouch, beside a grey (5) block).
const (
	// FamilyAnchorCorner: the object moved to the grid's top-left corner.
	FamilyAnchorCorner SyntheticFamily = "anchor-corner"
	// FamilyAnchorCrop: the output is the object's box.
	FamilyAnchorCrop SyntheticFamily = "anchor-crop"
	// FamilyAnchorFlip: the object mirrored left to right in its box, in place.
	FamilyAnchorFlip SyntheticFamily = "anchor-flip"
	// FamilyAnchorTurn: the object turned by a quarter (NumPy's rot90), its box's top-left corner kept.
	FamilyAnchorTurn SyntheticFamily = "anchor-turn"
	// FamilyAnchorTouch: the object moved along a row or a column until it touches the grey block.
	FamilyAnchorTouch SyntheticFamily = "anchor-touch"
)

// AnchoredFamilies lists the per-pair families (one task each: the rule is the family's; what changes
// from task to task would be only the random pairs).
var AnchoredFamilies = []SyntheticFamily{FamilyAnchorCorner, FamilyAnchorCrop, FamilyAnchorFlip,
	FamilyAnchorTurn, FamilyAnchorTouch}

// isAnchored reports whether f is one of AnchoredFamilies, and its index.
func isAnchored(f SyntheticFamily) (int, bool) {
	for i, a := range AnchoredFamilies {
		if a == f {
			return i, true
		}
	}
	return 0, false
}

// anchoredSpecs lists the tasks of an anchored family: anchoredTasksPerFamily tasks, each its own draw.
func anchoredSpecs(family SyntheticFamily, opts SyntheticOptions) ([]SyntheticTask, error) {
	if opts.Canvas < 10 {
		return nil, fmt.Errorf("datasets.SyntheticTasks(%q): canvas side %d must be >= 10", family, opts.Canvas)
	}
	specs := make([]SyntheticTask, anchoredTasksPerFamily)
	for i := range specs {
		specs[i] = SyntheticTask{Family: family, Name: fmt.Sprintf("%s-%d", family, i)}
	}
	return specs, nil
}

// anchoredTasksPerFamily is the number of tasks of an anchored family (independent draws of its pairs).
const anchoredTasksPerFamily = 8

// generateAnchoredTask draws the pairs of task index of an anchored family.
func generateAnchoredTask(spec SyntheticTask, index int, opts SyntheticOptions) (SyntheticTask, error) {
	code, _ := isAnchored(spec.Family)
	rng := rand.New(rand.NewPCG(opts.Seed, splitMix64(uint64(0x616e63+code)<<32|uint64(index))))
	c := opts.Canvas
	n := opts.NumTrain + opts.NumTest
	pairs := make([]CanvasPair, n)
	for k := range pairs {
		in, out := anchoredPair(spec.Family, rng)
		pairs[k] = CanvasPair{Input: placeGrid(in, c), Output: placeGrid(out, c)}
	}
	spec.Train, spec.Test = pairs[:opts.NumTrain:opts.NumTrain], pairs[opts.NumTrain:]
	return spec, nil
}

// placeGrid puts g at the top-left of a c x c canvas, pad elsewhere.
func placeGrid(g [][]int32, c int) Canvas {
	cv := Canvas{Rows: c, Cols: c, Cells: make([]int32, c*c)}
	for i := range cv.Cells {
		cv.Cells[i] = PadToken
	}
	for r, row := range g {
		copy(cv.Cells[r*c:], row)
	}
	return cv
}

// anchoredPair draws one input grid of the family and computes its output.
func anchoredPair(f SyntheticFamily, rng *rand.Rand) (in, out [][]int32) {
	for {
		rows, cols := 5+rng.IntN(6), 5+rng.IntN(6)
		h, w := 1+rng.IntN(4), 1+rng.IntN(4)
		shape := randomShape(rng, h, w, f == FamilyAnchorTouch)
		in = blank(rows, cols)
		switch f {
		case FamilyAnchorTouch:
			// The block and the object overlap on one axis and lie apart on the other, at least one cell
			// between them.
			bh, bw := 1+rng.IntN(3), 1+rng.IntN(3)
			br, bc := rng.IntN(rows-bh+1), rng.IntN(cols-bw+1)
			vertical := rng.IntN(2) == 0
			r0, c0, ok := 0, 0, false
			for range 50 {
				r0, c0 = rng.IntN(rows-h+1), rng.IntN(cols-w+1)
				overlapR, overlapC := r0 < br+bh && br < r0+h, c0 < bc+bw && bc < c0+w
				apartR, apartC := r0+h < br || br+bh < r0, c0+w < bc || bc+bw < c0
				if (vertical && overlapC && apartR) || (!vertical && overlapR && apartC) {
					ok = true
					break
				}
			}
			if !ok {
				continue
			}
			fill(in, br, bc, bh, bw, 5)
			stamp(in, shape, r0, c0)
			out = blank(rows, cols)
			fill(out, br, bc, bh, bw, 5)
			nr, nc := r0, c0
			if vertical {
				if r0 < br {
					nr = br - h
				} else {
					nr = br + bh
				}
			} else if c0 < bc {
				nc = bc - w
			} else {
				nc = bc + bw
			}
			stamp(out, shape, nr, nc)
			return in, out
		case FamilyAnchorTurn:
			r0, c0 := rng.IntN(rows-max(h, w)+1), rng.IntN(cols-max(h, w)+1)
			stamp(in, shape, r0, c0)
			out = blank(rows, cols)
			stamp(out, rot90(shape), r0, c0)
			return in, out
		}
		r0, c0 := rng.IntN(rows-h+1), rng.IntN(cols-w+1)
		stamp(in, shape, r0, c0)
		switch f {
		case FamilyAnchorCorner:
			out = blank(rows, cols)
			stamp(out, shape, 0, 0)
		case FamilyAnchorCrop:
			out = shape
		case FamilyAnchorFlip:
			out = blank(rows, cols)
			stamp(out, mirror(shape), r0, c0)
		}
		return in, out
	}
}

// randomShape is an h x w shape (0: empty) whose first and last rows and columns each hold a cell, in
// random colors 1..9 (all 2 when oneColor).
func randomShape(rng *rand.Rand, h, w int, oneColor bool) [][]int32 {
	s := blank(h, w)
	color := func() int32 {
		if oneColor {
			return 2
		}
		return int32(1 + rng.IntN(9))
	}
	for r := range h {
		for c := range w {
			if rng.IntN(3) > 0 {
				s[r][c] = color()
			}
		}
	}
	// Every edge of the box holds a cell: set one on each where none is.
	edges := [][2]int{{0, rng.IntN(w)}, {h - 1, rng.IntN(w)}, {rng.IntN(h), 0}, {rng.IntN(h), w - 1}}
	for _, e := range edges {
		if !edgeHolds(s, e) {
			s[e[0]][e[1]] = color()
		}
	}
	return s
}

// edgeHolds reports whether the edge of s through cell e (its row when e is on the first or last row,
// checked as both) already holds a cell: the row e[0] for a row edge, the column e[1] for a column edge.
func edgeHolds(s [][]int32, e [2]int) bool {
	h, w := len(s), len(s[0])
	rowEdge := e[0] == 0 || e[0] == h-1
	colEdge := e[1] == 0 || e[1] == w-1
	has := func(cells func(int) int32, n int) bool {
		for i := range n {
			if cells(i) != 0 {
				return true
			}
		}
		return false
	}
	ok := true
	if rowEdge {
		ok = ok && has(func(i int) int32 { return s[e[0]][i] }, w)
	}
	if colEdge {
		ok = ok && has(func(i int) int32 { return s[i][e[1]] }, h)
	}
	return ok
}

func blank(rows, cols int) [][]int32 {
	g := make([][]int32, rows)
	for r := range g {
		g[r] = make([]int32, cols)
	}
	return g
}

func fill(g [][]int32, r0, c0, h, w int, v int32) {
	for r := r0; r < r0+h; r++ {
		for c := c0; c < c0+w; c++ {
			g[r][c] = v
		}
	}
}

// stamp copies the non-zero cells of s into g at (r0, c0).
func stamp(g, s [][]int32, r0, c0 int) {
	for r, row := range s {
		for c, v := range row {
			if v != 0 {
				g[r0+r][c0+c] = v
			}
		}
	}
}

// mirror reverses every row of s.
func mirror(s [][]int32) [][]int32 {
	out := blank(len(s), len(s[0]))
	for r, row := range s {
		for c, v := range row {
			out[r][len(row)-1-c] = v
		}
	}
	return out
}

// rot90 turns s a quarter counter-clockwise, as NumPy's rot90: out[i][j] = s[j][W-1-i].
func rot90(s [][]int32) [][]int32 {
	h, w := len(s), len(s[0])
	out := blank(w, h)
	for i := range w {
		for j := range h {
			out[i][j] = s[j][w-1-i]
		}
	}
	return out
}
