// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

// cropAction applies action to the canvas of g (ApplyAction on 30x30) and returns the bounding box of
// the non-pad cells: the grid of T_δ ∘ action for the δ that brings it back to the top-left.
func cropAction(t *testing.T, action lattice.Action, g datasets.Grid) datasets.Grid {
	t.Helper()
	c, err := datasets.ToCanvas(g, side, side)
	if err != nil {
		t.Fatal(err)
	}
	out, err := datasets.ApplyAction(action, c)
	if err != nil {
		t.Fatal(err)
	}
	r0, r1, c0, c1 := side, -1, side, -1
	for i := range side {
		for j := range side {
			if out.Cells[i*side+j] != datasets.PadToken {
				r0, r1, c0, c1 = min(r0, i), max(r1, i), min(c0, j), max(c1, j)
			}
		}
	}
	res := datasets.NewGrid(r1-r0+1, c1-c0+1, 0)
	for i := r0; i <= r1; i++ {
		for j := c0; j <= c1; j++ {
			res[i-r0][j-c0] = int(out.Cells[i*side+j])
		}
	}
	return res
}

// makeTask and shiftTask are testutil's (the search's tests use them too).
var (
	makeTask  = testutil.MakeTask
	shiftTask = testutil.ShiftTask
)

func randomInputs(rng *rand.Rand, sizes [][2]int) []datasets.Grid {
	var gs []datasets.Grid
	for _, s := range sizes {
		gs = append(gs, datasets.RandomGrid(rng, s[0], s[1]))
	}
	return gs
}

// checkTask annotates task with Task and checks its category and, if wantActions is not empty, that
// every pair's action is wantActions.
func checkTask(t *testing.T, task datasets.Task, want datasets.Category, wantActions string) Annotation {
	t.Helper()
	ann := Task(task)
	if ann.Category != want {
		t.Fatalf("%s: category %q, want %q (actions %v, note %q)", task.ID, ann.Category, want, ann.Actions, ann.Note)
	}
	nPairs := len(task.Train) + len(task.Test)
	if want == datasets.CategoryNone {
		if len(ann.Actions) != 0 {
			t.Errorf("%s: %d actions for none, want 0", task.ID, len(ann.Actions))
		}
		return ann
	}
	if len(ann.Actions) != nPairs {
		t.Fatalf("%s: %d actions, want %d", task.ID, len(ann.Actions), nPairs)
	}
	for i, a := range ann.Actions {
		if wantActions != "" && a != wantActions {
			t.Errorf("%s: pair %d action %q, want %q", task.ID, i, a, wantActions)
		}
	}
	return ann
}

func TestTranslate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checkTask(t, shiftTask(t, rng, "shift", nil), datasets.CategoryTranslate, "translate(3,5)")
	// Recolor after translation: f maps color 1 to 2 (and keeps the others).
	checkTask(t, shiftTask(t, rng, "shift-recolor", map[int]int{1: 2}), datasets.CategoryTranslate, "translate(3,5)")
}

func TestRotate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := randomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	rot := lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}
	ann := checkTask(t, makeTask("rot90", inputs, func(g datasets.Grid) datasets.Grid { return cropAction(t, rot, g) }), datasets.CategoryRotate, "")
	for i, a := range ann.Actions {
		if !strings.Contains(a, "rot90(0,1)x1") {
			t.Errorf("pair %d action %q does not contain rot90(0,1)x1", i, a)
		}
	}
}

func TestReflect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := randomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	tr := lattice.DiagonalReflection{AxisA: 0, AxisB: 1}
	checkTask(t, makeTask("transpose", inputs, func(g datasets.Grid) datasets.Grid { return cropAction(t, tr, g) }), datasets.CategoryReflect, "transpose(0,1)")
}

func TestScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	up := lattice.Upscale{Factors: []int{2, 3}}
	pairs, _, _, err := datasets.ActionExamples(rng, up, side, side, 4, 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	task := datasets.Task{ID: "upscale", Train: pairs[:3], Test: pairs[3:]}
	if r, c := pairs[0].Output.Rows(), pairs[0].Output.Cols(); r != 8 || c != 15 {
		t.Fatalf("upscaled output is %dx%d, want 8x15", r, c)
	}
	checkTask(t, task, datasets.CategoryScale, "upscale(2,3)")
	// Down-scaling by (3,2) of grids made of 3x2 blocks.
	var inputs []datasets.Grid
	for range 4 {
		small := datasets.RandomGrid(rng, 4, 5)
		g := datasets.NewGrid(12, 10, 0)
		for i := range 12 {
			for j := range 10 {
				g[i][j] = small[i/3][j/2]
			}
		}
		inputs = append(inputs, g)
	}
	down := lattice.Downscale{Factors: []int{3, 2}}
	checkTask(t, makeTask("downscale", inputs, func(g datasets.Grid) datasets.Grid { return cropAction(t, down, g) }), datasets.CategoryScale, "downscale(3,2)")
}

func TestNone(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	inputs := randomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	ann := checkTask(t, makeTask("identity", inputs, func(g datasets.Grid) datasets.Grid { return g.Clone() }), datasets.CategoryNone, "")
	if ann.Note != noteIdentity {
		t.Errorf("identity task note %q, want %q", ann.Note, noteIdentity)
	}
	// A per-cell recoloring that keeps the size needs no geometry either.
	ann = checkTask(t, makeTask("recolor", inputs, func(g datasets.Grid) datasets.Grid {
		c := g.Clone()
		for i := range c {
			for j := range c[i] {
				if c[i][j] == 3 {
					c[i][j] = 4
				}
			}
		}
		return c
	}), datasets.CategoryNone, "")
	if ann.Note != noteIdentity {
		t.Errorf("recolor task note %q, want %q", ann.Note, noteIdentity)
	}
	// Random outputs unrelated to the inputs.
	random := randomInputs(rng, [][2]int{{10, 10}, {10, 10}, {10, 10}, {10, 10}})
	ann = checkTask(t, makeTask("random", random, func(datasets.Grid) datasets.Grid { return datasets.RandomGrid(rng, 10, 10) }), datasets.CategoryNone, "")
	if ann.Note != noteNoFit {
		t.Errorf("random task note %q, want %q", ann.Note, noteNoFit)
	}
}

// TestPrecedence: the outputs are both rot180(x) and flip-rows ∘ flip-columns(x) (the same permutation
// of the canvas) and, because the inputs are left-right symmetric, also flip-rows(x) up to a
// translation: the task fits rotate and reflect (Consistent finds both), and Task says rotate.
func TestPrecedence(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var inputs []datasets.Grid
	for _, s := range [][2]int{{8, 10}, {9, 8}, {10, 6}, {7, 12}} {
		g := datasets.RandomGrid(rng, s[0], s[1])
		for i := range g {
			for j := range s[1] / 2 {
				g[i][s[1]-1-j] = g[i][j]
			}
		}
		inputs = append(inputs, g)
	}
	rot180 := lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2}
	task := makeTask("rot180", inputs, func(g datasets.Grid) datasets.Grid { return cropAction(t, rot180, g) })
	pairs := append(task.Train, task.Test...)
	for _, p := range pairs {
		flips := cropAction(t, lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1}), p.Input)
		if !flips.Equal(p.Output) {
			t.Fatalf("rot180 output differs from the double flip")
		}
	}
	ann := checkTask(t, task, datasets.CategoryRotate, "")
	for i, a := range ann.Actions {
		if !strings.Contains(a, "rot90(0,1)x2") {
			t.Errorf("pair %d action %q does not contain rot90(0,1)x2", i, a)
		}
	}
	for _, cat := range []datasets.Category{datasets.CategoryRotate, datasets.CategoryReflect} {
		fit, err := Consistent(cat, pairs)
		if fit == nil || err != nil {
			t.Errorf("category %q does not fit the rot180 task on its own (error %v)", cat, err)
		}
	}
}

