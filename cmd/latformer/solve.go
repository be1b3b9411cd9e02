// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/baselines"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
)

// runSolve is `latformer solve`: a user's task files solved through arc.SolveRun, then the submission.
func runSolve(args []string) error {
	fs, f, run := solveFlagSet()
	files, err := parseFlagsArgs(fs, args)
	if err != nil {
		return err
	}
	if len(*run.devices) > 0 {
		return usageError{errors.New(
			"--devices is not supported by solve (use --shard I/N per process, then latformer merge)"), fs}
	}
	opts, err := f.options(fs, run)
	if err != nil {
		return err
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
	opts.Options = run.options(opts.Settings)
	start := time.Now()
	outcome, err := runUnits(unitReport[arc.RunInfo, arc.Result]{desc: "solving", quiet: run.quiet,
		summary: solveSummary, line: solvedLines},
		func(r arc.Report) (arc.Outcome, error) { return arc.SolveRun(tasks, opts, r) })
	if outcome.Out == "" { // nothing started: bad options
		return err
	}
	if werr := printSolveSummary(tasks, outcome, f.submission); werr != nil {
		return errors.Join(err, werr)
	}
	printWall(time.Since(start), outcome.Out)
	return err
}

// solveFlags are the flags of `latformer solve` (the run flags aside).
type solveFlags struct {
	arc.Options
	submission string
}

// solveFlagSet returns the flag set of `latformer solve`, its flags and its run flags.
func solveFlagSet() (*flag.FlagSet, *solveFlags, *runFlags) {
	fs := newFlagSet("solve", "latformer solve [flags] FILE...",
		"Solves the ARC tasks of the FILEs, each an ARC task JSON ({\"train\": [...], \"test\": [...]}, its id\n"+
			"the file name), a folder of them, or an ARC Prize challenges file (task id -> task; test outputs may be\n"+
			"absent): a fresh LatFormer per task, as `latformer arc` solves them. "+
			"Prints each task's element and test\n"+
			"predictions as grids, writes one CSV row per task (--resume continues a run) and, "+
			"with --submission, the\n"+
			"ARC Prize submission (two attempts per test input).")
	f := &solveFlags{}
	fs.StringVar(&f.submission, "submission", "", "write the ARC Prize submission to this `file`: "+
		"for each task id one {\"attempt_1\": grid, \"attempt_2\": grid} per test input "+
		"(attempt_1 the prediction, attempt_2 the best different one, else attempt_1 again); "+
		"written at the end, atomically")
	fs.StringVar(&f.Save, "save", "",
		"save each task's fitted solution (GoMLX checkpoint of the learner, and solution.json) in `dir`/<task id>")
	fs.StringVar(&f.Load, "load", "", "predict each task with the solution saved in `dir`/<task id> by --save, "+
		"training nothing (the saved model and settings)")
	fs.StringVar(&f.Model, "model", "latformer",
		"model to train per task: latformer, lattice_search (the lattice search alone), or a baseline: "+
			strings.Join(baselines.Names(), ", "))
	fs.IntVar(&f.Steps, "steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	fs.IntVar(&f.Canvas, "canvas", 0,
		"canvas side (0: per task, the largest grid side of its training pairs and test inputs; 30: the paper's)")
	run := addRunFlags(fs, runHelp{unit: "task", units: "tasks", out: "runs/solve-<date>-<time>.csv",
		set: `hyperparameters, "key=value;key=value"`, recipes: arcsolver.Recipes()})
	return fs, f, run
}

// options returns the options the flags set, the settings of --recipe and --set checked against the
// model's hyperparameters; with --load, a usage error for the flags it does not use.
func (f *solveFlags) options(fs *flag.FlagSet, run *runFlags) (arc.Options, error) {
	opts := f.Options
	if opts.Load != "" {
		var given []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "model" || f.Name == "recipe" || f.Name == "set" || f.Name == "steps" ||
				f.Name == "canvas" || f.Name == "save" {
				given = append(given, "--"+f.Name)
			}
		})
		if len(given) > 0 {
			return opts, usageError{fmt.Errorf("--load predicts with the saved model, settings and canvas: %s not used",
				strings.Join(given, ", ")), fs}
		}
		return opts, nil
	}
	arch, err := arc.ModelArchitecture(opts.Model)
	if err != nil {
		return opts, usageError{fmt.Errorf("--model: %w", err), nil}
	}
	table, err := arcsolver.ParamsFor(arch)
	if err != nil {
		return opts, err
	}
	opts.Settings, err = run.settingsFor(table, nil)
	return opts, err
}

// solveSummary is the line under the backend's at the start of a solve run.
func solveSummary(info arc.RunInfo) string {
	o := info.Options
	what := fmt.Sprintf("model %s", o.Model)
	if o.Load != "" {
		what = "the solutions saved in " + o.Load
	}
	return fmt.Sprintf("%d tasks, %d already done, %d to solve with %d worker(s), %s; results in %s",
		info.Units, info.Done, info.Units-info.Done, o.Workers, what, o.Out)
}

// printSolveSummary prints how many of the test outputs the task files have were predicted exactly and
// writes the submission (to submission; "" for none).
func printSolveSummary(tasks []datasets.Task, outcome arc.Outcome, submission string) error {
	exact, known := 0, 0
	for _, t := range tasks {
		r := outcome.Results[t.ID]
		exact, known = exact+r.TestExact, known+r.TestTotal
	}
	if known > 0 {
		fmt.Printf("\ntest outputs in the task files: %d of %d predicted exactly (attempt 1)\n", exact, known)
	}
	if submission == "" {
		return nil
	}
	sub := arc.Submission(tasks, outcome.Results)
	if err := sub.Write(submission); err != nil {
		return fmt.Errorf("--submission: %w", err)
	}
	fmt.Printf("submission of %d tasks written to %s\n", len(sub), submission)
	if len(outcome.Results) < len(tasks) {
		fmt.Printf("(%d tasks failed: their attempts are %v)\n", len(tasks)-countDone(tasks, outcome.Results),
			arc.NoPrediction)
	}
	return nil
}

// countDone counts the tasks that have a row.
func countDone(tasks []datasets.Task, results map[string]arc.Result) int {
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
func solvedLines(r arc.Result, finished, total int) string {
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
