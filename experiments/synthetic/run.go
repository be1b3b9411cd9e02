// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Unit is one training run: Model learns task Task (0-based index) of Family from its first NumTrain
// training pairs, with the inputs' one-hot noise Noise, and predicts the task's test pairs.
type Unit struct {
	Model    string
	Family   datasets.SyntheticFamily
	Task     int
	NumTrain int
	Noise    float64
}

// key identifies a unit in a results file.
func (u Unit) key() string {
	return fmt.Sprintf("%s|%s|%d|%d|%g", u.Model, u.Family, u.Task, u.NumTrain, u.Noise)
}

// Units lists the units of a run, in the order they are run: by training-set size, then family, task,
// noise level and model, so that an interrupted run has every model's curve up to the same size.
func Units(o Options) ([]Unit, error) {
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return nil, err
	}
	return o.units()
}

func (o Options) units() ([]Unit, error) {
	var out []Unit
	for _, n := range o.Sizes {
		for _, f := range o.Families {
			specs, err := datasets.SyntheticTaskSpecs(f, datasets.SyntheticOptions{Canvas: o.Canvas, Seed: o.Seed})
			if err != nil {
				return nil, err
			}
			tasks := len(specs)
			if k := o.tasksOf(f); k > 0 && k < tasks {
				tasks = k
			}
			for t := range tasks {
				for _, w := range o.Noise {
					for _, m := range o.Models {
						out = append(out, Unit{Model: m, Family: f, Task: t, NumTrain: n, Noise: w})
					}
				}
			}
		}
	}
	return out, nil
}

// RunInfo describes a run that is about to start: the runner's Info and the options.
type RunInfo struct {
	runner.Info
	Options Options // with the defaults filled in (Out is the file written)
}

// Report receives a run's progress (runner.Report): Done per row, Error when a unit fails (the error
// names it; the run goes on) or a bad line of a resumed results file is dropped.
type Report = runner.Report[RunInfo, Result]

// Outcome is what a run produced: every row of its units, resumed ones included.
type Outcome struct {
	Out     string
	Options Options
	Results []Result
	// Others are the rows of a resumed results file outside the run's units (other models, families,
	// sizes: a series run apart into the same file), the first of each unit's, in file order; the
	// tables and the figure of the file show them beside Results.
	Others  []Result
	Elapsed time.Duration
}

// Run trains the units of o and writes one CSV row per unit as soon as it finishes (runner.Run: Resume
// skips the units already in o.Out and refuses a file of another experiment or canvas). Each worker has
// its own backend and one learner cache per model, so the graphs of a canvas and batch shape are
// compiled once per worker and model. A unit that fails is reported and skipped; Run returns the first
// such error with the outcome.
func Run(o Options, report Report) (Outcome, error) {
	defaultOut := o.Out == ""
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return Outcome{}, err
	}
	units, err := o.units()
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Out: o.Out, Options: o}
	pool, err := o.pool()
	if err != nil {
		return out, err
	}
	run, err := runner.Run(runner.Spec[Unit, Result]{
		Format: resultsFormat, Options: o.Options, DefaultOut: defaultOut,
		Units: units, Key: Unit.key, Describe: func(u Unit) string {
			return fmt.Sprintf("%s on %s task %d, %d pairs", u.Model, u.Family, u.Task, u.NumTrain)
		},
		Check: func(r Result, _ bool) error {
			if r.Experiment != o.Experiment || r.Canvas != o.Canvas {
				return fmt.Errorf("%s results on a %d x %d canvas, this run is %s on %d x %d", r.Experiment, r.Canvas,
					r.Canvas, o.Experiment, o.Canvas, o.Canvas)
			}
			return nil
		},
		NewWorker: func(b compute.Backend) (runner.Worker[Unit, Result], error) {
			return &worker{o: o, backend: b, pool: pool, solvers: map[[2]string]*arcsolver.Solver{}}, nil
		},
		Report: report.Convert(func(info runner.Info) RunInfo {
			o.Out = info.Out
			return RunInfo{Info: info, Options: o}
		}),
	})
	out.Results, out.Elapsed = run.Results, run.Elapsed
	out.Out = cmp.Or(run.Out, out.Out)
	out.Options.Out = out.Out
	if o.Resume {
		others, readErr := otherRows(o.Out, units)
		out.Others = others
		err = errors.Join(err, readErr)
	}
	return out, err
}

