// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
	"github.com/latformer/latformer/render"
)

// demoTask is one geometric task of the demo: an action and the size of the random grids it acts on.
type demoTask struct {
	name               string
	action             lattice.Action
	gridRows, gridCols int
}

func demoTasks(canvas int) map[string]demoTask {
	return map[string]demoTask{
		// Rotation of grids that fill the canvas: a pure 90° counter-clockwise rotation.
		"rotate": {"rotate", lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, canvas, canvas},
		// A (3, 2) translation of grids that fill the top-left of the canvas (pad elsewhere).
		"translate": {"translate", lattice.Translation{Deltas: []int{3, 2}}, canvas - 4, canvas - 4},
		// Vertical reflection of full-canvas grids.
		"reflect": {"reflect", lattice.Reflection{Axis: 0}, canvas, canvas},
		// Up-scaling by 2 of small grids.
		"upscale": {"upscale", lattice.Upscale{Factors: []int{2, 2}}, canvas / 2, canvas / 2},
	}
}

func runDemo(args []string) error {
	fs, o := demoFlagSet()
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// The demo shows the gates learning the group element from the paper's initialization; with
	// --set gate_init=search they start at the lattice search's proposal instead.
	base := hparams.Settings{{Key: arcsolver.ParamGateInit, Value: arcsolver.GateInitPaper}}
	user, err := parseSettings(o.settings, arcsolver.Params(), base)
	if err != nil {
		return err
	}
	tasks, err := o.tasks()
	if err != nil {
		return err
	}
	b, err := backend.New()
	if err != nil {
		return err
	}
	fmt.Printf("backend: %s\n", backend.Describe(b))
	solver, err := arcsolver.New(b, base.With(user...), arcsolver.Options{}) // a fresh learner per task
	if err != nil {
		return err
	}
	defer solver.Close()
	allExact := true
	start := time.Now()
	for _, task := range tasks {
		exact, err := runDemoTask(solver, task, *o)
		if err != nil {
			return err
		}
		allExact = allExact && exact
	}
	if !allExact {
		fmt.Printf("\nnot every test pair was predicted exactly (%s)\n", time.Since(start).Round(100*time.Millisecond))
		return nil
	}
	fmt.Printf("\nall %d tasks: every test pair exact; demo finished in %s\n", len(tasks),
		time.Since(start).Round(100*time.Millisecond))
	return nil
}

// demoOptions are the flags of `latformer demo`.
type demoOptions struct {
	canvas, numTrain, numTest int
	seed                      uint64
	outDir                    string
	quiet                     bool
	taskNames                 *[]string // --tasks
	settings                  string    // --set
}

// demoFlagSet returns the flag set of `latformer demo` and its flags.
func demoFlagSet() (*flag.FlagSet, *demoOptions) {
	fs := newFlagSet("demo", "latformer demo [flags]",
		"Learns geometric tasks (rotation, translation, ...) from a few examples each on a small canvas and\n"+
			"prints the test accuracy (\"accuracy: 100/100\"), the learned group element and mask.")
	o := &demoOptions{}
	o.taskNames = stringsFlag(fs, "tasks", []string{"rotate", "translate"},
		"comma-separated `tasks`: rotate, translate, reflect, upscale")
	fs.IntVar(&o.canvas, "canvas", 10, "canvas side (the grids live on a canvas x canvas lattice, 2..30)")
	fs.IntVar(&o.numTrain, "train", 10, "number of training example pairs per task")
	fs.IntVar(&o.numTest, "test", 100, "number of held-out test pairs per task")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the task generator")
	fs.StringVar(&o.outDir, "out", "runs/demo",
		"directory for the mask and example pictures (PNG, overwritten on each run); empty: none")
	fs.StringVar(&o.settings, "set", "", `hyperparameters, "key=value;key=value" `+
		`(docs/hyperparameters.md: train_steps, model_dim, ...); the demo trains with gate_init=paper `+
		`(the gates learn the element) unless this sets gate_init`)
	fs.BoolVar(&o.quiet, "quiet", false, "no per-step progress")
	return fs, o
}

// tasks checks the canvas and the numbers of pairs and returns the tasks --tasks names.
func (o demoOptions) tasks() ([]demoTask, error) {
	if o.canvas < 2 || o.canvas > datasets.MaxGridSide {
		return nil, fmt.Errorf("--canvas must be in 2..%d, got %d", datasets.MaxGridSide, o.canvas)
	}
	if o.numTrain < 1 || o.numTest < 1 {
		return nil, fmt.Errorf("--train and --test must be positive")
	}
	all := demoTasks(o.canvas)
	var tasks []demoTask
	for _, name := range *o.taskNames {
		task, ok := all[name]
		if !ok {
			return nil, fmt.Errorf("unknown task %q in --tasks (known: rotate, translate, reflect, upscale)", name)
		}
		tasks = append(tasks, task)
	}
	return tasks, nil
}

