// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/baselines"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/experiments/runner"
)

// runARC is `latformer arc` (Table 2): flags, the run through arc.Run, then the table and the times.
func runARC(args []string) error {
	fs := newFlagSet("arc", "latformer arc [flags]",
		"Solves ARC tasks one by one: a fresh LatFormer is trained on each task's training pairs and predicts its\n"+
			"test outputs (Appendix B.2). Prints one line per finished task and Table 2; writes one CSV row per task.")
	f := addARCFlags(fs)
	run := addRunFlags(fs, runHelp{unit: "task", units: "tasks", out: "runs/arc-<split>-<category>-<date>-<time>.csv",
		set: `hyperparameters, "key=value;key=value"`, recipes: arcsolver.Recipes()})
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	arch, err := arc.ModelArchitecture(f.Model)
	if err != nil {
		return usageError{fmt.Errorf("--model: %w", err), nil}
	}
	table, err := arcsolver.ParamsFor(arch)
	if err != nil {
		return err
	}
	settings, err := run.settingsFor(table, nil)
	if err != nil {
		return err
	}
	if err := run.prepare(fs, dataPaths(f.DataDir, "arc/"+f.Split)); err != nil {
		return err
	}
	opts := f.options(run.options(settings))
	if f.curves != "" {
		curves, closeCurves, err := curvesWriter(f.curves)
		if err != nil {
			return err
		}
		defer closeCurves()
		opts.Curves = curves
	}
	var phases [3]float64 // search, compile, train+predict seconds of the tasks solved in this run
	outcome, err := runUnits(unitReport[arc.RunInfo, arc.Result]{desc: "solving", quiet: run.quiet, summary: arcSummary,
		line: func(r arc.Result, finished, total int) string {
			phases[0], phases[1] = phases[0]+r.SearchSeconds, phases[1]+r.Compile.Seconds()
			phases[2] += r.Seconds - r.Compile.Seconds() - r.SearchSeconds
			return taskLine(r, finished, total)
		}}, func(r arc.Report) (arc.Outcome, error) { return arc.Run(opts, r) })
	if outcome.Out == "" { // nothing started: bad options or data
		return err
	}
	printARCSummary(outcome, opts.Model, phases)
	return err
}

// arcFlags are the flags of `latformer arc` that select and solve the tasks (the run flags aside).
type arcFlags struct {
	arc.Options
	categories, tasks *[]string // --category, --tasks
	buckets           *[]int    // --canvas-buckets
	curves            string    // --curves
}

// options returns the options of the run the flags describe, with the run flags' options (run).
func (f *arcFlags) options(run runner.Options) arc.Options {
	o := f.Options
	o.Category, o.Tasks, o.Buckets, o.Options = strings.Join(*f.categories, ","), *f.tasks, *f.buckets, run
	return o
}

// addARCFlags defines the task and model flags of `latformer arc` on fs.
func addARCFlags(fs *flag.FlagSet) *arcFlags {
	f := &arcFlags{}
	fs.StringVar(&f.DataDir, "data", "",
		"data directory holding arc/<split>/*.json (default $"+datasets.EnvDataDir+", else ./data)")
	fs.StringVar(&f.Split, "split", "training", "ARC split: training or evaluation")
	f.categories = stringsFlag(fs, "category", []string{"all"}, "tasks of the annotated `categories`: all, "+
		"or one or more (comma-separated) of translate, rotate, reflect, scale")
	f.tasks = stringsFlag(fs, "tasks", nil,
		"comma-separated task `ids` (overrides --category selection; their category is taken from the annotation)")
	fs.StringVar(&f.Annotation, "annotation", "one-action", "annotation that selects and labels the tasks: "+
		"one-action (the 84 tasks of Table 2, annotate.Task) "+
		"or two-actions (those and 17 that fit y = f(g1·x, g2·x, x))")
	fs.StringVar(&f.Holdout, "holdout", "", "keep half of the selected tasks, split by a hash of the id: "+
		"dev (to choose hyperparameters on) or eval (to report on); empty: all")
	fs.IntVar(&f.MaxCanvas, "max-canvas", 0, "leave out the tasks whose canvas side is above this (0: none); "+
		"for the baselines, whose steps on large canvases are slow")
	fs.IntVar(&f.Limit, "limit", 0, "solve at most this many tasks (0: all selected), in id order; for quick runs")
	fs.IntVar(&f.Steps, "steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	fs.IntVar(&f.Canvas, "canvas", 0,
		"canvas side (0: per task, the largest grid side of its training pairs and test inputs; 30: the paper's)")
	f.buckets = intsFlag(fs, "canvas-buckets", nil, `comma-separated canvas `+"`sides`"+
		` to round each task's canvas up to, e.g. "10,20,30": fewer graphs to compile (XLA), more work per step `+
		`(empty: each task's own canvas)`)
	fs.BoolVar(&f.CompilePerTask, "compile-per-task", false, "build and compile every task's graphs anew "+
		"(default: reuse those of an earlier task on the same canvas, reset; same results)")
	fs.StringVar(&f.Model, "model", "latformer", "model to train per task: latformer, "+
		"lattice_search (the lattice search alone: the top element and color table consistent with the training "+
		"pairs, nothing trained), or a baseline of Table 2: "+strings.Join(baselines.Names(), ", ")+
		" (their hyperparameters: baseline_dim, baseline_layers, baseline_heads, baseline_max_relative; "+
		"the DNC's dnc_memory_slots, dnc_memory_width, dnc_read_heads, dnc_spectral)")
	fs.StringVar(&f.curves, "curves", "", "write every training step of every task to this CSV "+
		"(task, restart, proposal, held, step, loss, cell_accuracy, exact, seconds), appending")
	return f
}

