// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

// TestSelectionTasksBySearch runs the lattice search alone on the ARC training tasks that the rows of the
// selection table used by one task explain (search.SelectionTable: holed, inside, tile, unique, rect, a
// color's mirrored box, an object's first cell; the odd ones out among objects and panels, uniqueshape,
// symmetric, asymmetric, common): each is solved by its anchored element, five of them where a canvas
// element of three or four parts also fits the pairs (the anchored one, of fewer parts and a table that
// copies, is proposed instead). de1cd16c keeps its canvas element: its one-part anchored element recolors.
// Skipped without $LATFORMER_DATA.
func TestSelectionTasksBySearch(t *testing.T) {
	_, dir := testutil.ARCData(t, "training")
	want := map[string]string{
		"b9b7f026": "crop(cell(holed))∘identity",
		"d9fac9be": "crop(inside)∘identity",
		"7b7f7511": "crop(tile)∘identity",
		"88a62173": "crop(unique)∘identity",
		"91714a58": "crop(rect)@same[min>min,min>min]∘identity",
		"9ecd008a": "crop(mirror1(color0))∘reflect(1)",
		"5bd6f4ac": "crop(window3x3tr(fg))∘identity",
		"0b148d64": "crop(rarest)∘identity",
		"1c786137": "crop(inner(largest1))∘identity",
		"e50d258f": "crop(most2)∘identity",
		"2dc579da": "crop(unique(panels))∘identity",
		"662c240a": "crop(asymmetric(tiles3x3))∘identity",
		"a87f7484": "crop(uniqueshape(tiles3x3))∘identity",
		"72ca375d": "crop(symmetric)∘identity",
		"39a8645d": "crop(common)∘identity",
		"de1cd16c": "", // not anchored
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	tasks, err := datasets.LoadTasks(dir, ids)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSolver(testutil.Backend(t), Options{Model: LatticeSearch})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, task := range tasks {
		res, err := s.Solve(task, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", task.ID, err)
		}
		if w := want[task.ID]; w == "" {
			if strings.HasPrefix(res.Action, "crop(") {
				t.Errorf("%s: action %q; want the canvas element kept (the anchored one recolors)", task.ID, res.Action)
			}
		} else if !res.Solved || res.Action != w {
			t.Errorf("%s: solved %v by %q; want solved by %s", task.ID, res.Solved, res.Action, w)
		}
	}
}
