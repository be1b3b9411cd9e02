// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// gridSpec is a size-relative element written independently of grid.go: turn the grid q quarter turns
// (NumPy's rot90, out[i][j] = in[j][W-1-i]), flip its axes, shift it circularly by shift (on the turned
// grid), then up-scale by up, the result at the canvas' top-left and pad elsewhere.
type gridSpec struct {
	q     int
	flip  [2]bool
	shift [2]int
	up    [2]int
}

// apply returns the output canvas of the spec on an input grid, on a rows x cols canvas.
func (s gridSpec) apply(grid datasets.Grid, rows, cols int) datasets.Canvas {
	g := grid
	for range s.q {
		h, w := len(g), len(g[0])
		out := datasets.NewGrid(w, h, 0)
		for i := range w {
			for j := range h {
				out[i][j] = g[j][w-1-i]
			}
		}
		g = out
	}
	h, w := len(g), len(g[0])
	out := datasets.NewGrid(h, w, 0)
	for i := range h {
		for j := range w {
			a, b := i, j
			// Shift last (applied to the flipped grid): out(i, j) = flipped((i - d) mod h, (j - d) mod w).
			a, b = ((a-s.shift[0])%h+h)%h, ((b-s.shift[1])%w+w)%w
			if s.flip[0] {
				a = h - 1 - a
			}
			if s.flip[1] {
				b = w - 1 - b
			}
			out[i][j] = g[a][b]
		}
	}
	up := [2]int{max(1, s.up[0]), max(1, s.up[1])}
	c := datasets.Canvas{Rows: rows, Cols: cols, Cells: make([]int32, rows*cols)}
	for i := range rows {
		for j := range cols {
			c.Cells[i*cols+j] = datasets.PadToken
			if i/up[0] < h && j/up[1] < w {
				c.Cells[i*cols+j] = int32(out[i/up[0]][j/up[1]])
			}
		}
	}
	return c
}

// action is the spec as the grid-lattice expert writes its element (experts.Expert.ActionOf):
// Compose(upscale, translation, reflections, rotation).
func (s gridSpec) action() lattice.Action {
	var parts []lattice.Action
	if s.up[0] > 1 || s.up[1] > 1 {
		parts = append(parts, lattice.Upscale{Factors: []int{max(1, s.up[0]), max(1, s.up[1])}})
	}
	if s.shift != [2]int{} {
		parts = append(parts, lattice.Translation{Deltas: []int{s.shift[0], s.shift[1]}})
	}
	for a := range 2 {
		if s.flip[a] {
			parts = append(parts, lattice.Reflection{Axis: a})
		}
	}
	if s.q > 0 {
		parts = append(parts, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: s.q})
	}
	return lattice.Compose(parts...)
}

// gridGroup is expertGroup with the bases a grid-lattice expert composes them: Compose(scalings,
// reflections, rotation), and Grid on.
func gridGroup(side, maxScale, maxShift int) Group {
	g := expertGroup(side, side, maxScale, maxShift)
	g.Grid = true
	for i, b := range g.Bases {
		var scale, rest []lattice.Action
		for _, p := range lattice.Parts(b) {
			switch p.(type) {
			case lattice.Upscale, lattice.Downscale:
				scale = append(scale, p)
			case lattice.IdentityAction:
			default:
				rest = append(rest, p)
			}
		}
		g.Bases[i] = lattice.Compose(append(scale, rest...)...)
	}
	return g
}

// gridPairs draws n pairs of the spec: random grids of colors 0..3 with sides in [lo, hi] (they differ from
// pair to pair), outputs recolored by synthF(spec·x, x) on a side x side canvas.
func gridPairs(t *testing.T, rng *rand.Rand, s gridSpec, side, lo, hi, n int) (ins, outs []datasets.Canvas) {
	t.Helper()
	for range n {
		grid := datasets.NewGrid(lo+rng.IntN(hi-lo+1), lo+rng.IntN(hi-lo+1), 0)
		for i := range grid {
			for j := range grid[i] {
				grid[i][j] = rng.IntN(4)
			}
		}
		x, err := datasets.ToCanvas(grid, side, side)
		if err != nil {
			t.Fatal(err)
		}
		gx := s.apply(grid, side, side)
		y := datasets.Canvas{Rows: side, Cols: side, Cells: make([]int32, side*side)}
		for i := range y.Cells {
			y.Cells[i] = synthF(gx.Cells[i], x.Cells[i])
		}
		ins, outs = append(ins, x), append(outs, y)
	}
	return ins, outs
}

