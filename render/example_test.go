// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"fmt"

	"github.com/latformer/latformer/render"
)

func ExampleGridText() {
	g := render.Grid{
		{0, 1, 2},
		{3, 4, render.Pad},
	}
	fmt.Print(render.GridText(g))
	// Output:
	// 012
	// 34.
}

func ExampleMaskASCII() {
	// A 4x4 attention mask: the identity plus a weak off-diagonal entry,
	// shown in full and downsampled to 2x2 by block max.
	data := []float64{
		1, 0, 0, 0,
		0, 1, 0, 0,
		0.2, 0, 1, 0,
		0, 0, 0, 1,
	}
	fmt.Print(render.MaskASCII(4, 4, data, 0))
	fmt.Println()
	fmt.Print(render.MaskASCII(4, 4, data, 2))
	// Output:
	// #...
	// .#..
	// +.#.
	// ...#
	//
	// #.
	// +#
}
