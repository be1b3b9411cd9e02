// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// SolveHeader is the header of SolveRun's results CSV: the task, the model, what made the predictions
// (source: network or search; action: the element), the canvas, the training steps, the seconds, the test
// outputs known and exactly predicted, the predictions (JSON, a grid or null per test input), the second
// guesses (Result.Second; null where none differs) and what made them (JSON list), and whether the
// solution was loaded from a saved one.
var SolveHeader = []string{"id", "model", "source", "action", "canvas", "steps", "seconds", "test_exact", "test_total",
	"predictions", "second", "second_by", "loaded"}

// solveFormat writes and reads SolveHeader's rows (runner.Format).
var solveFormat = runner.Format[Result]{Header: SolveHeader, Record: solveRecord, Parse: parseSolveRecord,
	Key: func(r Result) string { return r.ID }}

// solveRecord returns the CSV record of r in SolveRun's results file (SolveHeader).
func solveRecord(r Result) []string {
	by, _ := json.Marshal(r.SecondBy)
	return []string{r.ID, r.Model, r.Source, r.Action, strconv.Itoa(r.Canvas), strconv.Itoa(r.Steps),
		strconv.FormatFloat(r.Seconds, 'f', 1, 64), strconv.Itoa(r.TestExact), strconv.Itoa(r.TestTotal),
		PredictionsJSON(r.Predictions), PredictionsJSON(r.Second), string(by), strconv.FormatBool(r.Loaded)}
}

// parseSolveRecord reads a record of SolveHeader, with an error naming the bad column.
func parseSolveRecord(rec []string) (Result, error) {
	var r Result
	if len(rec) != len(SolveHeader) {
		return r, fmt.Errorf("%d columns, want %d", len(rec), len(SolveHeader))
	}
	r.ID, r.Model, r.Source, r.Action = rec[0], rec[1], rec[2], rec[3]
	var err error
	ints := []*int{&r.Canvas, &r.Steps, nil, &r.TestExact, &r.TestTotal}
	for i, p := range ints {
		if p == nil {
			if r.Seconds, err = strconv.ParseFloat(rec[4+i], 64); err != nil {
				return r, fmt.Errorf("column %s: %w", SolveHeader[4+i], err)
			}
			continue
		}
		if *p, err = strconv.Atoi(rec[4+i]); err != nil {
			return r, fmt.Errorf("column %s: %w", SolveHeader[4+i], err)
		}
	}
	for i, dst := range []any{&r.Predictions, &r.Second, &r.SecondBy} {
		if text := rec[9+i]; text != "" {
			if err := json.Unmarshal([]byte(text), dst); err != nil {
				return r, fmt.Errorf("column %s: %w", SolveHeader[9+i], err)
			}
		}
	}
	if r.Loaded, err = strconv.ParseBool(rec[12]); err != nil {
		return r, fmt.Errorf("column loaded: %w", err)
	}
	r.Solved = r.TestTotal > 0 && r.TestExact == r.TestTotal
	return r, nil
}

