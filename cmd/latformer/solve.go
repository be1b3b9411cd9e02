// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/baselines"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/experiments/runner"
)

func runSolve(args []string) error {
	fs := newFlagSet("solve", "latformer solve [flags] FILE...",
		"Solves the ARC tasks of the FILEs, each an ARC task JSON ({\"train\": [...], \"test\": [...]}, its id\n"+
			"the file name), a folder of them, or an ARC Prize challenges file (task id -> task; test outputs may be\n"+
			"absent): a fresh LatFormer per task, as `latformer arc` solves them. "+
			"Prints each task's element and test\n"+
			"predictions as grids, writes one CSV row per task (--resume continues a run) and, "+
			"with --submission, the\n"+
			"ARC Prize submission (two attempts per test input).")
	submission := fs.String("submission", "", "write the ARC Prize submission to this `file`: "+
		"for each task id one {\"attempt_1\": grid, \"attempt_2\": grid} per test input "+
		"(attempt_1 the prediction, attempt_2 the best different one, else attempt_1 again); "+
		"written at the end, atomically")
	save := fs.String("save", "",
		"save each task's fitted solution (GoMLX checkpoint of the learner, and solution.json) in `dir`/<task id>")
	load := fs.String("load", "", "predict each task with the solution saved in `dir`/<task id> by --save, "+
		"training nothing (the saved model and settings)")
	modelName := fs.String("model", "latformer",
		"model to train per task: latformer, lattice_search (the lattice search alone), or a baseline: "+
			strings.Join(baselines.Names(), ", "))
	steps := fs.Int("steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	canvas := fs.Int("canvas", 0,
		"canvas side (0: per task, the largest grid side of its training pairs and test inputs; 30: the paper's)")
	run := addRunFlags(fs, runHelp{unit: "task", units: "tasks", out: "runs/solve-<date>-<time>.csv",
		set: `hyperparameters, "key=value;key=value"`, recipes: arcsolver.Recipes()})
	files, err := parseFlagsArgs(fs, args)
	if err != nil {
		return err
	}
	if len(*run.devices) > 0 {
		return usageError{errors.New(
			"--devices is not supported by solve (use --shard I/N per process, then latformer merge)"), fs}
	}
	opts := arc.SolveOptions{Model: *modelName, Steps: *steps, Canvas: *canvas, Workers: run.workers,
		NewBackend: backend.New, Out: run.out, Resume: run.resume, Force: run.force, Save: *save, Load: *load}
	if *load != "" {
		var given []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "model" || f.Name == "recipe" || f.Name == "set" || f.Name == "steps" ||
				f.Name == "canvas" || f.Name == "save" {
				given = append(given, "--"+f.Name)
			}
		})
		if len(given) > 0 {
			return usageError{fmt.Errorf("--load predicts with the saved model, settings and canvas: %s not used",
				strings.Join(given, ", ")), fs}
		}
	} else {
		arch, err := arc.ModelArchitecture(*modelName)
		if err != nil {
			return usageError{fmt.Errorf("--model: %w", err), nil}
		}
		table, err := arcsolver.ParamsFor(arch)
		if err != nil {
			return err
		}
		if opts.Settings, err = run.settingsFor(table, nil); err != nil {
			return err
		}
	}
	if len(files) == 0 {
		return usageError{errors.New("no task files: give one or more ARC task files, folders of them, " +
			"or ARC Prize challenges files"), fs}
	}
	if err := run.prepare(fs, files); err != nil {
		return err
	}
	tasks, err := datasets.LoadTaskFiles(files)
	if err != nil {
		return err
	}
	opts.Tasks, opts.Sharding = tasks, run.sharding
	var bar *taskBar
	report := arc.SolveReport{
		Start: func(info runner.Info, o arc.SolveOptions) {
			what := fmt.Sprintf("model %s", o.Model)
			if o.Load != "" {
				what = "the solutions saved in " + o.Load
			}
			bar = startRun(info.Backend, fmt.Sprintf("%d tasks, %d already done, %d to solve with %d worker(s), "+
				"%s; results in %s", info.Units, info.Done, info.Units-info.Done, o.Workers, what, o.Out),
				info.Units-info.Done, "solving", run.quiet)
		},
		Task:  func(r arc.Solved, finished, total int) { bar.done(solvedLines(r, finished, total), finished, total) },
		Error: func(err error) { bar.warn(err) },
	}
	start := time.Now()
	outcome, err := arc.SolveRun(opts, report)
	bar.finish()
	if outcome.Out == "" { // nothing started: bad options
		return err
	}
	exact, known := 0, 0
	for _, t := range tasks {
		r := outcome.Results[t.ID]
		exact, known = exact+r.TestExact, known+r.TestTotal
	}
	if known > 0 {
		fmt.Printf("\ntest outputs in the task files: %d of %d predicted exactly (attempt 1)\n", exact, known)
	}
	if *submission != "" {
		sub := arc.Submission(tasks, outcome.Results)
		if werr := sub.Write(*submission); werr != nil {
			return errors.Join(err, fmt.Errorf("--submission: %w", werr))
		}
		fmt.Printf("submission of %d tasks written to %s\n", len(sub), *submission)
		if len(outcome.Results) < len(tasks) {
			fmt.Printf("(%d tasks failed: their attempts are %v)\n", len(tasks)-countDone(tasks, outcome.Results),
				arc.NoPrediction)
		}
	}
	fmt.Printf("wall time %s; results written to %s\n", time.Since(start).Round(time.Second), outcome.Out)
	return err
}

