// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"strings"
)

const (
	// NumColors is the number of ARC colors (values 0..9).
	NumColors = 10
	// PadToken is the token of canvas cells outside the grid.
	PadToken = 10
	// NumTokens is the vocabulary of a canvas: 10 colors and the pad token.
	NumTokens = 11
	// MaxGridSide is the largest ARC grid side.
	MaxGridSide = 30
)

// Grid is a rectangular ARC grid of colors 0..9, indexed [row][column].
type Grid [][]int

// Rows returns the number of rows.
func (g Grid) Rows() int { return len(g) }

// Cols returns the number of columns (0 for an empty grid).
func (g Grid) Cols() int {
	if len(g) == 0 {
		return 0
	}
	return len(g[0])
}

// Validate checks that g is non-empty, rectangular, at most MaxGridSide x MaxGridSide and holds only
// colors 0..9. The error says what is wrong and where.
func (g Grid) Validate() error {
	if len(g) == 0 {
		return fmt.Errorf("empty grid (no rows)")
	}
	if len(g) > MaxGridSide {
		return fmt.Errorf("grid has %d rows, more than the ARC maximum of %d", len(g), MaxGridSide)
	}
	cols := len(g[0])
	if cols == 0 {
		return fmt.Errorf("empty grid (row 0 has no cells)")
	}
	if cols > MaxGridSide {
		return fmt.Errorf("grid has %d columns, more than the ARC maximum of %d", cols, MaxGridSide)
	}
	for i, row := range g {
		if len(row) != cols {
			return fmt.Errorf("ragged grid: row %d has %d cells, row 0 has %d", i, len(row), cols)
		}
		for j, v := range row {
			if v < 0 || v >= NumColors {
				return fmt.Errorf("cell (%d,%d) has value %d, colors must be 0..9", i, j, v)
			}
		}
	}
	return nil
}

// Equal reports whether two grids have the same size and cells.
func (g Grid) Equal(o Grid) bool {
	if len(g) != len(o) {
		return false
	}
	for i := range g {
		if len(g[i]) != len(o[i]) {
			return false
		}
		for j := range g[i] {
			if g[i][j] != o[i][j] {
				return false
			}
		}
	}
	return true
}

// Clone returns a deep copy of g.
func (g Grid) Clone() Grid {
	c := make(Grid, len(g))
	for i, row := range g {
		c[i] = append([]int(nil), row...)
	}
	return c
}

// String renders the grid as digits, one row per line.
func (g Grid) String() string {
	var sb strings.Builder
	for _, row := range g {
		for _, v := range row {
			sb.WriteByte(byte('0' + v))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// NewGrid returns a rows x cols grid filled with color.
func NewGrid(rows, cols, color int) Grid {
	g := make(Grid, rows)
	for i := range g {
		g[i] = make([]int, cols)
		for j := range g[i] {
			g[i][j] = color
		}
	}
	return g
}

// Canvas is a grid placed at the top-left corner of a fixed rows x cols canvas, row-major, with
// PadToken in the cells outside the grid: the model's input and output format (Appendix B.1: grids are
// "padded to the size of 30 x 30 cells").
type Canvas struct {
	Rows, Cols int
	Cells      []int32
}

// ToCanvas places g at the top-left of a rows x cols canvas. It returns an error if g does not fit.
func ToCanvas(g Grid, rows, cols int) (Canvas, error) {
	if g.Rows() > rows || g.Cols() > cols {
		return Canvas{}, fmt.Errorf("grid of %dx%d does not fit a %dx%d canvas", g.Rows(), g.Cols(), rows, cols)
	}
	c := Canvas{Rows: rows, Cols: cols, Cells: make([]int32, rows*cols)}
	for i := range c.Cells {
		c.Cells[i] = PadToken
	}
	for i, row := range g {
		for j, v := range row {
			c.Cells[i*cols+j] = int32(v)
		}
	}
	return c, nil
}

// Grid returns the grid a canvas holds: the top-left rectangle of non-pad cells, whose height is the
// number of leading rows that start with a non-pad cell and whose width is the number of leading non-pad
// cells of the first row. Cells inside that rectangle that are pad (a malformed prediction) come back as
// color 0, and ok is false; ok is also false for an empty rectangle.
func (c Canvas) Grid() (g Grid, ok bool) {
	h := 0
	for h < c.Rows && c.Cells[h*c.Cols] != PadToken {
		h++
	}
	w := 0
	for w < c.Cols && c.Cells[w] != PadToken {
		w++
	}
	if h == 0 || w == 0 {
		return Grid{}, false
	}
	ok = true
	g = NewGrid(h, w, 0)
	for i := range h {
		for j := range w {
			v := c.Cells[i*c.Cols+j]
			if v == PadToken {
				ok = false
				continue
			}
			g[i][j] = int(v)
		}
	}
	return g, ok
}

// Pair is one input/output example of a task.
type Pair struct {
	Input, Output Grid
}

// Task is a few-shot task: train pairs to learn from and test pairs to predict (a test output may be nil
// for prediction-only tasks).
type Task struct {
	ID    string
	Train []Pair
	Test  []Pair
}
