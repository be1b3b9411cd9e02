// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/baselines"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Options select the tasks of a run and say how to solve them. The zero value of a field is its default.
type Options struct {
	DataDir string // holds arc/<split>/*.json; "" means datasets.DataDir("")
	Split   string // "training" (default) or "evaluation"
	// Category is "all" (default), or one or more of datasets.Categories, comma-separated: the tasks of
	// those annotated categories. On the training split "all" is the annotated tasks (Table 2's 84), on the
	// evaluation split every task of the split, each labeled by annotate.Evaluation (none included).
	Category string
	Tasks    []string // explicit task ids (overrides Category; their category is taken from the annotation)
	// Annotation chooses the annotation that selects and labels the tasks: "one-action" (default,
	// annotate.Default, the 84 tasks of Table 2) or "two-actions" (annotate.DefaultTwoActions,
	// those and the 17 that fit y = f(g₁·x, g₂·x, x)).
	Annotation string
	Limit      int // solve at most this many tasks, in id order (0: all selected)
	// MaxCanvas leaves out the tasks whose grids need a canvas side (datasets.TaskCanvas) above it (0: none left
	// out): for the baselines, whose steps on large canvases take seconds on the pure-Go backend. The
	// tasks left out are in no summary; RunInfo.LeftOut counts them.
	MaxCanvas int
	// Holdout keeps half of the selected tasks, split by a hash of the id (InHoldout): "dev" to choose
	// hyperparameters on, "eval" to report on; "" keeps all.
	Holdout string
	Steps   int // max training steps per task (0: the train_steps hyperparameter)
	Canvas  int // canvas side (0: per task, datasets.TaskCanvas; 30: the paper's)
	// Buckets are canvas sides, ascending: a task's canvas is rounded up to the first that holds it (a
	// task larger than all keeps its own; nil: none). Fewer canvases mean fewer graphs to compile (XLA), but
	// a larger canvas changes the lattice (the translations wrap around at its side) and costs more per step.
	Buckets []int
	// Model is the architecture to train: "latformer" (default) or a baseline (baselines.Names), or
	// LatticeSearch: the lattice search alone, nothing trained.
	Model string
	// CompilePerTask builds and compiles every task's graphs anew instead of reusing those of an earlier
	// task on the same canvas (arcsolver.Options.Reuse); the results are the same.
	CompilePerTask bool
	// Save, when not "", saves each task's solution in Save/<task id> (Solver.Save); Load, when not "",
	// predicts each task with the solution saved in Load/<task id> (LoadSolution), training nothing (the
	// saved model, settings and canvas). SolveRun only.
	Save, Load string
	// Options are the results file (default runs/arc-<split>-<category>-<date>-<time>.csv, one row per
	// task), the workers and the hyperparameters (arcsolver.ParseSettingsFor the Model's architecture).
	runner.Options
	// Curves, when set, receives every training step of every task (Curve): to see how restarts train,
	// and to choose step budgets (a task's row says only how it ended). Called from the workers'
	// goroutines, at the same time for different tasks.
	Curves func(Curve)
}

// Curve is one training step of one task (Options.Curves).
type Curve struct {
	Task string
	latformer.Progress
}

