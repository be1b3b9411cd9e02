// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math/rand/v2"

	"github.com/latformer/latformer/lattice"
)

// SyntheticFamily names one of the four families of synthetic geometric tasks of Appendix B.1.
type SyntheticFamily string

// The synthetic task families of Appendix B.1.
const (
	FamilyTranslation SyntheticFamily = "translation"
	FamilyRotation    SyntheticFamily = "rotation"
	FamilyReflection  SyntheticFamily = "reflection"
	FamilyScaling     SyntheticFamily = "scaling"
)

// SyntheticFamilies lists the families in the order of the paper's Table 2.
var SyntheticFamilies = []SyntheticFamily{FamilyTranslation, FamilyRotation, FamilyReflection, FamilyScaling}

// NumTranslationTasks is the number of translation tasks of Appendix B.1.
const NumTranslationTasks = 100

// CanvasPair is one input/output example on the canvas, as the model sees it.
type CanvasPair struct {
	Input, Output Canvas
}

// SyntheticTask is one synthetic task: the output canvas of every pair is ApplyAction(Action, input), or,
// in the per-pair families (AnchoredFamilies, Action nil), what the family's rule makes of the input.
type SyntheticTask struct {
	Family SyntheticFamily
	// Name is short and unique within the family: "translate(3,17)", "rot90", "rot180", "rot270",
	// "flip-rows", "flip-cols", "flip-diag", "flip-antidiag", "up(2,3)", "down(3,2)".
	Name   string
	Action lattice.Action
	// Train and Test hold NumTrain and NumTest pairs. All the canvases of a task are slices of one
	// allocation: treat them as read-only (ColorPermutation.Canvas returns new canvases).
	Train, Test []CanvasPair
}

// SyntheticOptions configures SyntheticTasks.
type SyntheticOptions struct {
	// NumTrain and NumTest are the pairs per task; 0 selects the paper's 2048 and 100.
	NumTrain, NumTest int
	// Seed determines everything: the sampled translations and every pair of every task.
	Seed uint64
	// Pool holds the grids the inputs are drawn from (uniformly, with replacement), e.g.
	// GridPool(arcTasks) as in the paper ("sampled from the set of all ARC grids"). When it is empty,
	// each input is a random grid of uniform random size in [1,10]x[1,10] with uniform random colors.
	// Grids larger than what fits (see SyntheticTasks) are cropped, keeping their top-left part.
	Pool []Grid
	// Canvas is the side of the square canvas; 0 selects 30 (MaxGridSide). It must be >= 2, and >= 5
	// for the scaling family.
	Canvas int
	// MaxTasks > 0 keeps only the first MaxTasks tasks of the family (quick modes); they are identical
	// to the first tasks generated with MaxTasks = 0.
	MaxTasks int
}

// Default sizes of Appendix B.1: "For each task in each category, we generated 2048 training pairs and
// 100 test pairs."
const (
	DefaultSyntheticTrain = 2048
	DefaultSyntheticTest  = 100
)

