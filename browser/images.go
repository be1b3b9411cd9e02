// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"bytes"
	"fmt"
	"html/template"
	"image"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
	"github.com/latformer/latformer/render"
)

// picture is an image inlined in a page as a PNG data URI, with its size in CSS pixels.
type picture struct {
	URI    template.URL // data:image/png;base64,...: made here, never from input
	W, H   int
	Alt    string
	Pixels bool // upscaled: draw with crisp pixels
}

// pictureOf encodes img as a picture shown at its natural size, or scaled down to maxW wide.
func pictureOf(img image.Image, alt string, maxW int) (picture, error) {
	uri, err := render.PNGDataURI(img)
	if err != nil {
		return picture{}, fmt.Errorf("encoding %s: %w", alt, err)
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if maxW > 0 && w > maxW {
		h = h * maxW / w
		w = maxW
	}
	return picture{URI: template.URL(uri), W: w, H: h, Alt: alt}, nil
}

// gridPicture draws an ARC grid with cell pixels per cell (render.GridImage).
func gridPicture(g datasets.Grid, cell int, alt string) (picture, error) {
	return pictureOf(render.GridImage(render.Grid(g), cell), fmt.Sprintf("%s (%dx%d)", alt, g.Rows(), g.Cols()), 0)
}

// canvasPicture draws a canvas, pad cells included.
func canvasPicture(c datasets.Canvas, cell int, alt string) (picture, error) {
	g := make(render.Grid, c.Rows)
	for i := range g {
		g[i] = make([]int, c.Cols)
		for j := range g[i] {
			g[i][j] = int(c.Cells[i*c.Cols+j])
		}
	}
	return pictureOf(render.GridImage(g, cell), alt, 0)
}

// cellSize is the pixels per cell for a task whose largest grid side is side: about 220 pixels for the
// largest grid, between 5 and 22 per cell.
func cellSize(side int) int {
	return min(22, max(5, 220/max(side, 1)))
}

// maxMaskWidth is the widest a mask is shown (a 30x30 canvas has a 900x900 mask).
const maxMaskWidth = 450

// maskPicture draws the n x n mask of action a on the dims lattice as a black and white picture (1
// white, as the paper's Figure 2): upscaled to about 220 pixels when small, shown at most maxMaskWidth
// wide when large.
func maskPicture(a lattice.Action, dims []int) (picture, error) {
	m, err := a.Mask(dims)
	if err != nil {
		return picture{}, err
	}
	px := max(1, 220/m.Rows)
	p, err := pictureOf(render.MaskImage(m.Rows, m.Cols, m.Data, px),
		fmt.Sprintf("mask of %s on a %v lattice (%dx%d)", a, dims, m.Rows, m.Cols), maxMaskWidth)
	p.Pixels = px > 1
	return p, err
}

// thumbnail draws the first training pair of a task, input and output side by side, about 48 pixels
// high, as a PNG.
func thumbnail(t datasets.Task) ([]byte, error) {
	var grids []render.Grid
	side := 1
	if len(t.Train) > 0 {
		p := t.Train[0]
		grids = []render.Grid{render.Grid(p.Input), render.Grid(p.Output)}
		side = max(p.Input.Rows(), p.Input.Cols(), p.Output.Rows(), p.Output.Cols())
	}
	cell := min(8, max(1, 46/side))
	img := render.GridsRow(grids, cell)
	if img.Bounds().Empty() {
		img = image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	var buf bytes.Buffer
	if err := render.EncodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