// withDefaults returns o with its defaults filled in, or an error naming the bad option.
func (o Options) withDefaults(now time.Time) (Options, error) {
	if o.Split == "" {
		o.Split = "training"
	}
	if o.Category == "" {
		o.Category = "all"
	}
	if o.Annotation == "" {
		o.Annotation = "one-action"
	}
	if o.Annotation != "one-action" && o.Annotation != "two-actions" {
		return o, fmt.Errorf("annotation must be one-action or two-actions, got %q", o.Annotation)
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	switch {
	case o.Split != "training" && o.Split != "evaluation":
		return o, fmt.Errorf("split must be training or evaluation, got %q", o.Split)
	case o.Workers < 1:
		return o, fmt.Errorf("workers must be >= 1, got %d", o.Workers)
	case o.Canvas < 0 || o.Canvas > datasets.MaxGridSide:
		return o, fmt.Errorf("canvas must be in 0..%d, got %d", datasets.MaxGridSide, o.Canvas)
	case o.Steps < 0 || o.Limit < 0:
		return o, fmt.Errorf("steps and limit must be >= 0")
	case o.MaxCanvas < 0 || o.MaxCanvas > datasets.MaxGridSide:
		return o, fmt.Errorf("max canvas must be in 0..%d (0: no limit), got %d", datasets.MaxGridSide, o.MaxCanvas)
	case o.Resume && o.Force:
		return o, fmt.Errorf("resume and force contradict each other: " +
			"resume appends to the results file, force overwrites it")
	}
	if o.Holdout != "" && o.Holdout != "dev" && o.Holdout != "eval" {
		return o, fmt.Errorf("holdout must be dev, eval or empty, got %q", o.Holdout)
	}
	if _, err := o.categories(); err != nil {
		return o, err
	}
	if o.Out == "" {
		if o.Resume {
			return o, fmt.Errorf("resume needs the results file to continue (Out)")
		}
		o.Out = filepath.Join("runs", fmt.Sprintf("arc-%s-%s-%s.csv", o.Split,
			strings.NewReplacer(",", "+", " ", "").Replace(o.Category), now.Format("20060102-150405")))
	}
	if o.Steps > 0 {
		o.Settings = o.Settings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	}
	if o.Model == "" {
		o.Model = "latformer"
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

// ModelArchitecture returns the architecture a model name (Options.Model) trains: LatFormer's for
// LatticeSearch (whose experts' group it searches), else baselines.ByName's; its hyperparameters are
// arcsolver.ParamsFor it.
func ModelArchitecture(name string) (latformer.Architecture, error) {
	if name == LatticeSearch {
		return latformer.LatFormerArchitecture(), nil
	}
	return baselines.ByName(name)
}

// annotations returns the annotation o.Annotation names, or on the evaluation split its own
// (annotate.Evaluation).
func (o Options) annotations() (map[string]annotate.Annotation, error) {
	if o.Split == "evaluation" {
		if o.Annotation == "two-actions" {
			return nil, fmt.Errorf("the two-action annotation covers the training split only")
		}
		return annotate.Evaluation()
	}
	if o.Annotation == "two-actions" {
		return annotate.DefaultTwoActions()
	}
	return annotate.Default()
}

// SelectTasks loads the tasks that o selects: the ids in o.Tasks, or the tasks of the committed
// annotation (o.Annotation on the training split, annotate.Evaluation on the evaluation split) in
// o.Category, in id order, at most
// o.Limit of them, less those on a canvas above o.MaxCanvas.
func SelectTasks(o Options) ([]datasets.Task, error) {
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return nil, err
	}
	tasks, _, err := selectTasks(o)
	return tasks, err
}

// selectTasks also returns how many tasks o.MaxCanvas left out.
func selectTasks(o Options) ([]datasets.Task, int, error) {
	dataDir, err := datasets.DataDir(o.DataDir)
	if err != nil {
		return nil, 0, err
	}
	splitDir, err := datasets.ARCSplitDir(dataDir, o.Split)
	if err != nil {
		return nil, 0, err
	}
	var ids []string
	if len(o.Tasks) > 0 {
		for _, id := range o.Tasks {
			if id = strings.TrimSuffix(strings.TrimSpace(id), ".json"); id != "" {
				ids = append(ids, id)
			}
		}
	} else {
		annotations, err := o.annotations()
		if err != nil {
			return nil, 0, err
		}
		categories, err := o.categories()
		if err != nil {
			return nil, 0, err
		}
		// On the evaluation split "all" is every task (the whole split is the report), none included.
		everything := categories == nil && o.Split == "evaluation"
		for id, a := range annotations {
			if everything || (a.Category != datasets.CategoryNone && (categories == nil || categories[a.Category])) {
				ids = append(ids, id)
			}
		}
	}
	if o.Holdout != "" {
		kept := ids[:0]
		for _, id := range ids {
			if InHoldout(id) == o.Holdout {
				kept = append(kept, id)
			}
		}
		ids = kept
	}
	sort.Strings(ids)
	ids = slices.Compact(ids) // a task given twice is solved once
	if o.Limit > 0 && len(ids) > o.Limit {
		ids = ids[:o.Limit]
	}
	tasks, err := datasets.LoadTasks(splitDir, ids)
	if err != nil || o.MaxCanvas == 0 {
		return tasks, 0, err
	}
	kept := tasks[:0]
	for _, t := range tasks {
		if datasets.TaskCanvas(t) <= o.MaxCanvas {
			kept = append(kept, t)
		}
	}
	return kept, len(tasks) - len(kept), nil
}

// RunInfo describes a run that is about to start: the runner's Info (Units: the tasks selected) and
// the options.
type RunInfo struct {
	runner.Info
	Options Options // with the defaults filled in (Out is the file written)
	LeftOut int     // tasks left out by Options.MaxCanvas (not among the selected)
}

// Report receives a run's progress (runner.Report): Done when a task is finished and its row written,
// Error when a task fails (the run goes on and Run returns the first error at the end) or a bad line of
// a resumed results file is dropped.
type Report = runner.Report[RunInfo, Result]

// Outcome is what a run produced.
type Outcome struct {
	Out      string            // the results file
	Results  map[string]Result // every selected task's result, old (resumed) and new
	Selected []string          // the selected task ids, in order
	Elapsed  time.Duration
}

// Summaries returns the per-category summary of the selected tasks (Table 2).
func (o Outcome) Summaries() []CategorySummary { return Summarize(o.Results, o.Selected) }

// Run solves the tasks o selects and writes one CSV row per task as soon as it finishes (Header), so an
// interrupted run loses nothing and Resume continues it (runner.Run; a file of another model is
// refused, one in an older format rewritten in the current one). Each of the o.Workers workers has its
// own backend and Solver; the tasks are handed out largest first (taskCost), so that the workers finish
// together. A task that fails is reported and skipped; Run returns the first such error with the outcome.
func Run(o Options, report Report) (Outcome, error) {
	defaultOut := o.Out == ""
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return Outcome{}, err
	}
	tasks, leftOut, err := selectTasks(o)
	if err != nil {
		return Outcome{}, err
	}
	annotations, err := o.annotations()
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Out: o.Out, Results: map[string]Result{}}
	for _, t := range tasks {
		out.Selected = append(out.Selected, t.ID)
	}
	run, err := runner.Run(runner.Spec[datasets.Task, Result]{
		Format: resultsFormat, Options: o.Options, DefaultOut: defaultOut,
		Units: tasks, Key: func(t datasets.Task) string { return t.ID },
		Describe: func(t datasets.Task) string { return "task " + t.ID },
		Cost:     func(t datasets.Task) float64 { return taskCost(t, o.canvas(t)) },
		Check: func(r Result, _ bool) error {
			if r.Model != o.Model {
				return fmt.Errorf("results of model %s (task %s), this run trains %s", r.Model, r.ID, o.Model)
			}
			return nil
		},
		NewWorker: func(b compute.Backend) (runner.Worker[datasets.Task, Result], error) {
			s, err := NewSolver(b, o)
			if err != nil {
				return nil, err
			}
			return worker{s, annotations, o.Curves}, nil
		},
		Report: report.Convert(func(info runner.Info) RunInfo {
			o.Out = info.Out
			return RunInfo{Info: info, Options: o, LeftOut: leftOut}
		}),
	})
	for _, r := range run.Results {
		out.Results[r.ID] = r
	}
	out.Out, out.Elapsed = cmp.Or(run.Out, out.Out), run.Elapsed
	return out, err
}

