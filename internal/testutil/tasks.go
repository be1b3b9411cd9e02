// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package testutil

import (
	"math/rand/v2"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// The small ARC-style tasks that the annotation's and the search's tests both build.

// MakeTask builds a task whose last input is the test pair and the others train pairs, with outputs fn(input).
func MakeTask(id string, inputs []datasets.Grid, fn func(datasets.Grid) datasets.Grid) datasets.Task {
	task := datasets.Task{ID: id}
	for i, in := range inputs {
		p := datasets.Pair{Input: in, Output: fn(in)}
		if i < len(inputs)-1 {
			task.Train = append(task.Train, p)
		} else {
			task.Test = append(task.Test, p)
		}
	}
	return task
}

// ShiftTask: 12x12 grids of background 0 with a random 5x5 object of colors 1..4 at the top-left; the
// output moves the object by (3,5) inside the same grid (circular translation of the 30x30 canvas by
// ApplyAction, then cut back to 12x12 with 0 where the pad came in) and recolors it by recolor.
func ShiftTask(t testing.TB, rng *rand.Rand, id string, recolor map[int]int) datasets.Task {
	const side = datasets.MaxGridSide
	var inputs []datasets.Grid
	for range 4 {
		g := datasets.NewGrid(12, 12, 0)
		for i := range 5 {
			for j := range 5 {
				if rng.IntN(2) == 0 {
					g[i][j] = 1 + rng.IntN(4)
				}
			}
		}
		inputs = append(inputs, g)
	}
	return MakeTask(id, inputs, func(in datasets.Grid) datasets.Grid {
		c, _ := datasets.ToCanvas(in, side, side)
		out, err := datasets.ApplyAction(lattice.Translation{Deltas: []int{3, 5}}, c)
		if err != nil {
			t.Fatal(err)
		}
		g := datasets.NewGrid(12, 12, 0)
		for i := range 12 {
			for j := range 12 {
				v := int(out.Cells[i*side+j])
				if v == datasets.PadToken {
					v = 0
				}
				if r, ok := recolor[v]; ok {
					v = r
				}
				g[i][j] = v
			}
		}
		return g
	})
}
