// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// expertGroup is the group the mask experts encode on a rows x cols canvas, each base composed as
// experts.Expert.ActionOf composes it: Compose(reflections, upscale, downscale, rotation) with the flips
// of each axis, the quarter turns (square canvases only) and per axis a scaling up or down by
// 2..maxScale; BaseCost is the number of parts. Zero-fill shifts up to maxShift.
func expertGroup(rows, cols, maxScale, maxShift int) Group {
	g := Group{ZeroFill: true, MaxShift: maxShift}
	factors := [][2]int{{1, 0}} // (factor, down)
	for h := 2; h <= maxScale; h++ {
		factors = append(factors, [2]int{h, 0}, [2]int{h, 1})
	}
	quarters := 1
	if rows == cols {
		quarters = 4
	}
	for flips := range 4 {
		for q := range quarters {
			for _, fr := range factors {
				for _, fc := range factors {
					var parts []lattice.Action
					for a := range 2 {
						if flips>>a&1 == 1 {
							parts = append(parts, lattice.Reflection{Axis: a})
						}
					}
					up, down := []int{1, 1}, []int{1, 1}
					for a, f := range [][2]int{fr, fc} {
						if f[1] == 1 {
							down[a] = f[0]
						} else {
							up[a] = f[0]
						}
					}
					if up[0] != 1 || up[1] != 1 {
						parts = append(parts, lattice.Upscale{Factors: up})
					}
					if down[0] != 1 || down[1] != 1 {
						parts = append(parts, lattice.Downscale{Factors: down})
					}
					if q > 0 {
						parts = append(parts, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: q})
					}
					g.Bases = append(g.Bases, lattice.Compose(parts...))
					g.BaseCost = append(g.BaseCost, len(parts))
				}
			}
		}
	}
	return g
}

// proposeTrain calls Propose on the training pairs of task only, on a side x side canvas.
func proposeTrain(task datasets.Task, side int, group Group, max int) ([]Proposal, error) {
	var ins, outs []datasets.Canvas
	for i, p := range task.Train {
		x, err := datasets.ToCanvas(p.Input, side, side)
		if err != nil {
			return nil, fmt.Errorf("train %d: %w", i, err)
		}
		y, err := datasets.ToCanvas(p.Output, side, side)
		if err != nil {
			return nil, fmt.Errorf("train %d: %w", i, err)
		}
		ins, outs = append(ins, x), append(outs, y)
	}
	return Propose(ins, outs, group, max)
}

// predictsTests reports whether p predicts every test output of task (grids compared as
// experiments/arc compares them), with every key in the table.
func predictsTests(t testing.TB, p Proposal, task datasets.Task, side int) bool {
	t.Helper()
	for _, tp := range task.Test {
		x, err := datasets.ToCanvas(tp.Input, side, side)
		if err != nil {
			t.Fatal(err)
		}
		out, ok, err := p.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		g, gok := out.Grid()
		if !ok || !gok || !g.Equal(tp.Output) {
			return false
		}
	}
	return true
}

// synthF is the color table of the synthetic tasks: pad where g·x is pad, else a recoloring of g·x that
// depends on the parity of x's token (pad counting as even).
func synthF(a, b int32) int32 {
	switch {
	case a == datasets.PadToken:
		return datasets.PadToken
	case b == datasets.PadToken || b%2 == 0:
		return (a + 5) % 10
	}
	return (a*3 + 1) % 10
}

