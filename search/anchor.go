// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Anchors: boxes read off each input, so that one element g(x) = T(a(x)) ∘ B can follow the input. A
// selection (selection.go) names a box of the input (its non-background, a color, its largest or smallest
// object, the grid); a frame rule crops the input at the box of one selection, lets the base act on the crop,
// and places the result against the box of another selection (or the canvas corner, or the crop's own place),
// edges aligned and a constant offset added. The anchor-relative mask expert (experts.Expert.Anchored) reads
// the same numbers (Frame) per input.

import (
	"fmt"

	"github.com/latformer/latformer/datasets"
)

// Placement is how a frame rule places the result against its reference box.
type Placement int

const (
	// PlaceAlign: on each axis an edge of the result on an edge of the reference, plus an offset.
	PlaceAlign Placement = iota
	// PlaceToward: one cell toward the reference on each axis where the reference lies wholly after (or
	// before) the source box; in place on the others.
	PlaceToward
	// PlaceTouch: up against the reference on each axis where it lies wholly after (the result's last
	// cell just before its first) or wholly before it; in place on the others.
	PlaceTouch
)

// FrameRule is the anchor-relative part of an element g(x) = T(a(x)) ∘ B: the input is cropped at the box
// of Src, the base B acts on the crop as on a grid at the canvas' top-left (turns, flips, then scaling), and
// the result, a box of h x w cells, is moved so that on each axis its edge Align[a][0] (false: the first
// row or column, true: the last) lands on the edge Align[a][1] of the reference box of Dst, plus Offset[a].
// Dst of kind SelOrigin is the canvas corner (the crop stays at the top-left: Offset 0 and first edges), SelSame the
// source box itself (in place).
type FrameRule struct {
	Src, Dst Selection
	Align    [2][2]bool
	Offset   [2]int
	// Place is how the result is placed (PlaceAlign: Align and Offset; PlaceToward and PlaceTouch: moves
	// toward Dst's box, Align and Offset unused).
	Place Placement
	// ScaleByColors up-scales the result by k x k, k the number of colors of the input other than the
	// background (a scaling read off the input, CountColors); the base then does not scale.
	ScaleByColors bool
}

// String writes the rule as "crop(SRC)" followed by where it goes: "@DST[edges]+(dr,dc)".
func (r FrameRule) String() string {
	s := "crop(" + r.Src.String() + ")"
	if r.ScaleByColors {
		s += "∘upscale(colors)"
	}
	if r.Dst.Kind() == SelOrigin && r.Offset == [2]int{} {
		return s
	}
	edge := func(b bool) string {
		if b {
			return "max"
		}
		return "min"
	}
	switch r.Place {
	case PlaceToward:
		return s + "@toward(" + r.Dst.String() + ")"
	case PlaceTouch:
		return s + "@touch(" + r.Dst.String() + ")"
	}
	s += "@" + r.Dst.String()
	if r.Dst.Kind() != SelOrigin {
		s += fmt.Sprintf("[%s>%s,%s>%s]",
			edge(r.Align[0][0]), edge(r.Align[0][1]), edge(r.Align[1][0]), edge(r.Align[1][1]))
	}
	if r.Offset != [2]int{} {
		s += fmt.Sprintf("+(%d,%d)", r.Offset[0], r.Offset[1])
	}
	return s
}

// Frame is what the anchor-relative expert reads per input: the source box (R0, C0, H, W) that is cropped
// and acted on as a grid, the shift (DR, DC) that places the result, and the up-scaling SR x SC read off
// the input (0: the base's own). experts.Expert.Anchored builds its masks from these eight numbers.
type Frame struct{ R0, C0, H, W, DR, DC, SR, SC int }

// Ints returns the frame as the int32 the expert's input holds (experts.FrameLen of them), in the order of
// the struct.
func (f Frame) Ints() [8]int32 {
	return [8]int32{
		int32(f.R0), int32(f.C0), int32(f.H), int32(f.W),
		int32(f.DR), int32(f.DC), int32(f.SR), int32(f.SC),
	}
}

// FrameOf returns the frame of the rule on input c, for a base whose result on an H x W crop is an h x w
// box (moved(H, W) = h, w); false where a selection reads no box on c.
func (r FrameRule) FrameOf(c datasets.Canvas, moved func(h, w int) (int, int)) (Frame, bool) {
	boxes := map[Selection]Box{}
	for _, s := range []Selection{r.Src, r.Dst} {
		if s.Kind() == SelSame {
			continue
		}
		b, ok := s.BoxOf(c)
		if !ok {
			return Frame{}, false
		}
		boxes[s] = b
	}
	h, w := moved(boxes[r.Src].H, boxes[r.Src].W)
	return r.frameFromBoxes(boxes, [2]int{h, w})
}
