// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// checkFit checks that fit explains every pair: for each pair, its elements applied to the input canvas
// (datasets.ApplyAction), looked up with the input in fit.Table, give the output canvas at all 900
// cells; and that some element is not the identity.
func checkFit(t *testing.T, name string, fit *Fit, pairs []datasets.Pair, actions int) {
	t.Helper()
	if len(fit.Elements) != len(pairs) {
		t.Fatalf("%s: %d element lists for %d pairs", name, len(fit.Elements), len(pairs))
	}
	if want := pairscan.Keys1 * []int{1, 1, datasets.NumTokens}[actions]; len(fit.Table) != want {
		t.Fatalf("%s: table of %d keys, want %d", name, len(fit.Table), want)
	}
	moved := false
	for i, p := range pairs {
		x, err := datasets.ToCanvas(p.Input, side, side)
		if err != nil {
			t.Fatal(err)
		}
		y, err := datasets.ToCanvas(p.Output, side, side)
		if err != nil {
			t.Fatal(err)
		}
		if len(fit.Elements[i]) != actions {
			t.Fatalf("%s: pair %d has %d elements, want %d", name, i, len(fit.Elements[i]), actions)
		}
		keys := make([]int32, cells)
		for _, g := range fit.Elements[i] {
			moved = moved || g.String() != (lattice.IdentityAction{}).String()
			gx, err := datasets.ApplyAction(g, x)
			if err != nil {
				t.Fatal(err)
			}
			for c := range cells {
				keys[c] = keys[c]*datasets.NumTokens + gx.Cells[c]
			}
		}
		wrong := 0
		for c := range cells {
			if int32(fit.Table[keys[c]*datasets.NumTokens+x.Cells[c]]) != y.Cells[c] {
				wrong++
			}
		}
		if wrong > 0 {
			t.Errorf("%s: pair %d (%v): f(g·x, x) differs from the output at %d cells", name, i, fit.Strings()[i], wrong)
		}
	}
	if !moved {
		t.Errorf("%s: every element is the identity", name)
	}
}

// TestConsistent checks that the Fit of Consistent reproduces every output with its table, on the
// synthetic tasks of each category and on the two-action task, and that it finds nothing where
// nothing fits.
func TestConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	inputs := randomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	tasks := map[datasets.Category]datasets.Task{
		datasets.CategoryTranslate: shiftTask(t, rng, "shift", map[int]int{2: 3}),
		datasets.CategoryRotate: makeTask("rot270", inputs, func(g datasets.Grid) datasets.Grid {
			return cropAction(t, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 3}, g)
		}),
		datasets.CategoryReflect: makeTask("flip", inputs, func(g datasets.Grid) datasets.Grid {
			return cropAction(t, lattice.Reflection{Axis: 1}, g)
		}),
		datasets.CategoryScale: makeTask("up", inputs, func(g datasets.Grid) datasets.Grid {
			return cropAction(t, lattice.Upscale{Factors: []int{3, 2}}, g)
		}),
	}
	for _, cat := range datasets.Categories {
		pairs := append(tasks[cat].Train, tasks[cat].Test...)
		fit, err := Consistent(cat, pairs)
		if fit == nil || err != nil {
			t.Fatalf("%s: Consistent found nothing (error %v)", cat, err)
		}
		checkFit(t, string(cat), fit, pairs, 1)
	}
	sym := symmetryCompletionTask(rand.New(rand.NewPCG(31, 32)))
	pairs := append(sym.Train, sym.Test...)
	if fit, err := Consistent(datasets.CategoryReflect, pairs); fit != nil || err != nil {
		t.Errorf("symmetry completion with one action: %v, %v; want nothing", fit, err)
	}
	fit, err := ConsistentTwoActions(datasets.CategoryReflect, pairs)
	if fit == nil || err != nil {
		t.Fatalf("symmetry completion with two actions: nothing (error %v)", err)
	}
	checkFit(t, "symmetry", fit, pairs, 2)

	if _, err := Consistent(datasets.CategoryNone, pairs); err == nil {
		t.Errorf("Consistent of category none: no error")
	}
	big := []datasets.Pair{{Input: datasets.NewGrid(31, 2, 0), Output: datasets.NewGrid(2, 2, 0)}}
	if _, err := Consistent(datasets.CategoryRotate, big); err == nil || errors.Is(err, ErrSearchCap) {
		t.Errorf("31x2 grid: error %v, want one about the canvas", err)
	}
}
