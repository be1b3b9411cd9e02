// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/internal/testutil"
)

// gridRef applies, on the host, the group element of hard config c to an H x W grid the way a
// grid-lattice expert does (rotation first, then flips, circular translation on the grid, then
// up-scaling), and places the result at the top-left of an l x l canvas filled with pad.
func gridRef(c Element, grid [][]float64, l int, pad float64) []float64 {
	g := grid
	rot90 := func(in [][]float64) [][]float64 { // NumPy's rot90: out[i][j] = in[j][W-1-i]
		h, w := len(in), len(in[0])
		out := make([][]float64, w)
		for i := range w {
			out[i] = make([]float64, h)
			for j := range h {
				out[i][j] = in[j][w-1-i]
			}
		}
		return out
	}
	for range mod(c.Quarter, 4) {
		g = rot90(g)
	}
	h, w := len(g), len(g[0])
	at := func(src [][]float64, f func(i, j int) (int, int)) [][]float64 {
		out := make([][]float64, h)
		for i := range h {
			out[i] = make([]float64, w)
			for j := range w {
				a, b := f(i, j)
				out[i][j] = src[a][b]
			}
		}
		return out
	}
	if c.Flip[0] {
		g = at(g, func(i, j int) (int, int) { return h - 1 - i, j })
	}
	if c.Flip[1] {
		g = at(g, func(i, j int) (int, int) { return i, w - 1 - j })
	}
	d := c.Shift
	g = at(g, func(i, j int) (int, int) { return mod(i-d[0], h), mod(j-d[1], w) })
	hr, hc := max(1, c.Scale[0]), max(1, c.Scale[1])
	out := make([]float64, l*l)
	for i := range l {
		for j := range l {
			out[i*l+j] = pad
			if i/hr < h && j/hc < w {
				out[i*l+j] = g[i/hr][j/hc]
			}
		}
	}
	return out
}

// TestGridLatticeHardGates checks the grid-lattice expert (ParamLattice "grid"): with hard gates and grids of
// several sizes (square and not) on a 7x7 canvas, the mask applied to the canvas gives exactly the
// rotated, flipped, circularly translated and up-scaled grid at the top-left, pad elsewhere, for every
// translation, every combination of flips, rotations and up-scalings, and random combinations.
func TestGridLatticeHardGates(t *testing.T) {
	backend := testutil.Backend(t)
	const l = 7
	const pad = 10.0
	e := DefaultExpert(l, l)
	e.Lattice = Grid
	rng := rand.New(rand.NewPCG(3, 4))
	var configs []Element
	for _, c := range allConfigs(rng, e, 200) {
		if !c.Down[0] && !c.Down[1] { // down-scaling averages cells: not a permutation
			configs = append(configs, c)
		}
	}
	for _, ext := range [][2]int{{3, 5}, {5, 3}, {4, 4}, {7, 7}, {2, 6}, {1, 1}} {
		H, W := ext[0], ext[1]
		grid, canvas := randomGridCanvas(rng, H, W, l, pad)
		logits := make([][]float32, len(configs))
		extents := make([][]int32, len(configs))
		for i, c := range configs {
			logits[i] = e.LogitsFor(c, 6)
			extents[i] = []int32{int32(H), int32(W)}
		}
		out := MustExecOnce(backend, func(lg, ex, x *Node) *Node {
			gates := e.GatesFromLogits(lg, true)
			gates.Extent = ex
			m := e.Mask(gates).Dense() // [batch, n, n]
			return Einsum("bij,j->bi", m, ConvertDType(x, dtypes.Float32))
		}, logits, extents, canvas)
		got := tensors.MustCopyFlatData[float32](out)
		for i, c := range configs {
			want := gridRef(c, grid, l, pad)
			for k := range want {
				if float64(got[i*l*l+k]) != want[k] {
					t.Fatalf("grid %dx%d, config %d (%+v): cell %d is %v, want %v", H, W, i, c, k, got[i*l*l+k], want[k])
				}
			}
		}
	}
	t.Logf("%d hard gate settings x 6 grid sizes: exact", len(configs))
}

// randomGridCanvas returns a random H x W grid of colors 0..9 and the l x l canvas holding it at the top-left,
// pad elsewhere (flattened row-major).
func randomGridCanvas(rng *rand.Rand, H, W, l int, pad float64) ([][]float64, []float64) {
	grid := make([][]float64, H)
	canvas := make([]float64, l*l)
	for i := range canvas {
		canvas[i] = pad
	}
	for i := range H {
		grid[i] = make([]float64, W)
		for j := range W {
			grid[i][j] = float64(rng.IntN(10))
			canvas[i*l+j] = grid[i][j]
		}
	}
	return grid, canvas
}

// TestGridExtents checks GridExtents on canvases with grids of several sizes.
func TestGridExtents(t *testing.T) {
	backend := testutil.Backend(t)
	const rows, cols, pad = 4, 5, 10
	var tokens [][]int32
	var want [][2]int32
	for _, ext := range [][2]int{{1, 1}, {4, 5}, {2, 3}, {3, 1}} {
		tok := make([]int32, rows*cols)
		for i := range tok {
			tok[i] = pad
		}
		for i := range ext[0] {
			for j := range ext[1] {
				tok[i*cols+j] = int32((i + j) % 10)
			}
		}
		tokens = append(tokens, tok)
		want = append(want, [2]int32{int32(ext[0]), int32(ext[1])})
	}
	got := tensors.MustCopyFlatData[int32](MustExecOnce(backend, func(tok *Node) *Node {
		return GridExtents(tok, rows, cols, pad)
	}, tokens))
	for i, w := range want {
		if got[2*i] != w[0] || got[2*i+1] != w[1] {
			t.Errorf("canvas %d: extents (%d, %d), want %v", i, got[2*i], got[2*i+1], w)
		}
	}
}