// synthPair returns a random input canvas (a grid of colors 0..2 of maxR or maxR-1 rows and maxC or maxC-1 columns,
// at the top-left of rows x cols) and its output synthF(g·x, x).
func synthPair(t *testing.T, rng *rand.Rand, g lattice.Action, rows, cols, maxR, maxC int) (datasets.Canvas, datasets.Canvas) {
	t.Helper()
	grid := datasets.NewGrid(maxR-rng.IntN(2), maxC-rng.IntN(2), 0)
	for i := range grid {
		for j := range grid[i] {
			grid[i][j] = rng.IntN(3)
		}
	}
	x, err := datasets.ToCanvas(grid, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	gx, err := datasets.ApplyAction(g, x)
	if err != nil {
		t.Fatal(err)
	}
	y := datasets.Canvas{Rows: rows, Cols: cols, Cells: make([]int32, len(x.Cells))}
	for i := range y.Cells {
		y.Cells[i] = synthF(gx.Cells[i], x.Cells[i])
	}
	return x, y
}

// TestProposeSyntheticElements: for an element of every kind on a 7x7 and a 9x6 canvas (grids smaller
// than the canvas, outputs synthF(g·x, x)), Propose on 12 training pairs lists the element, its Predict
// gives the test output, and so does the top proposal's.
func TestProposeSyntheticElements(t *testing.T) {
	tr := func(dr, dc int) lattice.Action { return lattice.Translation{Deltas: []int{dr, dc}} }
	sh := func(dr, dc int) lattice.Action { return lattice.Shift{Deltas: []int{dr, dc}} }
	refl := func(a int) lattice.Action { return lattice.Reflection{Axis: a} }
	rot := func(q int) lattice.Action { return lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: q} }
	up := func(r, c int) lattice.Action { return lattice.Upscale{Factors: []int{r, c}} }
	down := func(r, c int) lattice.Action { return lattice.Downscale{Factors: []int{r, c}} }
	cases := []struct {
		rows, cols, maxR, maxC int
		g                      lattice.Action
	}{
		{7, 7, 5, 5, tr(2, 3)}, {7, 7, 5, 5, sh(-2, 1)}, {7, 7, 5, 5, lattice.Compose(tr(0, 3), sh(2, 0))},
		{7, 7, 5, 5, refl(0)}, {7, 7, 5, 5, refl(1)}, {7, 7, 5, 5, rot(1)}, {7, 7, 5, 5, rot(2)}, {7, 7, 5, 5, rot(3)},
		{7, 7, 5, 5, lattice.Compose(refl(0), rot(1))}, {7, 7, 5, 5, lattice.Compose(tr(1, 0), refl(1), rot(1))},
		{7, 7, 4, 4, up(2, 1)}, {7, 7, 4, 4, up(2, 2)}, {7, 7, 6, 6, down(3, 3)}, {7, 7, 4, 4, lattice.Compose(tr(1, 0), up(1, 2))},
		{9, 6, 6, 5, tr(4, 1)}, {9, 6, 6, 5, sh(0, -2)}, {9, 6, 6, 5, refl(0)}, {9, 6, 6, 5, refl(1)},
		{9, 6, 8, 5, lattice.Compose(refl(0), refl(1))}, {9, 6, 4, 5, up(2, 1)}, {9, 6, 4, 3, up(2, 2)},
		{9, 6, 8, 5, down(3, 3)}, {9, 6, 6, 5, lattice.Compose(sh(3, 0), refl(1))},
	}
	rng := rand.New(rand.NewPCG(27, 1))
	for _, tc := range cases {
		name := fmt.Sprintf("%dx%d %v", tc.rows, tc.cols, tc.g)
		var ins, outs []datasets.Canvas
		for range 12 {
			x, y := synthPair(t, rng, tc.g, tc.rows, tc.cols, tc.maxR, tc.maxC)
			ins, outs = append(ins, x), append(outs, y)
		}
		testX, testY := synthPair(t, rng, tc.g, tc.rows, tc.cols, tc.maxR, tc.maxC)
		props, err := Propose(ins, outs, expertGroup(tc.rows, tc.cols, 3, 30), 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(props) == 0 {
			t.Errorf("%s: no proposal", name)
			continue
		}
		i := slices.IndexFunc(props, func(p Proposal) bool { return p.Action.String() == tc.g.String() })
		if i < 0 {
			t.Errorf("%s: not among the %d proposals (top %v)", name, len(props), props[0].Action)
			continue
		}
		for _, k := range []int{i, 0} {
			out, ok, err := props[k].Predict(testX)
			if err != nil || !ok || !reflect.DeepEqual(out.Cells, testY.Cells) {
				t.Errorf("%s: proposal %d (%v) does not predict the test output (ok %v, err %v)", name, k, props[k].Action, ok, err)
			}
		}
		t.Logf("%s: rank %d of %d, top %v", name, i, len(props), props[0].Action)
	}
}

// TestProposeNeverSeesTestOutputs: scrambling a task's test output leaves its proposals unchanged (the
// helper passes only task.Train to Propose), and the proposals still predict the original test output.
func TestProposeNeverSeesTestOutputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	task := shiftTask(t, rng, "shift", map[int]int{2: 7})
	group := expertGroup(12, 12, 2, 12)
	before, err := proposeTrain(task, 12, group, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := task.Test[0].Output
	task.Test[0].Output = datasets.RandomGrid(rng, 3, 4)
	after, err := proposeTrain(task, 12, group, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 || !reflect.DeepEqual(before, after) {
		t.Fatalf("%d proposals before scrambling the test output, %d after (or they differ)", len(before), len(after))
	}
	task.Test[0].Output = want
	if !predictsTests(t, before[0], task, 12) {
		t.Errorf("top proposal %v does not predict the test output", before[0].Action)
	}
}

// TestProposeRanking: on a 5x5 canvas filled with 1 whose output is filled with 2, every element of the
// group is consistent (196 = 4 bases x 7² translations); the order follows the documented keys, and
// Propose with max = k returns the first k of the full list.
func TestProposeRanking(t *testing.T) {
	fill := func(v int32) datasets.Canvas {
		c := datasets.Canvas{Rows: 5, Cols: 5, Cells: make([]int32, 25)}
		for i := range c.Cells {
			c.Cells[i] = v
		}
		return c
	}
	group := Group{
		Bases:    []lattice.Action{lattice.IdentityAction{}, lattice.Reflection{Axis: 0}, lattice.Upscale{Factors: []int{2, 1}}, lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1})},
		BaseCost: []int{0, 1, 1, 2}, ZeroFill: true, MaxShift: 1,
	}
	ins, outs := []datasets.Canvas{fill(1), fill(1)}, []datasets.Canvas{fill(2), fill(2)}
	all, err := Propose(ins, outs, group, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 196 {
		t.Fatalf("%d proposals, want 196", len(all))
	}
	var got []string
	for _, p := range all[:12] {
		got = append(got, fmt.Sprintf("%d:%v", p.Entries, p.Action))
	}
	want := []string{"1:identity", "1:reflect(0)", "1:upscale(2,1)", "1:translate(0,1)", "1:translate(0,4)",
		"1:translate(1,0)", "1:translate(4,0)", "1:translate(0,2)", "1:translate(0,3)", "1:translate(1,1)",
		"1:translate(1,4)", "1:translate(2,0)"}
	if !slices.Equal(got, want) {
		t.Errorf("first 12 proposals %v, want %v", got, want)
	}
	checkRanking(t, ins, outs, group, all)
	// Costs are the caller's: with a second base of cost 0, the prefix property still holds.
	group.BaseCost = []int{0, 0, 1, 2}
	if all, err = Propose(ins, outs, group, 0); err != nil || len(all) != 196 {
		t.Fatalf("costs %v: %d proposals (err %v), want 196", group.BaseCost, len(all), err)
	}
	checkRanking(t, ins, outs, group, all)
}

// checkRanking checks that the proposals all (Propose's full list on the 5x5 canvas) are in the
// documented order, every neighbor pair's key (cost, entries, shift size, base, row delta, row
// zero-fill, column delta, column zero-fill) increasing, and that Propose with max = k returns the first
// k of them.
func checkRanking(t *testing.T, ins, outs []datasets.Canvas, group Group, all []Proposal) {
	t.Helper()
	key := func(p Proposal) []int {
		cost := group.BaseCost[p.Base]
		size := 0
		var deltas []int
		for _, s := range p.Shift {
			if s.Delta != 0 || s.ZeroFill {
				cost = group.BaseCost[p.Base] + 1
			}
			d := s.Delta
			if !s.ZeroFill && d > 2 {
				d -= 5
			}
			size += max(d, -d)
			zf := 0
			if s.ZeroFill {
				zf = 1
			}
			deltas = append(deltas, s.Delta, zf)
		}
		return append([]int{cost, p.Entries, size, p.Base}, deltas...)
	}
	for i := 1; i < len(all); i++ {
		if slices.Compare(key(all[i-1]), key(all[i])) >= 0 {
			t.Errorf("costs %v: proposals %d (%v, key %v) and %d (%v, key %v) out of order", group.BaseCost, i-1, all[i-1].Action, key(all[i-1]), i, all[i].Action, key(all[i]))
		}
	}
	for _, k := range []int{1, 3, 7, 12, 50, 196} {
		top, err := Propose(ins, outs, group, k)
		if err != nil || !reflect.DeepEqual(top, all[:k]) {
			t.Errorf("costs %v, max %d: %d proposals (err %v), want the first %d of all", group.BaseCost, k, len(top), err, k)
		}
	}
}

// TestProposeErrors: the inputs Propose refuses.
func TestProposeErrors(t *testing.T) {
	c := func(r, cols int) datasets.Canvas {
		return datasets.Canvas{Rows: r, Cols: cols, Cells: make([]int32, r*cols)}
	}
	id := Group{Bases: []lattice.Action{lattice.IdentityAction{}}, BaseCost: []int{0}}
	rot := Group{Bases: []lattice.Action{lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}}, BaseCost: []int{1}}
	for _, tc := range []struct {
		name     string
		ins, out []datasets.Canvas
		g        Group
		want     string
	}{
		{"no pairs", nil, nil, id, "at least one"},
		{"counts", []datasets.Canvas{c(3, 3)}, []datasets.Canvas{c(3, 3), c(3, 3)}, id, "same number"},
		{"sizes", []datasets.Canvas{c(3, 3), c(3, 4)}, []datasets.Canvas{c(3, 3), c(3, 4)}, id, "pair 1: canvas 3x4"},
		{"output size", []datasets.Canvas{c(3, 3)}, []datasets.Canvas{c(3, 4)}, id, "differ in size"},
		{"costs", []datasets.Canvas{c(3, 3)}, []datasets.Canvas{c(3, 3)}, Group{Bases: id.Bases}, "0 base costs for 1 bases"},
		{"rotation of 3x4", []datasets.Canvas{c(3, 4)}, []datasets.Canvas{c(3, 4)}, rot, "base 0"},
	} {
		if _, err := Propose(tc.ins, tc.out, tc.g, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := (Proposal{Action: lattice.IdentityAction{}}).Predict(c(2, 2)); !errors.Is(err, ErrNoTable) {
		t.Errorf("Predict without a table: error %v, want ErrNoTable", err)
	}
}

// TestActionGather: the gathers of Propose equal ApplyAction on a canvas of cell indices for every base
// of the experts' group (scalings up to 3), with translations and zero-fill shifts, on 7x7 and 9x6
// canvases; an action that does not act on the canvas is an error from both.
func TestActionGather(t *testing.T) {
	for _, dims := range [][2]int{{7, 7}, {9, 6}} {
		group := expertGroup(dims[0], dims[1], 3, 0)
		n := 0
		for i, b := range group.Bases {
			for _, g := range []lattice.Action{b, lattice.Compose(lattice.Translation{Deltas: []int{i % 5, 2}}, lattice.Shift{Deltas: []int{0, -(i % 3)}}, b)} {
				got, err := pairscan.ActionGather(g, dims[0], dims[1], nil)
				want, werr := datasets.ActionGather(g, dims[0], dims[1])
				if err != nil || werr != nil || !slices.Equal(got, want) {
					t.Fatalf("%v on %v: gather %v (err %v), ApplyAction gives %v (err %v)", g, dims, got, err, want, werr)
				}
				n++
			}
		}
		t.Logf("%v: %d actions checked", dims, n)
	}
	rot := lattice.Compose(lattice.Downscale{Factors: []int{2, 2}}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1})
	if _, err := pairscan.ActionGather(rot, 9, 6, nil); err == nil {
		t.Errorf("%v on 9x6: no error", rot)
	}
	if _, err := datasets.ActionGather(rot, 9, 6); err == nil {
		t.Errorf("%v on 9x6: no error from ApplyAction", rot)
	}
}

// determinedFloor is the number of the 84 annotated tasks whose top proposal (experts' group, scalings
// up to 5, zero-fill shifts up to 31, on the task's canvas) predicts every test output.
const determinedFloor = 21

// proposeARC runs Propose (max proposals) on the training pairs of the 84 annotated ARC training tasks
// (category not none), each on its canvas (datasets.TaskCanvas) with the experts' group (scalings up to 5,
// zero-fill shifts up to 31), and returns the ids of the tasks whose top proposal predicts every test
// output (with the top element), the ids of those whose top proposal's table lacks a key of a test
// input, the number of proposals, the total time of Propose and the slowest task.
func proposeARC(t testing.TB, tasks []datasets.Task, max int) (determined, noKey []string, proposals int, total time.Duration, slowest string) {
	anns, err := annotate.Default()
	if err != nil {
		t.Fatal(err)
	}
	annotated := 0
	var slow time.Duration
	for _, task := range tasks {
		if anns[task.ID].Category == datasets.CategoryNone {
			continue
		}
		annotated++
		side := datasets.TaskCanvas(task)
		start := time.Now()
		props, err := proposeTrain(task, side, expertGroup(side, side, 5, 31), max)
		if err != nil {
			t.Fatalf("task %s: %v", task.ID, err)
		}
		el := time.Since(start)
		total += el
		if el > slow {
			slow, slowest = el, fmt.Sprintf("%s (%dx%d, %v)", task.ID, side, side, el.Round(time.Millisecond))
		}
		proposals += len(props)
		if len(props) == 0 {
			continue
		}
		if predictsTests(t, props[0], task, side) {
			determined = append(determined, fmt.Sprintf("%s:%v", task.ID, props[0].Action))
		}
		for _, tp := range task.Test {
			x, err := datasets.ToCanvas(tp.Input, side, side)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok, err := props[0].Predict(x); err != nil || !ok {
				noKey = append(noKey, fmt.Sprintf("%s:%v", task.ID, props[0].Action))
				break
			}
		}
	}
	if annotated != 84 {
		t.Fatalf("%d annotated tasks, want 84", annotated)
	}
	return determined, noKey, proposals, total, slowest
}

// TestProposeARC counts the annotated ARC training tasks whose training pairs determine the element:
// the top proposal predicts every test output. It logs the ids and the time; it skips without the ARC
// data.
func TestProposeARC(t *testing.T) {
	determined, noKey, _, total, slowest := proposeARC(t, loadARC(t), 1)
	t.Logf("%d of 84 determined (Propose %v in all, slowest %s): %s", len(determined), total.Round(time.Millisecond), slowest, strings.Join(determined, " "))
	t.Logf("%d whose top table lacks a key of a test input: %s", len(noKey), strings.Join(noKey, " "))
	if len(determined) < determinedFloor {
		t.Errorf("%d tasks determined, want at least %d", len(determined), determinedFloor)
	}
}

// BenchmarkProposeARC times Propose on the 84 annotated ARC training tasks (one op: all 84), for the top
// proposal (max 1), the top 8 and all of them (max 0).
func BenchmarkProposeARC(b *testing.B) {
	tasks := loadARC(b)
	for _, max := range []int{1, 8, 0} {
		b.Run(fmt.Sprintf("max=%d", max), func(b *testing.B) {
			for b.Loop() {
				determined, _, n, total, slowest := proposeARC(b, tasks, max)
				b.Logf("%d determined, %d proposals, Propose %v in all, slowest %s", len(determined), n, total.Round(time.Millisecond), slowest)
			}
		})
	}
}