// SyntheticTasks generates the tasks of one family of Appendix B.1. Every input is a grid placed at the
// top-left of a Canvas x Canvas canvas (pad elsewhere) and its output is ApplyAction(task.Action, input),
// the action applied to the whole canvas, pad included (so translations are circular on the canvas and
// rotations and reflections move the grid to another corner). The families:
//
//   - translation: NumTranslationTasks (100) tasks, translations (δr, δc) drawn from Seed uniformly
//     without replacement among [1, Canvas-1]^2 (all of them, in random order, if there are fewer than
//     100). The paper says "we randomly sampled 5 translations in the interval [1, 29] x [1, 29],
//     obtaining a total of 100 translation tasks", which does not add up; we read it as 100 distinct
//     random translations. Inputs are pool grids cropped to the canvas.
//   - rotation: lattice.Rotation{0, 1, k}, counter-clockwise by 90k degrees, k = 1, 2, 3 ("rot90",
//     "rot180", "rot270"). Inputs are pool grids cropped to the canvas.
//   - reflection: lattice.Reflection{0} ("flip-rows": the order of the rows is reversed, an upside-down
//     flip), lattice.Reflection{1} ("flip-cols": left-right), lattice.DiagonalReflection{0, 1, false}
//     ("flip-diag": transpose) and lattice.DiagonalReflection{0, 1, true} ("flip-antidiag"). Inputs
//     are pool grids cropped to the canvas.
//   - scaling: 16 up-scalings lattice.Upscale{hr, hc} ("up(hr,hc)") then 16 down-scalings
//     lattice.Downscale{hr, hc} ("down(hr,hc)"), hr (outer loop) and hc in 2..5. For up(hr,hc) the
//     input is a pool grid cropped to floor(Canvas/hr) x floor(Canvas/hc), so that the up-scaled grid
//     fits the canvas whole. For down(hr,hc) the input is the up-scaling by (hr, hc) of a pool grid
//     cropped the same way, so that down-scaling is exact: the output is the cropped pool grid, and
//     up-scaling the output gives back the input.
//
// The result is fully determined by opts: task i of a family draws its pairs from its own generator
// seeded with (Seed, family, i), so it does not depend on MaxTasks or on the other tasks, and
// SyntheticTaskAt(family, i, opts) returns the same task. Memory: a task holds 2·(NumTrain+NumTest)
// canvases of Canvas² int32, 15.5 MB for the paper's sizes, so the 100 translation tasks take 1.5 GB;
// use MaxTasks, smaller NumTrain, or SyntheticTaskAt one task at a time to bound it.
func SyntheticTasks(family SyntheticFamily, opts SyntheticOptions) ([]SyntheticTask, error) {
	specs, opts, err := syntheticSpecs(family, opts)
	if err != nil {
		return nil, err
	}
	tasks := make([]SyntheticTask, len(specs))
	for i, spec := range specs {
		if tasks[i], err = generateSyntheticTask(spec, i, opts); err != nil {
			return nil, err
		}
	}
	return tasks, nil
}

// SyntheticTaskSpecs returns the tasks SyntheticTasks would generate, with Family, Name and Action set
// and no pairs (Train and Test are nil): cheap, for listing the tasks or looping over them with
// SyntheticTaskAt.
func SyntheticTaskSpecs(family SyntheticFamily, opts SyntheticOptions) ([]SyntheticTask, error) {
	specs, _, err := syntheticSpecs(family, opts)
	return specs, err
}

// SyntheticTaskAt generates only task index (0-based) of the family: the same task as
// SyntheticTasks(family, opts)[index], without generating the others.
func SyntheticTaskAt(family SyntheticFamily, index int, opts SyntheticOptions) (SyntheticTask, error) {
	specs, opts, err := syntheticSpecs(family, opts)
	if err != nil {
		return SyntheticTask{}, err
	}
	if index < 0 || index >= len(specs) {
		return SyntheticTask{}, fmt.Errorf("datasets.SyntheticTaskAt: index %d out of range, family %q has %d tasks",
			index, family, len(specs))
	}
	return generateSyntheticTask(specs[index], index, opts)
}

// GridPool returns every train and test input and output grid of the tasks, in order (task by task;
// within a task the train pairs then the test pairs, the input before the output). Empty grids (the
// missing outputs of prediction-only test pairs) are skipped. The grids are shared, not copied.
func GridPool(tasks []Task) []Grid {
	var pool []Grid
	add := func(g Grid) {
		if len(g) > 0 {
			pool = append(pool, g)
		}
	}
	for _, t := range tasks {
		for _, pairs := range [][]Pair{t.Train, t.Test} {
			for _, p := range pairs {
				add(p.Input)
				add(p.Output)
			}
		}
	}
	return pool
}

