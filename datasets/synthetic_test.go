// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/latformer/latformer/lattice"
)

// synthTestTasks returns n fake ARC tasks of random grids with sides in [1, 30] (some full 30x30), for a
// pool that exercises cropping.
func synthTestTasks(n int) []Task {
	rng := rand.New(rand.NewPCG(99, 1))
	side := func() int {
		if rng.IntN(5) == 0 {
			return 30
		}
		return 1 + rng.IntN(30)
	}
	tasks := make([]Task, n)
	for i := range tasks {
		tasks[i].ID = fmt.Sprintf("t%d", i)
		for range 2 {
			tasks[i].Train = append(tasks[i].Train, Pair{Input: RandomGrid(rng, side(), side()), Output: RandomGrid(rng, side(), side())})
		}
		tasks[i].Test = []Pair{{Input: RandomGrid(rng, side(), side())}} // prediction-only: no output
	}
	return tasks
}

func synthSmallOpts(seed uint64, pool []Grid) SyntheticOptions {
	return SyntheticOptions{NumTrain: 6, NumTest: 3, Seed: seed, Pool: pool}
}

// synthCropOf reports whether grid g is the top-left crop of some pool grid.
func synthCropOf(g Grid, pool []Grid) bool {
	for _, p := range pool {
		if g.Rows() > p.Rows() || g.Cols() > p.Cols() {
			continue
		}
		match := true
		for i := 0; i < g.Rows() && match; i++ {
			for j := 0; j < g.Cols(); j++ {
				if g[i][j] != p[i][j] {
					match = false
					break
				}
			}
		}
		if match {
			return true
		}
	}
	return false
}