// solveDefaults returns o with SolveRun's defaults filled in, or an error naming the bad option.
func (o Options) solveDefaults(tasks []datasets.Task, now time.Time) (Options, error) {
	if o.Workers == 0 {
		o.Workers = 1
	}
	if o.Model == "" {
		o.Model = "latformer"
	}
	switch {
	case len(tasks) == 0:
		return o, fmt.Errorf("no tasks to solve")
	case o.Workers < 1:
		return o, fmt.Errorf("workers must be >= 1, got %d", o.Workers)
	case o.Canvas < 0 || o.Canvas > datasets.MaxGridSide:
		return o, fmt.Errorf("canvas must be in 0..%d, got %d", datasets.MaxGridSide, o.Canvas)
	case o.Steps < 0:
		return o, fmt.Errorf("steps must be >= 0")
	case o.Resume && o.Force:
		return o, fmt.Errorf("resume and force contradict each other: " +
			"resume appends to the results file, force overwrites it")
	case o.Save != "" && o.Load != "":
		return o, fmt.Errorf("save and load exclude each other: a loaded solution is saved already")
	}
	if o.Save != "" || o.Load != "" {
		for _, t := range tasks {
			if t.ID == "" || t.ID == "." || t.ID == ".." || strings.ContainsAny(t.ID, `/\`) {
				return o, fmt.Errorf("task %q: its id cannot name the directory of its saved solution", t.ID)
			}
		}
	}
	if o.Out == "" {
		if o.Resume {
			return o, fmt.Errorf("resume needs the results file to continue (Out)")
		}
		o.Out = filepath.Join("runs", fmt.Sprintf("solve-%s.csv", now.Format("20060102-150405")))
	}
	if o.Steps > 0 {
		o.Settings = o.Settings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	}
	arch, err := ModelArchitecture(o.Model)
	if err != nil {
		return o, err
	}
	if err := arcsolver.CheckSettings(arch, o.Settings); err != nil {
		return o, err
	}
	return o, nil
}

// SolveRun solves a user's tasks (datasets.LoadTaskFiles; test outputs may be absent), as Run solves the
// ARC split's (the same Solver, with the same defaults), each trained on its training pairs and its test
// outputs predicted, or predicted by the solution saved for it with o.Load, on o.Workers workers through
// experiments/runner: one row per task written as it finishes into o.Out (SolveHeader; default
// runs/solve-<date>-<time>.csv; Resume skips the tasks already there), a failed task reported and the
// others solved. With o.Save each task's solution is saved as soon as it is solved. The options that select
// ARC tasks (DataDir, Split, Category, Tasks, ...) are not used.
func SolveRun(tasks []datasets.Task, o Options, report Report) (Outcome, error) {
	return solveRun(tasks, o, report, time.Now())
}

// solveRun is SolveRun started at now (the time in the default results file's name).
func solveRun(tasks []datasets.Task, o Options, report Report, now time.Time) (Outcome, error) {
	defaultOut := o.Out == ""
	o, err := o.solveDefaults(tasks, now)
	if err != nil {
		return Outcome{}, err
	}
	run, err := runner.Run(runner.Spec[datasets.Task, Result]{
		Format: solveFormat, Options: o.Options, DefaultOut: defaultOut, Units: tasks,
		Key:      func(t datasets.Task) string { return t.ID },
		Describe: func(t datasets.Task) string { return "task " + t.ID },
		Cost:     func(t datasets.Task) float64 { return taskCost(t, o.canvas(t)) },
		Check: func(r Result, inRun bool) error {
			if inRun && o.Load == "" && r.Model != o.Model {
				return fmt.Errorf("results of model %s (task %s), this run trains %s", r.Model, r.ID, o.Model)
			}
			return nil
		},
		NewWorker: func(b compute.Backend) (runner.Worker[datasets.Task, Result], error) {
			w := &solveWorker{backend: b, save: o.Save, load: o.Load}
			if o.Load != "" {
				return w, nil
			}
			s, err := NewSolver(b, o)
			if err != nil {
				return nil, err
			}
			w.solver = s
			return w, nil
		},
		Report: report.Convert(func(info runner.Info) RunInfo {
			o.Out = info.Out
			return RunInfo{Info: info, Options: o}
		}),
	})
	out := Outcome{Out: cmp.Or(run.Out, o.Out), Results: map[string]Result{}, Elapsed: run.Elapsed}
	for _, t := range tasks {
		out.Selected = append(out.Selected, t.ID)
	}
	for _, r := range run.Results {
		out.Results[r.ID] = r
	}
	return out, err
}

// solveWorker solves tasks with its Solver, or predicts them with their saved solutions (load).
type solveWorker struct {
	backend    compute.Backend
	solver     *Solver // nil with load
	save, load string
}

func (w *solveWorker) Do(task datasets.Task) (Result, error) {
	if w.load != "" {
		saved, err := LoadSolution(w.backend, filepath.Join(w.load, task.ID))
		if err != nil {
			return Result{}, err // runner.Run names the task
		}
		defer saved.Close()
		return saved.Solve(task)
	}
	res, err := w.solver.Solve(task, nil, nil)
	if err != nil {
		return Result{}, err
	}
	if w.save != "" {
		if err := w.solver.Save(filepath.Join(w.save, task.ID)); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

func (w *solveWorker) Close() {
	if w.solver != nil {
		w.solver.Close()
	}
}

// NoPrediction is the grid a submission holds where the solver predicted nothing (an untrained task, a
// malformed predicted grid, a failed task): ARC Prize wants a grid for every attempt.
var NoPrediction = datasets.Grid{{0}}

// Submission returns the ARC Prize submission of the tasks (in SolveRun's results, by id): for each test
// input, attempt_1 the task's prediction and attempt_2 its second guess (Result.Second), or
// attempt_1 again where there is none; NoPrediction where there is no prediction, and for a task without
// a row (it failed).
func Submission(tasks []datasets.Task, results map[string]Result) datasets.Submission {
	sub := datasets.Submission{}
	for _, t := range tasks {
		r := results[t.ID]
		attempts := make([]datasets.Attempts, len(t.Test))
		for i := range attempts {
			first, second := NoPrediction, datasets.Grid(nil)
			if i < len(r.Predictions) && r.Predictions[i] != nil {
				first = r.Predictions[i]
			}
			if i < len(r.Second) {
				second = r.Second[i]
			}
			if second == nil {
				second = first
			}
			attempts[i] = datasets.Attempts{Attempt1: first, Attempt2: second}
		}
		sub[t.ID] = attempts
	}
	return sub
}

// ReadSolveResults reads a results CSV written by SolveRun, keyed by task id; a malformed line is skipped
// with an error naming it, the other rows returned.
func ReadSolveResults(path string) (map[string]Result, error) {
	rows, err := solveFormat.Read(path)
	byID := make(map[string]Result, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	return byID, err
}