// TestGathers checks the precomputed translations and a mixed scaling against ApplyAction of the same
// action, and the sizes of the element sets.
func TestGathers(t *testing.T) {
	s := getSpace()
	if s.err != nil {
		t.Fatal(s.err)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	c, err := datasets.ToCanvas(datasets.RandomGrid(rng, 17, 23), side, side)
	if err != nil {
		t.Fatal(err)
	}
	gatherApply := func(g []int32) []int32 {
		out := make([]int32, cells)
		for i, src := range g {
			if src < 0 {
				out[i] = datasets.PadToken
			} else {
				out[i] = c.Cells[src]
			}
		}
		return out
	}
	for _, d := range [][2]int{{0, 0}, {3, 5}, {29, 1}, {14, 27}} {
		want, err := datasets.ApplyAction(lattice.Translation{Deltas: []int{d[0], d[1]}}, c)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pairscan.NewCanvasPair(c, c)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int32, cells)
		for i := range got {
			got[i] = int32(p.Xp[s.rowOff[d[0]][i/side]+s.colSrc[d[1]][i%side]])
		}
		if !reflect.DeepEqual(got, want.Cells) {
			t.Errorf("translation %v: gather differs from ApplyAction", d)
		}
	}
	if n := len(s.bases[datasets.CategoryScale]); n != 80 {
		t.Errorf("%d scalings, want 80", n)
	}
	if n, m := len(s.bases[datasets.CategoryRotate]), len(s.bases[datasets.CategoryReflect]); n != 3 || m != 4 {
		t.Errorf("%d rotations and %d reflections, want 3 and 4", n, m)
	}
	// A mixed scaling equals down-scaling the rows, then up-scaling the columns, by ApplyAction.
	for _, b := range s.bases[datasets.CategoryScale] {
		if b.action.String() != "downscale(3,1)∘upscale(1,4)" {
			continue
		}
		up, err := datasets.ApplyAction(lattice.Upscale{Factors: []int{1, 4}}, c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := datasets.ApplyAction(lattice.Downscale{Factors: []int{3, 1}}, up)
		if err != nil {
			t.Fatal(err)
		}
		if got := gatherApply(b.gather); !reflect.DeepEqual(got, want.Cells) {
			t.Errorf("%s: gather differs from sequential ApplyAction", b.action)
		}
		return
	}
	t.Errorf("mixed scaling downscale(3,1)∘upscale(1,4) not found")
}

func TestSaveLoad(t *testing.T) {
	anns := []Annotation{
		{TaskID: "b", Category: datasets.CategoryRotate, Actions: []string{"rot90(0,1)x1", "identity"}},
		{TaskID: "a", Category: datasets.CategoryNone, Note: noteNoFit},
	}
	path := filepath.Join(t.TempDir(), "ann.json")
	if err := Save(path, anns); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got["a"], anns[1]) || !reflect.DeepEqual(got["b"], anns[0]) {
		t.Errorf("round trip: got %+v", got)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if ia, ib := strings.Index(string(data), `"a"`), strings.Index(string(data), `"b"`); ia < 0 || ib < ia {
		t.Errorf("ids not in sorted order in %s", data)
	}
	if err := Save(path, append(anns, anns[0])); err == nil {
		t.Errorf("duplicate id saved without error")
	}
	if err := os.WriteFile(path, []byte(`{"x": {"category": "spin"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "spin") {
		t.Errorf("unknown category: error %v, want one naming it", err)
	}
	counts := Counts(anns)
	if counts[datasets.CategoryRotate] != 1 || counts[datasets.CategoryNone] != 1 || counts[datasets.CategoryTranslate] != 0 {
		t.Errorf("counts %v", counts)
	}
}