// worker solves tasks with its Solver (its own backend) and labels them with their annotated category.
type worker struct {
	solver      *Solver
	annotations map[string]annotate.Annotation
	curves      func(Curve)
}

func (w worker) Do(task datasets.Task) (Result, error) {
	var progress func(latformer.Progress)
	if w.curves != nil {
		progress = func(p latformer.Progress) { w.curves(Curve{Task: task.ID, Progress: p}) }
	}
	res, err := w.solver.Solve(task, nil, progress)
	if err != nil {
		return Result{}, err
	}
	res.Category = w.annotations[task.ID].Category
	if res.Category == "" {
		res.Category = datasets.CategoryNone
	}
	return res, nil
}

func (w worker) Close() { w.solver.Close() }

// taskCost estimates a task's training cost on a canvas of the given side, to hand out the largest
// tasks first: a step's work for n = side² cells and p training pairs, p·(n² + 32 n) (attention and
// dense layers at d = 32). The results do not depend on the order.
func taskCost(t datasets.Task, side int) float64 {
	n := float64(side * side)
	return float64(len(t.Train)) * (n*n + 32*n)
}

// InHoldout returns the half of the task set a task id belongs to, "dev" or "eval", by the parity of the
// FNV-1a hash of the id: a fixed split that needs no list. Hyperparameters are chosen on "dev" and
// reported on "eval" (and on all tasks), never task by task.
func InHoldout(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "eval"
}

// categories returns the set of categories o.Category selects, nil for "all", or an error naming the
// bad one.
func (o Options) categories() (map[datasets.Category]bool, error) {
	if o.Category == "all" {
		return nil, nil
	}
	set := map[datasets.Category]bool{}
	for _, name := range strings.Split(o.Category, ",") {
		c := datasets.Category(strings.TrimSpace(name))
		if !slices.Contains(datasets.Categories, c) {
			return nil, fmt.Errorf("category must be all, or one or more (comma-separated) of translate, rotate, "+
				"reflect, scale; got %q in %q", c, o.Category)
		}
		set[c] = true
	}
	return set, nil
}