// syntheticSpecs validates opts, fills in the defaults and lists the tasks of the family (no pairs).
func syntheticSpecs(family SyntheticFamily, opts SyntheticOptions) ([]SyntheticTask, SyntheticOptions, error) {
	fail := func(format string, args ...any) ([]SyntheticTask, SyntheticOptions, error) {
		return nil, opts, fmt.Errorf("datasets.SyntheticTasks(%q): "+format, append([]any{family}, args...)...)
	}
	if opts.NumTrain < 0 || opts.NumTest < 0 {
		return fail("NumTrain = %d and NumTest = %d must be >= 0 (0 selects the defaults %d and %d)", opts.NumTrain,
			opts.NumTest, DefaultSyntheticTrain, DefaultSyntheticTest)
	}
	if opts.NumTrain == 0 {
		opts.NumTrain = DefaultSyntheticTrain
	}
	if opts.NumTest == 0 {
		opts.NumTest = DefaultSyntheticTest
	}
	if opts.Canvas == 0 {
		opts.Canvas = MaxGridSide
	}
	if opts.Canvas < 2 {
		return fail("canvas side %d must be >= 2", opts.Canvas)
	}
	if opts.MaxTasks < 0 {
		return fail("MaxTasks = %d must be >= 0", opts.MaxTasks)
	}
	for i, g := range opts.Pool {
		if err := g.Validate(); err != nil {
			return fail("pool grid %d: %w", i, err)
		}
	}
	c := opts.Canvas
	var specs []SyntheticTask
	if _, ok := isAnchored(family); ok {
		var err error
		if specs, err = anchoredSpecs(family, opts); err != nil {
			return nil, opts, err
		}
		if opts.MaxTasks > 0 && opts.MaxTasks < len(specs) {
			specs = specs[:opts.MaxTasks]
		}
		return specs, opts, nil
	}
	add := func(name string, a lattice.Action) {
		specs = append(specs, SyntheticTask{Family: family, Name: name, Action: a})
	}
	switch family {
	case FamilyTranslation:
		rng := rand.New(rand.NewPCG(opts.Seed, splitMix64(0x7472616e736c6174))) // "translat"
		cands := make([][2]int, 0, (c-1)*(c-1))
		for dr := 1; dr < c; dr++ {
			for dc := 1; dc < c; dc++ {
				cands = append(cands, [2]int{dr, dc})
			}
		}
		n := min(NumTranslationTasks, len(cands))
		for i := range n { // partial Fisher–Yates: a uniform ordered sample without replacement.
			j := i + rng.IntN(len(cands)-i)
			cands[i], cands[j] = cands[j], cands[i]
			d := cands[i]
			add(fmt.Sprintf("translate(%d,%d)", d[0], d[1]), lattice.Translation{Deltas: []int{d[0], d[1]}})
		}
	case FamilyRotation:
		for k := 1; k <= 3; k++ {
			add(fmt.Sprintf("rot%d", 90*k), lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: k})
		}
	case FamilyReflection:
		add("flip-rows", lattice.Reflection{Axis: 0})
		add("flip-cols", lattice.Reflection{Axis: 1})
		add("flip-diag", lattice.DiagonalReflection{AxisA: 0, AxisB: 1})
		add("flip-antidiag", lattice.DiagonalReflection{AxisA: 0, AxisB: 1, Anti: true})
	case FamilyScaling:
		if c < 5 {
			return fail("canvas side %d must be >= 5 to fit a grid up-scaled by 5", c)
		}
		for _, down := range []bool{false, true} {
			for hr := 2; hr <= 5; hr++ {
				for hc := 2; hc <= 5; hc++ {
					if down {
						add(fmt.Sprintf("down(%d,%d)", hr, hc), lattice.Downscale{Factors: []int{hr, hc}})
					} else {
						add(fmt.Sprintf("up(%d,%d)", hr, hc), lattice.Upscale{Factors: []int{hr, hc}})
					}
				}
			}
		}
	default:
		return fail("unknown family, want one of %v or %v", SyntheticFamilies, AnchoredFamilies)
	}
	if opts.MaxTasks > 0 && opts.MaxTasks < len(specs) {
		specs = specs[:opts.MaxTasks]
	}
	return specs, opts, nil
}

