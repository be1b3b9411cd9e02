// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/search"
)

// TestSameObjectColors checks which colors a rule that names none keeps fixed in the augmentation: those
// of the object it picks where they are the same on every input (05f2a901: the red shape moved until it
// touches the blue square), none where they change or the selection is not an object's.
func TestSameObjectColors(t *testing.T) {
	canvas := func(rows ...string) datasets.Canvas {
		g := make(datasets.Grid, len(rows))
		for r, row := range rows {
			for _, ch := range row {
				g[r] = append(g[r], int(ch-'0'))
			}
		}
		c, err := datasets.ToCanvas(g, 6, 6)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := canvas("00000", "02200", "02000", "00000", "00088")
	b := canvas("22200", "20000", "00000", "00000", "00880")
	c := canvas("33300", "30000", "00000", "00000", "00880") // the largest object in another color
	sel := func(name string) search.Selection {
		s, err := search.ParseSelection(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	largest, smallest := sel("largest"), sel("smallest")
	cases := []struct {
		sel    search.Selection
		inputs []datasets.Canvas
		want   []int
		ok     bool
	}{
		{largest, []datasets.Canvas{a, b}, []int{2}, true},
		{smallest, []datasets.Canvas{a, b, c}, []int{8}, true},
		{largest, []datasets.Canvas{a, b, c}, nil, false},
		{sel("fg"), []datasets.Canvas{a, b}, nil, false},
	}
	for i, k := range cases {
		got, ok := sameObjectColors(k.sel, k.inputs)
		if ok != k.ok || !slices.Equal(got, k.want) {
			t.Errorf("case %d (%v): %v %v, want %v %v", i, k.sel, got, ok, k.want, k.ok)
		}
	}
}
