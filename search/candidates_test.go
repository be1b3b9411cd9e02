// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// TestFrameCandidatesPlacements checks that the candidates of two-box inputs hold each box moved one step
// toward the other and up against it, with the frames FrameOf gives, after every crop, in-place and scaled
// candidate; and that a cap keeps the crops first.
func TestFrameCandidatesPlacements(t *testing.T) {
	inputs := []datasets.Canvas{
		canvasOf(10, 10, "0000000000", "0220000000", "0220000000", "0000000000", "0000000000", "0000000000",
			"0000000550", "0000000550"),
		canvasOf(10, 10, "0000000000", "0000000000", "0000005500", "0000005500", "0000000000", "0000000000",
			"0000000000", "0022000000", "0022000000"),
	}
	all := FrameCandidates(inputs, 1000)
	firstPlaced := slices.IndexFunc(all, func(r FrameRule) bool { return r.Place != PlaceAlign })
	if firstPlaced < 0 {
		t.Fatalf("no placement among %d candidates", len(all))
	}
	placed := 0
	for i, r := range all {
		if r.Place == PlaceAlign {
			if i > firstPlaced {
				t.Errorf("candidate %d (%v) after the first placement (%d)", i, r, firstPlaced)
			}
			continue
		}
		placed++
		for k, x := range inputs {
			got, ok := r.FrameOn(x)
			want, wok := r.FrameOf(x, func(h, w int) (int, int) { return h, w })
			if !ok || !wok || got != want {
				t.Errorf("%v on input %d: %+v, %v; FrameOf %+v, %v", r, k, got, ok, want, wok)
			}
		}
	}
	// The red box toward and against the grey one: on the first input from (1, 1) to (2, 2) and (4, 5);
	// on the second, from (7, 2) to (6, 3) and (4, 4).
	want := map[[2]int][2]Frame{
		{int(PlaceToward), 0}: {{R0: 1, C0: 1, H: 2, W: 2, DR: 2, DC: 2}, {R0: 7, C0: 2, H: 2, W: 2, DR: 6, DC: 3}},
		{int(PlaceTouch), 0}:  {{R0: 1, C0: 1, H: 2, W: 2, DR: 4, DC: 5}, {R0: 7, C0: 2, H: 2, W: 2, DR: 4, DC: 4}},
	}
	found := 0
	for place, frames := range want {
		if slices.ContainsFunc(all, func(r FrameRule) bool {
			if int(r.Place) != place[0] {
				return false
			}
			for k, x := range inputs {
				if f, _ := r.FrameOn(x); f != frames[k] {
					return false
				}
			}
			return true
		}) {
			found++
		}
	}
	if found != len(want) || placed < 4 {
		t.Fatalf("%d of the %d wanted placements found, %d placements in all (want at least 4: each box toward and "+
			"against the other)", found, len(want), placed)
	}
	if capped := FrameCandidates(inputs, firstPlaced); !slices.Equal(capped, all[:firstPlaced]) {
		t.Errorf("capped at %d: %v, want the first %d candidates", firstPlaced, capped, firstPlaced)
	}
	t.Logf("%d candidates, %d placements", len(all), placed)
}
