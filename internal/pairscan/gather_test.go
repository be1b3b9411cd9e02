// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package pairscan

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// TestThenAction checks that reading a canvas through ThenAction(ActionGather(b), a) gives what applying b
// and then a gives (datasets.ApplyAction twice), for turns, flips, translations and scalings on a 6 x 6
// canvas, with and without a cache; and that both agree with ActionGather itself.
func TestThenAction(t *testing.T) {
	const rows, cols = 6, 6
	rng := rand.New(rand.NewPCG(1, 2))
	x := datasets.Canvas{Rows: rows, Cols: cols, Cells: make([]int32, rows*cols)}
	for i := range x.Cells {
		x.Cells[i] = int32(rng.IntN(datasets.PadToken + 1))
	}
	read := func(g []int32) []int32 {
		out := make([]int32, len(g))
		for i, s := range g {
			out[i] = datasets.PadToken
			if s >= 0 {
				out[i] = x.Cells[s]
			}
		}
		return out
	}
	actions := []lattice.Action{
		lattice.Reflection{Axis: 0},
		lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1},
		lattice.Translation{Deltas: []int{1, 4}},
		lattice.Upscale{Factors: []int{2, 1}},
		lattice.Compose(lattice.Reflection{Axis: 1}, lattice.Upscale{Factors: []int{1, 3}}),
	}
	cache := map[string]*PrimGather{}
	for _, b := range actions {
		gb, err := ActionGather(b, rows, cols, nil)
		if err != nil {
			t.Fatal(err)
		}
		bx, err := datasets.ApplyAction(b, x)
		if err != nil {
			t.Fatal(err)
		}
		if got := read(gb); !slices.Equal(got, bx.Cells) {
			t.Fatalf("ActionGather(%v) reads %v; ApplyAction gives %v", b, got, bx.Cells)
		}
		for _, a := range actions {
			want, err := datasets.ApplyAction(a, bx)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []map[string]*PrimGather{nil, cache} {
				g, err := ThenAction(gb, a, rows, cols, c)
				if err != nil {
					t.Fatal(err)
				}
				if got := read(g); !slices.Equal(got, want.Cells) {
					t.Errorf("%v then %v: the gather reads %v; applying them gives %v", b, a, got, want.Cells)
				}
			}
		}
	}
}