// TestProposeGridElements: for size-relative elements of every kind (flips, turns and transposes of grids
// that are not square, circular shifts on the grid, a flip then an up-scaling), on 8 training pairs whose
// grids differ in size, the Grid search ranks the element first (by its Action) and predicts a test pair
// of yet another size; the canvas search finds no element that does (its elements depend on the size),
// except for the transpose, which is the canvas' transpose whatever the grid's size.
func TestProposeGridElements(t *testing.T) {
	const side = 10
	cases := []struct {
		spec      gridSpec
		lo, hi    int
		transpose bool
	}{
		{gridSpec{flip: [2]bool{false, true}}, 2, 7, false},
		{gridSpec{flip: [2]bool{true, false}}, 2, 7, false},
		{gridSpec{q: 1}, 2, 7, false},
		{gridSpec{q: 2}, 2, 7, false},
		{gridSpec{q: 3}, 2, 7, false},
		{gridSpec{q: 1, flip: [2]bool{true, false}}, 2, 7, true},
		{gridSpec{shift: [2]int{1, 0}}, 3, 7, false},
		{gridSpec{flip: [2]bool{false, true}, up: [2]int{2, 1}}, 2, 4, false},
	}
	rng := rand.New(rand.NewPCG(31, 7))
	for _, tc := range cases {
		want := tc.spec.action()
		name := want.String()
		ins, outs := gridPairs(t, rng, tc.spec, side, tc.lo, tc.hi, 9)
		testX, testY := ins[8], outs[8]
		ins, outs = ins[:8], outs[:8]
		props, err := Propose(ins, outs, gridGroup(side, 3, 9), 3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(props) == 0 || props[0].Action.String() != name || !props[0].Grid() {
			t.Errorf("%s: top proposal %v of %d, want it (size-relative)", name, props, len(props))
			continue
		}
		out, ok, err := props[0].Predict(testX)
		if err != nil || !ok || !reflect.DeepEqual(out.Cells, testY.Cells) {
			t.Errorf("%s: the top proposal does not predict the test pair (ok %v, err %v)", name, ok, err)
		}
		canvas, err := Propose(ins, outs, expertGroup(side, side, 3, 9), 0)
		if err != nil {
			t.Fatal(err)
		}
		predicting := 0
		for _, p := range canvas {
			if out, ok, _ := p.Predict(testX); ok && reflect.DeepEqual(out.Cells, testY.Cells) {
				predicting++
			}
		}
		if (predicting > 0) != tc.transpose {
			t.Errorf("%s: %d canvas elements predict the test pair of grids of other sizes, want %v", name, predicting, map[bool]string{true: "some", false: "none"}[tc.transpose])
		}
	}
}

// TestGridGatherMatchesSpec checks gridElement.gather against gridSpec.apply on grids of every shape up to
// 5x6 on a 7x7 canvas, for every turn, flip and a few shifts and up-scalings.
func TestGridGatherMatchesSpec(t *testing.T) {
	const side = 7
	rng := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for h := 1; h <= 5; h++ {
		for w := 1; w <= 6; w++ {
			grid := datasets.NewGrid(h, w, 0)
			for i := range grid {
				for j := range grid[i] {
					grid[i][j] = rng.IntN(10)
				}
			}
			x, err := datasets.ToCanvas(grid, side, side)
			if err != nil {
				t.Fatal(err)
			}
			for q := range 4 {
				for flips := range 4 {
					for _, sh := range [][2]int{{0, 0}, {1, 0}, {0, 2}, {3, 4}} {
						for _, up := range [][2]int{{1, 1}, {2, 1}, {1, 3}} {
							if sh != [2]int{} && up != [2]int{1, 1} {
								continue // not searched (see proposeGrid)
							}
							spec := gridSpec{q: q, flip: [2]bool{flips&1 == 1, flips&2 == 2}, shift: sh, up: up}
							el, err := splitGridBase(gridSpec{q: q, flip: spec.flip, up: up}.action())
							if err != nil {
								t.Fatal(err)
							}
							el.shift = [2]AxisShift{{Delta: sh[0]}, {Delta: sh[1]}}
							p := Proposal{Action: el.action(), grid: &el}
							gather, err := p.Gather(x)
							if err != nil {
								t.Fatal(err)
							}
							want := spec.apply(grid, side, side)
							for i, src := range gather {
								got := int32(datasets.PadToken)
								if src >= 0 {
									got = x.Cells[src]
								}
								if got != want.Cells[i] {
									t.Fatalf("%dx%d grid, %v: cell %d is %d, want %d", h, w, spec.action(), i, got, want.Cells[i])
								}
							}
							if p.Action.String() != spec.action().String() {
								t.Fatalf("action %v, want %v", p.Action, spec.action())
							}
							checked++
						}
					}
				}
			}
		}
	}
	t.Logf("%d elements x grids checked", checked)
}

// TestGridExtents checks GridExtents on grids of several sizes and on an all-pad canvas (1 x 1).
func TestGridExtents(t *testing.T) {
	for _, hw := range [][2]int{{1, 1}, {3, 5}, {7, 2}, {7, 7}} {
		c, err := datasets.ToCanvas(datasets.NewGrid(hw[0], hw[1], 0), 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		if h, w := GridExtents(c); h != hw[0] || w != hw[1] {
			t.Errorf("%dx%d grid: extents %dx%d", hw[0], hw[1], h, w)
		}
	}
	pad := datasets.Canvas{Rows: 4, Cols: 4, Cells: slices.Repeat([]int32{datasets.PadToken}, 16)}
	if h, w := GridExtents(pad); h != 1 || w != 1 {
		t.Errorf("all pad: extents %dx%d, want 1x1", h, w)
	}
}

// TestSplitGridBaseErrors: bases outside the grid expert's order or parts are errors.
func TestSplitGridBaseErrors(t *testing.T) {
	for _, b := range []lattice.Action{
		lattice.Compose(lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, lattice.Reflection{Axis: 0}),
		lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Upscale{Factors: []int{2, 1}}),
		lattice.Translation{Deltas: []int{1, 0}},
	} {
		if _, err := splitGridBase(b); err == nil {
			t.Errorf("%v: no error", b)
		} else {
			t.Log(fmt.Sprint(b), ": ", err)
		}
	}
}