// runDemoTask solves one demo task with a fresh LatFormer (arcsolver.Solver), prints its accuracy, learned
// action and mask (and saves the pictures under o.outDir), and reports whether every test pair came out exact.
func runDemoTask(solver *arcsolver.Solver, task demoTask, o demoOptions) (bool, error) {
	rng := rand.New(rand.NewPCG(o.seed, uint64(len(task.name))))
	_, trainIn, trainOut, err := datasets.ActionExamples(rng, task.action, o.canvas, o.canvas, task.gridRows,
		task.gridCols, o.numTrain)
	if err != nil {
		return false, err
	}
	_, testIn, testOut, err := datasets.ActionExamples(rng, task.action, o.canvas, o.canvas, task.gridRows,
		task.gridCols, o.numTest)
	if err != nil {
		return false, err
	}
	train := make([]latformer.Example, len(trainIn))
	for i := range trainIn {
		train[i] = latformer.Example{Input: trainIn[i], Output: trainOut[i]}
	}
	test := make([]latformer.Example, len(testIn))
	for i := range testIn {
		test[i] = latformer.Example{Input: testIn[i]}
	}
	fmt.Printf("\n== task %s: %v on a %dx%d canvas, %d training pairs, %d test pairs\n",
		task.name, task.action, o.canvas, o.canvas, o.numTrain, o.numTest)
	bar := newProgressBar(fmt.Sprintf("training %s", task.name), o.quiet)
	sol, err := solver.Solve(train, test, bar.update)
	bar.finish()
	if err != nil {
		return false, err
	}
	res := sol.Fit
	fmt.Printf("trained %d steps in %s (loss %.4f, training canvases exact: %.0f%%, fitted: %v)\n",
		res.Steps, res.Elapsed.Round(time.Millisecond), res.Loss, 100*res.Exact, res.Fitted)
	exact := 0
	for i, p := range sol.Predictions {
		if p != nil && slices.Equal(p.Cells, testOut[i].Cells) {
			exact++
		}
	}
	actions := map[string]int{}
	for _, p := range sol.Network {
		actions[p.Action.String()]++
	}
	fmt.Printf("test exact-match accuracy: %d/%d = %.1f%%\n", exact, len(test), 100*float64(exact)/float64(len(test)))
	if sol.Source != arcsolver.SourceNetwork {
		fmt.Printf("predicted by: %s (the lattice search decided; see search_fallback, search_screen)\n", sol.Source)
	}
	if sol.Action == nil {
		return false, nil
	}
	fmt.Printf("learned action (discretized gates): %v   [true: %v]   %s\n", sol.Action, task.action,
		actionAgreement(actions))
	return exact == len(test), showLearned(sol, task, testIn[0], testOut[0], o)
}

// showLearned prints the solution's mask beside the task's true one and the first test pair (input,
// expected, predicted), and saves them as pictures under o.outDir.
func showLearned(sol arcsolver.Solution, task demoTask, in, want datasets.Canvas, o demoOptions) error {
	dims := []int{o.canvas, o.canvas}
	mask, err := sol.Action.Mask(dims)
	if err != nil {
		return err
	}
	trueMask, _ := task.action.Mask(dims)
	fmt.Printf("learned mask equals the true mask M_g: %v\n", mask.Equal(trueMask, 0))
	fmt.Printf("learned %dx%d mask (# = 1):\n%s", mask.Rows, mask.Cols,
		render.MaskASCII(mask.Rows, mask.Cols, mask.Data, 34))
	in0, _ := in.Grid()
	exp0 := canvasGrid(want)
	pred0 := render.Grid{}
	if sol.Predictions[0] != nil {
		pred0 = canvasGrid(*sol.Predictions[0])
	}
	fmt.Printf("first test pair (input | expected | predicted):\n%s\n",
		render.SideBySide(3, render.GridText(toRender(in0)), render.GridText(exp0), render.GridText(pred0)))
	if o.outDir == "" {
		return nil
	}
	if err := os.MkdirAll(o.outDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(o.outDir, task.name+"_mask.png")
	img := render.MaskImage(mask.Rows, mask.Cols, mask.Data, max(1, 400/mask.Rows))
	if err := render.SavePNG(path, img); err != nil {
		return err
	}
	gpath := filepath.Join(o.outDir, task.name+"_example.png")
	if err := render.SavePNG(gpath, render.GridsRow([]render.Grid{toRender(in0), exp0, pred0}, 16)); err != nil {
		return err
	}
	fmt.Printf("pictures: %s, %s\n", path, gpath)
	return nil
}

// canvasGrid returns the whole canvas as a render.Grid (pad cells included).
func canvasGrid(c datasets.Canvas) render.Grid {
	g := make(render.Grid, c.Rows)
	for i := range g {
		g[i] = make([]int, c.Cols)
		for j := range g[i] {
			g[i][j] = int(c.Cells[i*c.Cols+j])
		}
	}
	return g
}

func toRender(g datasets.Grid) render.Grid { return render.Grid(g) }

func actionAgreement(counts map[string]int) string {
	total := 0
	for _, c := range counts {
		total += c
	}
	if len(counts) == 1 {
		return fmt.Sprintf("(same on all %d test inputs)", total)
	}
	return fmt.Sprintf("(%d different actions over %d test inputs: %v)", len(counts), total, counts)
}
