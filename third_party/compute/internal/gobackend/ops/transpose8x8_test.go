// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// transposeTileCases are (dims, perm) with 2-D transposes of every kind for transposeWords32: whole 8x8 tiles
// only, remainders of rows and of columns (1 to 7), several planes (one and two outer axes, one of them
// strided), and LatFormer's shapes (the attention's [16, 100, 32] and the loss's [1600, 11]).
var transposeTileCases = []struct{ dims, perm []int }{
	{[]int{8, 8}, []int{1, 0}}, {[]int{16, 24}, []int{1, 0}}, {[]int{9, 8}, []int{1, 0}}, {[]int{8, 15}, []int{1, 0}},
	{[]int{17, 23}, []int{1, 0}}, {[]int{3, 10, 13}, []int{0, 2, 1}}, {[]int{16, 100, 32}, []int{0, 2, 1}},
	{[]int{1600, 11}, []int{1, 0}}, {[]int{11, 1600}, []int{1, 0}}, {[]int{2, 9, 3, 12}, []int{0, 2, 3, 1}},
	{[]int{4, 12, 9, 2}, []int{3, 0, 2, 1}}, {[]int{16, 10, 10, 32}, []int{0, 3, 1, 2}}, {[]int{5, 31, 8}, []int{2, 0, 1}},
	{[]int{16, 20, 20, 2, 20}, []int{0, 1, 2, 4, 3}}, {[]int{16, 20, 20, 20, 2}, []int{0, 1, 2, 4, 3}}, {[]int{7, 3, 5}, []int{2, 1, 0}},
}

// TestTransposeTilesMatchGeneric checks execTransposeFast with the 8x8 tiles on and off, and the short strided
// rows by planes (stridedCopyPlanes) on and off, against the generic executor, word for word, for float32 (the tiles' case) and float64 (never tiled) on transposeTileCases, and
// on 200 random 2-D to 4-D shapes with sides up to 40.
func TestTransposeTilesMatchGeneric(t *testing.T) {
	b := fastTestBackend(t)
	defer func(on bool) { transposeTilesEnabled = on }(transposeTilesEnabled)
	defer func(on bool) { stridedPlanesEnabled = on }(stridedPlanesEnabled)
	rng := rand.New(rand.NewPCG(4, 4))
	cases := slices.Clone(transposeTileCases)
	for range 200 {
		dims := randomDims(rng, 2+rng.IntN(3), 40)
		cases = append(cases, struct{ dims, perm []int }{dims, rng.Perm(len(dims))})
	}
	for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64} {
		for _, c := range cases {
			shape := shapes.Make(dtype, c.dims...)
			flat := randomFlat(rng, dtype, shape.Size())
			tDims := make([]int, len(c.dims))
			for a, p := range c.perm {
				tDims[a] = c.dims[p]
			}
			node := &gobackend.Node{OpType: compute.OpTypeTranspose, Shape: shapes.Make(dtype, tDims...), Data: c.perm}
			run := func(exec gobackend.NodeExecutor) string {
				out, err := exec(b, node, []*gobackend.Buffer{fastTestBuffer(t, b, shape, flat)}, []bool{false})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(out.Flat)
			}
			want := run(execTranspose)
			for _, on := range []bool{true, false} {
				for _, planes := range []bool{true, false} {
					transposeTilesEnabled, stridedPlanesEnabled = on, planes
					if got := run(execTransposeFast); got != want {
						t.Fatalf("Transpose %s %v perm %v (tiles %v, planes %v): differs from the generic executor", dtype, c.dims, c.perm, on, planes)
					}
				}
			}
		}
	}
}

// BenchmarkTransposeTiles times execTransposeFast on float32 transposes of LatFormer's step with the 8x8 tiles
// and the planes of short strided rows off and on, alternated shape by shape. One core.
func BenchmarkTransposeTiles(bm *testing.B) {
	b := fastTestBackend(bm)
	defer func(on bool) { transposeTilesEnabled = on }(transposeTilesEnabled)
	rng := rand.New(rand.NewPCG(4, 4))
	for _, c := range []struct{ dims, perm []int }{{[]int{16, 100, 32}, []int{0, 2, 1}}, {[]int{16, 100, 33}, []int{0, 2, 1}},
		{[]int{16, 10, 10, 32}, []int{0, 3, 1, 2}}, {[]int{1600, 11}, []int{1, 0}}, {[]int{16, 900, 32}, []int{0, 2, 1}}, {[]int{16, 20, 20, 2, 20}, []int{0, 1, 2, 4, 3}}} {
		shape := shapes.Make(dtypes.Float32, c.dims...)
		flat := randomFlat(rng, dtypes.Float32, shape.Size())
		tDims := make([]int, len(c.dims))
		for a, p := range c.perm {
			tDims[a] = c.dims[p]
		}
		node := &gobackend.Node{OpType: compute.OpTypeTranspose, Shape: shapes.Make(dtypes.Float32, tDims...), Data: c.perm}
		in := fastTestBuffer(bm, b, shape, flat)
		for _, on := range []bool{false, true} {
			bm.Run(fmt.Sprintf("%v_perm%v/tiles=%v", c.dims, c.perm, on), func(bm *testing.B) {
				transposeTilesEnabled, stridedPlanesEnabled = on, on
				for bm.Loop() {
					out, err := execTransposeFast(b, node, []*gobackend.Buffer{in}, []bool{false})
					if err != nil {
						bm.Fatal(err)
					}
					b.PutBuffer(out)
				}
			})
		}
	}
}