// otherRows returns the rows of the results file at path whose units are not among units, the first
// row of each unit.
func otherRows(path string, units []Unit) ([]Result, error) {
	rows, err := ReadResults(path)
	if err != nil {
		return nil, fmt.Errorf("reading the rows of %s outside the run: %w", path, err)
	}
	seen := map[string]bool{}
	for _, u := range units {
		seen[u.key()] = true
	}
	var others []Result
	for _, r := range rows {
		if k := r.Unit.key(); !seen[k] {
			seen[k] = true
			others = append(others, r)
		}
	}
	return others, nil
}

// pool returns the grids the task inputs are drawn from: every grid of the ARC training tasks, or nil
// (random grids) with RandomGrids.
func (o Options) pool() ([]datasets.Grid, error) {
	if o.RandomGrids {
		return nil, nil
	}
	dataDir, err := datasets.DataDir(o.DataDir)
	if err != nil {
		return nil, fmt.Errorf("%w (the inputs are ARC grids, as in the paper; "+
			"RandomGrids / --random-grids runs without data)", err)
	}
	dir, err := datasets.ARCSplitDir(dataDir, "training")
	if err != nil {
		return nil, err
	}
	tasks, err := datasets.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	pool := datasets.GridPool(tasks)
	if len(pool) == 0 {
		return nil, fmt.Errorf("no ARC grids in %s (the inputs are ARC grids, as in the paper; "+
			"RandomGrids / --random-grids runs without data)", dir)
	}
	return pool, nil
}

// worker trains units on its own backend.
type worker struct {
	o       Options
	backend compute.Backend
	pool    []datasets.Grid
	solvers map[[2]string]*arcsolver.Solver // by model and settings
	task    struct {
		family datasets.SyntheticFamily
		index  int
		task   datasets.SyntheticTask
	}
}

func (wk *worker) Close() {
	for _, s := range wk.solvers {
		s.Close()
	}
}

// synthetic returns task index of family with enough training pairs for the largest size (the training
// sets of the sizes are nested: size n trains on the first n pairs), generated once per task in a row.
func (wk *worker) synthetic(f datasets.SyntheticFamily, index int) (datasets.SyntheticTask, error) {
	if wk.task.family == f && wk.task.index == index && wk.task.task.Train != nil {
		return wk.task.task, nil
	}
	t, err := datasets.SyntheticTaskAt(f, index, datasets.SyntheticOptions{NumTrain: slices.Max(wk.o.Sizes),
		NumTest: wk.o.NumTest, Seed: wk.o.Seed, Pool: wk.pool, Canvas: wk.o.Canvas})
	if err != nil {
		return t, err
	}
	wk.task.family, wk.task.index, wk.task.task = f, index, t
	return t, nil
}

// solver returns the worker's solver of model m with the settings, made on first use (compiled graphs
// reused from unit to unit). The baselines share their settings: each model has its own solver.
func (wk *worker) solver(m string, settings hparams.Settings) (*arcsolver.Solver, error) {
	key := [2]string{m, settings.String()}
	if s := wk.solvers[key]; s != nil {
		return s, nil
	}
	arch, err := architecture(m)
	if err != nil {
		return nil, err
	}
	s, err := arcsolver.New(wk.backend, settings, arcsolver.Options{Architecture: arch, Reuse: true})
	if err != nil {
		return nil, err
	}
	wk.solvers[key] = s
	return s, nil
}

// Do trains and scores one unit.
func (wk *worker) Do(u Unit) (Result, error) {
	start := time.Now()
	task, err := wk.synthetic(u.Family, u.Task)
	if err != nil {
		return Result{}, err
	}
	solver, err := wk.solver(u.Model, wk.o.settings(u.Model, u.Noise))
	if err != nil {
		return Result{}, err
	}
	train := make([]latformer.Example, u.NumTrain)
	for i := range train {
		train[i] = latformer.Example{Input: task.Train[i].Input, Output: task.Train[i].Output}
	}
	test := make([]latformer.Example, len(task.Test))
	for i, p := range task.Test {
		test[i] = latformer.Example{Input: p.Input}
	}
	sol, err := solver.Solve(train, test, nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{Experiment: wk.o.Experiment, Unit: u, TaskName: task.Name, Canvas: wk.o.Canvas, TestTotal: len(test),
		Fitted: sol.Fit.Fitted, Steps: sol.Fit.Steps, TrainExact: sol.Fit.Exact, Action: sol.ActionName()}
	for i, p := range sol.Predictions {
		if p != nil && slices.Equal(p.Cells, task.Test[i].Output.Cells) {
			res.TestExact++
		}
	}
	res.Accuracy = float64(res.TestExact) / float64(res.TestTotal)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
