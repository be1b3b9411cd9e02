// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// The scaling read off the input (FrameRule.ScaleByColors): the crop up-scaled by k x k, k the number of
// colors of the input other than its background (CountColors).

import (
	"slices"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// CountColors returns the number of colors of the canvas other than pad and its background (Background;
// every color when the background is a tie).
func CountColors(c datasets.Canvas) int {
	bg := Background(c)
	var seen [datasets.NumTokens]bool
	n := 0
	for _, v := range c.Cells {
		if v != datasets.PadToken && int(v) != bg && !seen[v] {
			seen[v] = true
			n++
		}
	}
	return n
}

// upscaled is the gather gb followed by the up-scaling by k x k of the canvas' top-left (lattice.Upscale).
func upscaled(gb []int32, k, rows, cols int, cache map[string]*pairscan.PrimGather) ([]int32, error) {
	if k == 1 {
		return gb, nil
	}
	return pairscan.ThenAction(gb, lattice.Upscale{Factors: []int{k, k}}, rows, cols, cache)
}

// proposeScaledByColors adds to found the crops of base at src up-scaled by the number of colors of each
// input (FrameRule.ScaleByColors), placed at the corner, where one table fits every pair.
func proposeScaledByColors(s *anchoredSearch, bi int, base gridElement, src Selection) error {
	rule := FrameRule{Src: src, Dst: origin, ScaleByColors: true}
	el := frameElement{grid: base, rule: rule}
	t := pairscan.EmptyTable1
	gathers := make([][]int32, len(s.pairs))
	for k, p := range s.pairs {
		g, _, ok, err := el.frameGather(p.x, s.cache)
		if err != nil {
			return err
		}
		if !ok || !p.scan(func(i int) int32 { return g[i] }, &t) {
			return nil
		}
		gathers[k] = g
	}
	s.add(Proposal{
		Base: bi, Action: base.action(), Table: slices.Clone(t[:]), cost: s.group.BaseCost[bi] + 2, frame: &el,
	}, gathers)
	return nil
}