// countDone counts the tasks that have a row.
func countDone(tasks []datasets.Task, results map[string]arc.Solved) int {
	n := 0
	for _, t := range tasks {
		if _, ok := results[t.ID]; ok {
			n++
		}
	}
	return n
}

// solvedLines are the lines printed for a solved task: its id, the element and what predicted, then each
// test input's two attempts as grids (digits, one row a line), with whether each is exact where the task
// file has the test output.
func solvedLines(r arc.Solved, finished, total int) string {
	var sb strings.Builder
	what := fmt.Sprintf("element %s, predicted by the %s", r.Action, r.Source)
	switch {
	case r.Action == "" && r.Source == arc.SourceSearch && r.Steps == 0:
		what = "no element found by the search, not trained"
	case r.Action == "":
		what = "predicted by the " + r.Source + " (no mask experts, no element)"
	}
	if r.Loaded {
		what += " (loaded)"
	}
	fmt.Fprintf(&sb, "[%d/%d] task %s: %s (model %s, canvas %d, %d steps, %.1fs)",
		finished, total, r.ID, what, r.Model, r.Canvas, r.Steps, r.Seconds)
	if r.TestTotal > 0 {
		fmt.Fprintf(&sb, ", test %d/%d exact", r.TestExact, r.TestTotal)
	}
	for i, g := range r.Predictions {
		fmt.Fprintf(&sb, "\n  test %d, attempt 1 (%s):%s", i, r.Source, gridBlock(g))
		if i < len(r.Second) && r.Second[i] != nil {
			fmt.Fprintf(&sb, "\n  test %d, attempt 2 (%s):%s", i, r.SecondBy[i], gridBlock(r.Second[i]))
		} else {
			fmt.Fprintf(&sb, "\n  test %d, attempt 2: none differs, attempt 1 again", i)
		}
	}
	return sb.String()
}

// gridBlock is a grid printed below its heading, indented (datasets.Grid.String).
func gridBlock(g datasets.Grid) string {
	if g == nil {
		return " no prediction"
	}
	return "\n    " + strings.ReplaceAll(strings.TrimSuffix(g.String(), "\n"), "\n", "\n    ")
}

func runScore(args []string) error {
	fs := newFlagSet("score", "latformer score SUBMISSION SOLUTIONS",
		"Scores an ARC Prize submission (task id -> one {\"attempt_1\", \"attempt_2\"} per test input) against a\n"+
			"solutions file (task id -> test output grids) by the ARC Prize rule: a test input counts when either\n"+
			"attempt is exact, a task scores the fraction of its test inputs, the total is the mean over the tasks.\n"+
			"Prints each task's score and the total.")
	files, err := parseFlagsArgs(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return usageError{fmt.Errorf("want two files, SUBMISSION and SOLUTIONS, got %d", len(files)), fs}
	}
	sub, err := datasets.LoadSubmission(files[0])
	if err != nil {
		return err
	}
	solutions, err := datasets.LoadSolutions(files[1])
	if err != nil {
		return err
	}
	score, err := datasets.ScoreSubmission(sub, solutions)
	if err != nil {
		return fmt.Errorf("scoring %s against %s: %w", files[0], files[1], err)
	}
	for _, t := range score.Tasks {
		fmt.Printf("%-12s %d/%d  %.3f\n", t.ID, t.Exact, t.Tests, t.Score)
	}
	sum := score.Total * float64(len(score.Tasks))
	fmt.Printf("score %.4f (%.2f of %d tasks)\n", score.Total, sum, len(score.Tasks))
	return nil
}