func TestSyntheticTaskCounts(t *testing.T) {
	want := map[SyntheticFamily]int{FamilyTranslation: 100, FamilyRotation: 3, FamilyReflection: 4, FamilyScaling: 32}
	total := 0
	for _, fam := range SyntheticFamilies {
		specs, err := SyntheticTaskSpecs(fam, SyntheticOptions{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(specs) != want[fam] {
			t.Errorf("%s: %d tasks, want %d", fam, len(specs), want[fam])
		}
		names, actions := map[string]bool{}, map[string]bool{}
		for _, s := range specs {
			if s.Family != fam || s.Train != nil || s.Test != nil {
				t.Errorf("%s: spec %+v", fam, s)
			}
			names[s.Name] = true
			actions[s.Action.String()] = true
			if tr, ok := s.Action.(lattice.Translation); ok {
				for _, d := range tr.Deltas {
					if d < 1 || d > 29 {
						t.Errorf("translation %v out of [1,29]^2", tr.Deltas)
					}
				}
				if s.Name != fmt.Sprintf("translate(%d,%d)", tr.Deltas[0], tr.Deltas[1]) {
					t.Errorf("name %q for %v", s.Name, s.Action)
				}
			}
		}
		if len(names) != len(specs) || len(actions) != len(specs) {
			t.Errorf("%s: %d unique names and %d unique actions for %d tasks", fam, len(names), len(actions), len(specs))
		}
		total += len(specs)
		t.Logf("%-11s %3d tasks, %3d unique names, %3d unique actions; first %q, last %q", fam, len(specs), len(names), len(actions), specs[0].Name, specs[len(specs)-1].Name)
	}
	if total != 139 {
		t.Errorf("%d tasks in all, want 139", total)
	}
	scaling, _ := SyntheticTaskSpecs(FamilyScaling, SyntheticOptions{})
	if scaling[0].Name != "up(2,2)" || scaling[1].Name != "up(2,3)" || scaling[16].Name != "down(2,2)" || scaling[31].Name != "down(5,5)" {
		t.Errorf("scaling order: %q %q %q %q", scaling[0].Name, scaling[1].Name, scaling[16].Name, scaling[31].Name)
	}
	// A canvas with fewer than 100 possible translations gives all of them.
	small, err := SyntheticTaskSpecs(FamilyTranslation, SyntheticOptions{Canvas: 8})
	if err != nil || len(small) != 49 {
		t.Errorf("canvas 8: %d translation tasks (err %v), want 7*7 = 49", len(small), err)
	}
}

func TestSyntheticDeterminism(t *testing.T) {
	pool := GridPool(synthTestTasks(20))
	for _, fam := range SyntheticFamilies {
		opts := synthSmallOpts(11, pool)
		opts.MaxTasks = 8
		a, err := SyntheticTasks(fam, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := SyntheticTasks(fam, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: same seed gave different tasks", fam)
		}
		opts.Seed = 12
		c, err := SyntheticTasks(fam, opts)
		if err != nil {
			t.Fatal(err)
		}
		diffPairs, pairs := 0, 0
		for i := range a {
			for k := range a[i].Train {
				pairs++
				if !reflect.DeepEqual(a[i].Train[k], c[i].Train[k]) {
					diffPairs++
				}
			}
		}
		if diffPairs < pairs/2 {
			t.Errorf("%s: seeds 11 and 12 differ on only %d of %d train pairs", fam, diffPairs, pairs)
		}
		t.Logf("%-11s seed 11 twice: identical (%d tasks); seed 11 vs 12: %d/%d train pairs differ", fam, len(a), diffPairs, pairs)
	}
	// The translations themselves depend on the seed.
	s1, _ := SyntheticTaskSpecs(FamilyTranslation, SyntheticOptions{Seed: 1})
	s2, _ := SyntheticTaskSpecs(FamilyTranslation, SyntheticOptions{Seed: 2})
	same := 0
	for i := range s1 {
		if s1[i].Name == s2[i].Name {
			same++
		}
	}
	if same > 5 {
		t.Errorf("seeds 1 and 2 share %d of 100 translations at the same index", same)
	}
	t.Logf("translation sets of seeds 1 and 2: %d of 100 equal at the same index", same)
}

func TestSyntheticMaxTasksAndTaskAt(t *testing.T) {
	pool := GridPool(synthTestTasks(10))
	opts := synthSmallOpts(3, pool)
	all, err := SyntheticTasks(FamilyScaling, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxTasks = 5
	few, err := SyntheticTasks(FamilyScaling, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(few) != 5 || !reflect.DeepEqual(few, all[:5]) {
		t.Fatalf("MaxTasks=5 gave %d tasks, not the first 5 of the full list", len(few))
	}
	opts.MaxTasks = 0
	for _, i := range []int{0, 17, 31} {
		task, err := SyntheticTaskAt(FamilyScaling, i, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(task, all[i]) {
			t.Fatalf("SyntheticTaskAt(%d) differs from SyntheticTasks()[%d]", i, i)
		}
	}
	if _, err := SyntheticTaskAt(FamilyScaling, 32, opts); err == nil {
		t.Error("SyntheticTaskAt(32) of 32 tasks: no error")
	}
	t.Logf("MaxTasks=5 = first 5 of 32; SyntheticTaskAt(0, 17, 31) = SyntheticTasks()[i]")
}

// synthInverseAction returns the inverse of a translation, rotation or reflection.
func synthInverseAction(a lattice.Action) lattice.Action {
	switch a := a.(type) {
	case lattice.Translation:
		return lattice.Translation{Deltas: []int{-a.Deltas[0], -a.Deltas[1]}}
	case lattice.Rotation:
		return lattice.Rotation{AxisA: a.AxisA, AxisB: a.AxisB, Quarter: 4 - a.Quarter}
	default: // reflections are involutions
		return a
	}
}

func TestSyntheticOutputsMatchApplyAction(t *testing.T) {
	pool := GridPool(synthTestTasks(20))
	for _, fam := range SyntheticFamilies {
		opts := synthSmallOpts(21, pool)
		opts.NumTrain, opts.NumTest = 2, 1
		tasks, err := SyntheticTasks(fam, opts)
		if err != nil {
			t.Fatal(err)
		}
		checked, inverted := 0, 0
		for _, task := range tasks {
			if len(task.Train) != 2 || len(task.Test) != 1 {
				t.Fatalf("%s: %d train and %d test pairs, want 2 and 1", task.Name, len(task.Train), len(task.Test))
			}
			for _, p := range append(append([]CanvasPair(nil), task.Train...), task.Test...) {
				if p.Input.Rows != 30 || p.Input.Cols != 30 || len(p.Input.Cells) != 900 || len(p.Output.Cells) != 900 {
					t.Fatalf("%s: canvas %dx%d", task.Name, p.Input.Rows, p.Input.Cols)
				}
				if _, ok := p.Input.Grid(); !ok {
					t.Fatalf("%s: input canvas does not hold a top-left grid", task.Name)
				}
				want, err := ApplyAction(task.Action, p.Input)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(want.Cells, p.Output.Cells) {
					t.Fatalf("%s: output differs from ApplyAction(%v, input)", task.Name, task.Action)
				}
				checked++
				if fam == FamilyScaling {
					continue
				}
				back, err := ApplyAction(synthInverseAction(task.Action), p.Output)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(back.Cells, p.Input.Cells) {
					t.Fatalf("%s: the inverse %v does not give back the input", task.Name, synthInverseAction(task.Action))
				}
				inverted++
			}
		}
		t.Logf("%-11s %3d tasks: %3d outputs = ApplyAction(action, input), %3d inverted back to the input", fam, len(tasks), checked, inverted)
	}
}

func TestSyntheticScalingRoundTrip(t *testing.T) {
	pool := GridPool(synthTestTasks(20))
	for _, p := range []struct {
		name string
		pool []Grid
	}{{"arc-like pool", pool}, {"empty pool", nil}} {
		tasks, err := SyntheticTasks(FamilyScaling, synthSmallOpts(8, p.pool))
		if err != nil {
			t.Fatal(err)
		}
		pairs := 0
		for _, task := range tasks {
			var factors []int
			var inverse lattice.Action
			switch a := task.Action.(type) {
			case lattice.Upscale:
				factors, inverse = a.Factors, lattice.Downscale{Factors: a.Factors}
			case lattice.Downscale:
				factors, inverse = a.Factors, lattice.Upscale{Factors: a.Factors}
			}
			hr, hc := factors[0], factors[1]
			for _, pair := range append(append([]CanvasPair(nil), task.Train...), task.Test...) {
				in, ok1 := pair.Input.Grid()
				out, ok2 := pair.Output.Grid()
				if !ok1 || !ok2 {
					t.Fatalf("%s: malformed canvases (%v %v)", task.Name, ok1, ok2)
				}
				small, big := in, out
				if _, down := task.Action.(lattice.Downscale); down {
					small, big = out, in
				}
				if small.Rows() > 30/hr || small.Cols() > 30/hc {
					t.Fatalf("%s: base grid %dx%d larger than %dx%d", task.Name, small.Rows(), small.Cols(), 30/hr, 30/hc)
				}
				if big.Rows() != small.Rows()*hr || big.Cols() != small.Cols()*hc {
					t.Fatalf("%s: %dx%d grid scales to %dx%d", task.Name, small.Rows(), small.Cols(), big.Rows(), big.Cols())
				}
				if p.pool != nil && !synthCropOf(small, p.pool) {
					t.Fatalf("%s: base grid is not a top-left crop of a pool grid", task.Name)
				}
				back, err := ApplyAction(inverse, pair.Output)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(back.Cells, pair.Input.Cells) {
					t.Fatalf("%s: %v of the output does not give back the input", task.Name, inverse)
				}
				pairs++
			}
		}
		t.Logf("%s: %d scaling pairs; up: downscale(output) = input, down: upscale(output) = input; all grids fit", p.name, pairs)
	}
}

func TestSyntheticInputs(t *testing.T) {
	pool := GridPool(synthTestTasks(20))
	opts := synthSmallOpts(4, pool)
	opts.NumTrain, opts.MaxTasks = 50, 3
	tasks, err := SyntheticTasks(FamilyRotation, opts)
	if err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, task := range tasks {
		for _, p := range task.Train {
			g, ok := p.Input.Grid()
			if !ok || !synthCropOf(g, pool) {
				t.Fatalf("%s: input is not a pool grid", task.Name)
			}
			if g.Rows() == 30 || g.Cols() == 30 {
				full++
			}
		}
	}
	t.Logf("rotation, pool: 150 inputs all pool grids, %d with a 30-cell side", full)

	// Empty pool: random grids with sides in [1,10].
	opts = SyntheticOptions{NumTrain: 500, NumTest: 1, Seed: 4, MaxTasks: 1}
	task, err := SyntheticTaskAt(FamilyReflection, 0, opts)
	if err != nil {
		t.Fatal(err)
	}
	minR, maxR, minC, maxC := 99, 0, 99, 0
	var colors [NumColors]int
	for _, p := range task.Train {
		g, ok := p.Input.Grid()
		if !ok {
			t.Fatal("malformed random input")
		}
		minR, maxR, minC, maxC = min(minR, g.Rows()), max(maxR, g.Rows()), min(minC, g.Cols()), max(maxC, g.Cols())
		for _, row := range g {
			for _, v := range row {
				colors[v]++
			}
		}
	}
	if minR != 1 || maxR != 10 || minC != 1 || maxC != 10 {
		t.Errorf("random grid sizes rows [%d,%d] cols [%d,%d], want [1,10] both", minR, maxR, minC, maxC)
	}
	for c, n := range colors {
		if n == 0 {
			t.Errorf("color %d never drawn", c)
		}
	}
	t.Logf("empty pool: 500 random inputs, rows in [%d,%d], cols in [%d,%d], color counts %v", minR, maxR, minC, maxC, colors)

	// Small canvas: pool grids are cropped to it.
	opts = SyntheticOptions{NumTrain: 20, NumTest: 1, Pool: pool, Canvas: 12, MaxTasks: 1}
	task, err = SyntheticTaskAt(FamilyTranslation, 0, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range task.Train {
		g, ok := p.Input.Grid()
		if !ok || g.Rows() > 12 || g.Cols() > 12 || len(p.Output.Cells) != 144 || !synthCropOf(g, pool) {
			t.Fatalf("canvas 12: input %dx%d ok=%v", g.Rows(), g.Cols(), ok)
		}
	}
}

func TestSyntheticDefaultsAndErrors(t *testing.T) {
	pool := GridPool(synthTestTasks(20))
	task, err := SyntheticTaskAt(FamilyTranslation, 0, SyntheticOptions{Seed: 1, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	if len(task.Train) != 2048 || len(task.Test) != 100 {
		t.Errorf("defaults: %d train and %d test pairs, want 2048 and 100", len(task.Train), len(task.Test))
	}
	// Its time is BenchmarkSyntheticTranslationTask's (about 50 ms), never a limit in a test.

	bad := []struct {
		fam  SyntheticFamily
		opts SyntheticOptions
	}{
		{"shear", SyntheticOptions{}},
		{FamilyRotation, SyntheticOptions{NumTrain: -1}},
		{FamilyRotation, SyntheticOptions{NumTest: -1}},
		{FamilyRotation, SyntheticOptions{Canvas: 1}},
		{FamilyScaling, SyntheticOptions{Canvas: 4}},
		{FamilyRotation, SyntheticOptions{MaxTasks: -1}},
		{FamilyRotation, SyntheticOptions{Pool: []Grid{{{1, 12}}}}},
		{FamilyRotation, SyntheticOptions{Pool: []Grid{{}}}},
	}
	for _, b := range bad {
		if _, err := SyntheticTasks(b.fam, b.opts); err == nil {
			t.Errorf("family %q, options %+v: no error", b.fam, b.opts)
		}
	}
}

func TestSyntheticGridPool(t *testing.T) {
	tasks := synthTestTasks(3)
	pool := GridPool(tasks)
	// Each task: 2 train pairs (4 grids) + 1 test input (its output is missing).
	if len(pool) != 3*5 {
		t.Fatalf("pool has %d grids, want 15", len(pool))
	}
	if !pool[0].Equal(tasks[0].Train[0].Input) || !pool[1].Equal(tasks[0].Train[0].Output) ||
		!pool[4].Equal(tasks[0].Test[0].Input) || !pool[5].Equal(tasks[1].Train[0].Input) {
		t.Error("pool order is not task by task, train then test, input then output")
	}
	if !reflect.DeepEqual(pool, GridPool(tasks)) {
		t.Error("GridPool is not deterministic")
	}
	if GridPool(nil) != nil {
		t.Error("GridPool(nil) is not empty")
	}
	t.Logf("3 tasks (2 train pairs, 1 prediction-only test) -> %d grids", len(pool))
}

func BenchmarkSyntheticTranslationTask(b *testing.B) {
	pool := GridPool(synthTestTasks(400))
	opts := SyntheticOptions{Seed: 1, Pool: pool}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		task, err := SyntheticTaskAt(FamilyTranslation, i%NumTranslationTasks, opts)
		if err != nil || len(task.Train) != DefaultSyntheticTrain {
			b.Fatal(err)
		}
	}
}