// generateSyntheticTask fills in the pairs of task spec, the index-th of its family; opts is normalized.
func generateSyntheticTask(spec SyntheticTask, index int, opts SyntheticOptions) (SyntheticTask, error) {
	if _, ok := isAnchored(spec.Family); ok {
		return generateAnchoredTask(spec, index, opts)
	}
	c := opts.Canvas
	cells := c * c
	// gather[i] is the input cell that output cell i reads, -1 for pad: ApplyAction computed once.
	gather, err := ActionGather(spec.Action, c, c)
	if err != nil {
		return SyntheticTask{}, fmt.Errorf("datasets.SyntheticTasks(%q): task %s: %w", spec.Family, spec.Name, err)
	}
	// Size of the grid drawn from the pool, and the up-scaling that builds the inputs of down(hr,hc).
	maxR, maxC := c, c
	var upGather []int32
	switch a := spec.Action.(type) {
	case lattice.Upscale:
		maxR, maxC = c/a.Factors[0], c/a.Factors[1]
	case lattice.Downscale:
		maxR, maxC = c/a.Factors[0], c/a.Factors[1]
		if upGather, err = ActionGather(lattice.Upscale{Factors: a.Factors}, c, c); err != nil {
			return SyntheticTask{}, fmt.Errorf("datasets.SyntheticTasks(%q): task %s: %w", spec.Family, spec.Name, err)
		}
	}

	famCode := uint64(0)
	for i, f := range SyntheticFamilies {
		if f == spec.Family {
			famCode = uint64(i + 1)
		}
	}
	rng := rand.New(rand.NewPCG(opts.Seed, splitMix64(famCode<<32|uint64(index))))

	n := opts.NumTrain + opts.NumTest
	slab := make([]int32, 2*n*cells)
	var base []int32
	if upGather != nil {
		base = make([]int32, cells)
	}
	pairs := make([]CanvasPair, n)
	for k := range pairs {
		in := slab[(2*k)*cells : (2*k+1)*cells : (2*k+1)*cells]
		out := slab[(2*k+1)*cells : (2*k+2)*cells : (2*k+2)*cells]
		if upGather != nil {
			writeSyntheticInput(base, c, rng, opts.Pool, maxR, maxC)
			gatherCells(in, base, upGather)
		} else {
			writeSyntheticInput(in, c, rng, opts.Pool, maxR, maxC)
		}
		gatherCells(out, in, gather)
		pairs[k] = CanvasPair{Input: Canvas{Rows: c, Cols: c, Cells: in}, Output: Canvas{Rows: c, Cols: c, Cells: out}}
	}
	spec.Train, spec.Test = pairs[:opts.NumTrain:opts.NumTrain], pairs[opts.NumTrain:]
	return spec, nil
}

// writeSyntheticInput writes into dst (a c x c canvas) a grid drawn from pool (uniformly) or, if pool is
// empty, a random grid of size [1,10]x[1,10] with random colors, cropped to at most maxR x maxC and
// placed at the top-left, pad elsewhere.
func writeSyntheticInput(dst []int32, c int, rng *rand.Rand, pool []Grid, maxR, maxC int) {
	for i := range dst {
		dst[i] = PadToken
	}
	if len(pool) == 0 {
		rows, cols := min(1+rng.IntN(10), maxR), min(1+rng.IntN(10), maxC)
		for i := range rows {
			for j := range cols {
				dst[i*c+j] = int32(rng.IntN(NumColors))
			}
		}
		return
	}
	g := pool[rng.IntN(len(pool))]
	rows, cols := min(g.Rows(), maxR), min(g.Cols(), maxC)
	for i := range rows {
		row := g[i][:cols]
		for j, v := range row {
			dst[i*c+j] = int32(v)
		}
	}
}

// ActionGather returns, for a rows x cols canvas, gather[i] = the cell whose token ApplyAction(a, ·) puts
// in output cell i, or -1 where it puts pad. It runs ApplyAction once on a canvas of distinct cell
// indices (offset by NumTokens so that they never read as pad), so it matches ApplyAction exactly,
// including its first-cell-of-the-block rule for down-scaling.
func ActionGather(a lattice.Action, rows, cols int) ([]int32, error) {
	idx := Canvas{Rows: rows, Cols: cols, Cells: make([]int32, rows*cols)}
	for i := range idx.Cells {
		idx.Cells[i] = int32(i + NumTokens)
	}
	out, err := ApplyAction(a, idx)
	if err != nil {
		return nil, err
	}
	gather := make([]int32, len(out.Cells))
	for i, v := range out.Cells {
		if v == PadToken {
			gather[i] = -1
		} else {
			gather[i] = v - NumTokens
		}
	}
	return gather, nil
}

// gatherCells writes dst[i] = src[gather[i]], PadToken where gather[i] < 0.
func gatherCells(dst, src, gather []int32) {
	for i, s := range gather {
		if s < 0 {
			dst[i] = PadToken
		} else {
			dst[i] = src[s]
		}
	}
}

// splitMix64 is the SplitMix64 finalizer, to derive well-separated generator streams from small ids.
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
