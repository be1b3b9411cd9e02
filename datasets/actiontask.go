// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math/rand/v2"

	"github.com/latformer/latformer/lattice"
)

// RandomGrid returns a rows x cols grid of uniformly random colors 0..9.
func RandomGrid(rng *rand.Rand, rows, cols int) Grid {
	g := NewGrid(rows, cols, 0)
	for i := range g {
		for j := range g[i] {
			g[i][j] = rng.IntN(NumColors)
		}
	}
	return g
}

// ApplyAction applies a lattice action to a canvas (all cells, pad included, as the model sees them):
// output cell i takes the token of the input cell that action g maps onto it (lattice.Permutation).
// Actions that are not permutations of the cells (down-scaling) take the token of the first cell of the
// block that lands on i, and pad where nothing lands.
func ApplyAction(action lattice.Action, c Canvas) (Canvas, error) {
	dims := []int{c.Rows, c.Cols}
	out := Canvas{Rows: c.Rows, Cols: c.Cols, Cells: make([]int32, len(c.Cells))}
	if perm, err := lattice.Permutation(action, dims); err == nil {
		for i, src := range perm {
			out.Cells[i] = c.Cells[src]
		}
		return out, nil
	}
	m, err := action.Mask(dims)
	if err != nil {
		return Canvas{}, fmt.Errorf("applying %v to a %dx%d canvas: %w", action, c.Rows, c.Cols, err)
	}
	for i := range out.Cells {
		out.Cells[i] = PadToken
		for j := range m.Cols {
			if m.At(i, j) > 0 {
				out.Cells[i] = c.Cells[j]
				break
			}
		}
	}
	return out, nil
}

// ActionExamples generates num input/output canvas pairs for the task "apply action": each input is a
// random gridRows x gridCols grid at the top-left of a rows x cols canvas (pad elsewhere), and its output
// is ApplyAction(action, input). Deterministic for a given rng state.
func ActionExamples(
	rng *rand.Rand, action lattice.Action, rows, cols, gridRows, gridCols, num int,
) ([]Pair, []Canvas, []Canvas, error) {
	var pairs []Pair
	var ins, outs []Canvas
	for range num {
		g := RandomGrid(rng, gridRows, gridCols)
		in, err := ToCanvas(g, rows, cols)
		if err != nil {
			return nil, nil, nil, err
		}
		out, err := ApplyAction(action, in)
		if err != nil {
			return nil, nil, nil, err
		}
		og, _ := out.Grid()
		pairs = append(pairs, Pair{Input: g, Output: og})
		ins = append(ins, in)
		outs = append(outs, out)
	}
	return pairs, ins, outs, nil
}
