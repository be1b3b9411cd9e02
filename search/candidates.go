// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"slices"

	"github.com/latformer/latformer/datasets"
)

// FrameCandidates returns up to max frame rules read off the inputs alone, for a network that learns
// which one a task uses (experts.Expert.FrameCandidates): every source selection that reads a box on
// every input (the anchored search's sources, their cells, mirrors and insides; no windows, whose sizes
// come from the outputs), cropped at the corner, kept in place, and cropped and up-scaled by the number
// of colors; then each plain box moved one step toward another box and up against it (05f2a901,
// dc433765). Rules whose frames are the same on every input as an earlier rule's are left out. The order
// is the selection table's, crops first and placements last, so that a smaller max keeps the plainest rules.
//
// Only inputs are read: the candidates of a task never depend on its outputs.
func FrameCandidates(inputs []datasets.Canvas, max int) []FrameRule {
	if len(inputs) == 0 || max <= 0 {
		return nil
	}
	srcs, refs, _ := frameSelections(inputs, nil)
	var crops, inPlace, scaled, placed []FrameRule
	for _, s := range srcs {
		crops = append(crops, FrameRule{Src: s, Dst: origin})
		inPlace = append(inPlace, FrameRule{Src: s, Dst: same})
		scaled = append(scaled, FrameRule{Src: s, Dst: origin, ScaleByColors: true})
		if !s.movable() || s.Mirror != 0 {
			continue
		}
		for _, ref := range refs {
			placed = append(placed, moves(s, ref)...)
		}
	}
	var out []FrameRule
	var seen [][]Frame
	for _, r := range slices.Concat(crops, inPlace, scaled, placed) {
		frames := make([]Frame, len(inputs))
		ok := true
		for i, x := range inputs {
			if frames[i], ok = r.FrameOn(x); !ok {
				break
			}
		}
		if !ok || slices.ContainsFunc(seen, func(f []Frame) bool { return slices.Equal(f, frames) }) {
			continue
		}
		out, seen = append(out, r), append(seen, frames)
		if len(out) == max {
			break
		}
	}
	return out
}

// FrameOn returns the frame of a rule whose result keeps its first row and column on its reference's
// or moves its box toward another (the rules of FrameCandidates: no alignment on a last edge, no offset),
// taking the crop's size as the result's, whatever the base does to it; with ScaleByColors, SR = SC = the input's
// number of colors. False where the rule reads no box on c, or where it has no colors to count.
func (r FrameRule) FrameOn(c datasets.Canvas) (Frame, bool) {
	f, ok := r.FrameOf(c, func(h, w int) (int, int) { return h, w })
	if !ok {
		return Frame{}, false
	}
	if r.ScaleByColors {
		k := CountColors(c)
		if k < 1 {
			return Frame{}, false
		}
		f.SR, f.SC = k, k
	}
	return f, true
}