// arcSummary is the line under the backend's at the start of an arc run.
func arcSummary(info arc.RunInfo) string {
	o := info.Options
	summary := fmt.Sprintf("%d tasks selected (%s, category %s), %d already done, "+
		"%d to solve with %d worker(s), model %s; results in %s",
		info.Units, o.Split, o.Category, info.Done, info.Units-info.Done, o.Workers, o.Model, o.Out)
	if info.LeftOut > 0 {
		summary += fmt.Sprintf("\n%d tasks left out by --max-canvas %d (canvas side above it): in no table below",
			info.LeftOut, o.MaxCanvas)
	}
	return summary
}

// printARCSummary prints Table 2 of an arc run, the tasks that fail only by their output size, the time
// per phase (phases: search, compile, train+predict seconds of the tasks solved now) and the wall time.
func printARCSummary(outcome arc.Outcome, model string, phases [3]float64) {
	fmt.Println()
	arc.WriteModelTable(os.Stdout, outcome.Summaries(), model)
	var sizeOnly []string
	for _, id := range outcome.Selected {
		if r, ok := outcome.Results[id]; ok && !r.Solved && r.SizeOnly > 0 {
			sizeOnly = append(sizeOnly, id)
		}
	}
	if len(sizeOnly) > 0 {
		fmt.Printf("failing only because of the output size (all cells of the expected grid right): %s\n",
			strings.Join(sizeOnly, ", "))
	}
	fmt.Printf("time per phase, summed over the tasks solved now: "+
		"search %.1f s, compile %.1f s, train+predict %.1f s\n", phases[0], phases[1], phases[2])
	printWall(outcome.Elapsed, outcome.Out)
}

// taskLine is the plain line printed for each finished task: id, category, solved, steps, seconds, action.
func taskLine(r arc.Result, finished, total int) string {
	solved := "unsolved"
	if r.Solved {
		solved = "SOLVED"
	}
	gates := "soft gates: " + r.Action
	if r.HardGates {
		gates = "hard gates: " + r.Action
	}
	if r.Model != "" && r.Model != "latformer" {
		gates = "model " + r.Model // no mask experts, no gates
	}
	switch {
	case r.Source == arc.SourceSearch && r.Model != arc.LatticeSearch && r.Action == "" && r.Steps == 0:
		gates = "not trained: the search found no element (search_screen, or a canvas above train_max_cells)"
	case r.Source == arc.SourceSearch && r.Model != arc.LatticeSearch:
		why := "no hard fit, predicted by the search's proposal"
		if r.RestartsFitted > 0 && r.HardGates {
			why = "hard fit of the proposal's element, predicted by its table"
		}
		gates = fmt.Sprintf("%s %s (network: %s)", why, r.Action,
			map[bool]string{true: "solved", false: "unsolved"}[r.NetworkSolved])
	}
	if r.Lattice == "grid" {
		gates += " [grid lattice]"
	}
	restarts := ""
	if r.Restarts > 1 {
		restarts = fmt.Sprintf(" (restart %d of %d, %d fitted, %d steps in all)", r.Restart+1, r.Restarts,
			r.RestartsFitted, r.TotalSteps)
	}
	search := ""
	if r.Starts > 0 {
		restarts += fmt.Sprintf(" (%d started at proposals", r.Starts)
		if r.StartedAt >= 0 {
			restarts += fmt.Sprintf(", kept: proposal %d", r.StartedAt+1)
		}
		restarts += ")"
	}
	if r.SearchSeconds > 0 {
		search = fmt.Sprintf("search %.2fs, ", r.SearchSeconds)
	}
	return fmt.Sprintf("[%d/%d] %s %-9s %-8s test %d/%d  steps %d%s  "+
		"%.1fs (%scompile %.2fs, train+predict %.1fs)  canvas %d  %s",
		finished, total, r.ID, r.Category, solved, r.TestExact, r.TestTotal, r.Steps, restarts, r.Seconds, search,
		r.Compile.Seconds(), r.Seconds-r.Compile.Seconds()-r.SearchSeconds, r.Canvas, gates)
}

// curvesWriter opens (appending) the --curves CSV and returns the writer of its rows, safe for the workers'
// concurrent calls, and the function that closes the file.
func curvesWriter(path string) (func(arc.Curve), func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("--curves: %w", err)
	}
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		fmt.Fprintln(f, "task,restart,proposal,held,step,loss,cell_accuracy,exact,seconds")
	}
	var mu sync.Mutex
	write := func(c arc.Curve) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(f, "%s,%d,%d,%t,%d,%.6g,%.6g,%.6g,%.3f\n", c.Task, c.Restart, c.Start, c.Held, c.Step, c.Loss,
			c.CellAccuracy, c.Exact, c.Elapsed.Seconds())
	}
	return write, func() { f.Close() }, nil
}
