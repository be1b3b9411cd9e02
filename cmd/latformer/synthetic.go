// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/synthetic"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

func runSampleEfficiency(args []string) error {
	return runSynthetic(synthetic.SampleEfficiency, args)
}

func runNoise(args []string) error { return runSynthetic(synthetic.Noise, args) }

// runSynthetic is `latformer sample-efficiency` (Figure 5) and `latformer noise` (Table 4).
func runSynthetic(experiment string, args []string) error {
	fs, f, run := syntheticFlagSet(experiment)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := f.options(fs, experiment)
	table, err := synthetic.Params(o.Models)
	if err != nil {
		return usageError{fmt.Errorf("--models: %w", err), nil}
	}
	base := synthetic.TrainingSettings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	settings, err := run.settingsFor(table, base)
	if err != nil {
		return err
	}
	if err := run.prepare(fs, gridPaths(*f.dataDir, *f.randomGrids)); err != nil {
		return err
	}
	o.Options = run.options(settings)
	outcome, err := runUnits(unitReport[synthetic.RunInfo, synthetic.Result]{desc: "training", quiet: run.quiet,
		summary: syntheticSummary, line: unitLine},
		func(r synthetic.Report) (synthetic.Outcome, error) { return synthetic.Run(o, r) })
	if outcome.Out == "" {
		return err
	}
	return errors.Join(writeSynthetic(outcome, *f.svg), err)
}

// syntheticFlags are the flags of `latformer sample-efficiency` and `latformer noise` (the run flags aside).
type syntheticFlags struct {
	quick, randomGrids            *bool
	dataDir, svg                  *string
	families, models              *[]string
	sizes                         *[]int
	noise                         *[]float64
	tasks, canvas, numTest, steps *int
	seed                          *uint64
}

// syntheticFlagSet returns the flag set of the experiment's command, its flags and its run flags.
func syntheticFlagSet(experiment string) (*flag.FlagSet, *syntheticFlags, *runFlags) {
	full, quickOpts := synthetic.Full(experiment), synthetic.Quick(experiment)
	var fs *flag.FlagSet
	if experiment == synthetic.Noise {
		fs = newFlagSet(experiment, "latformer noise [flags]",
			"Table 4: LatFormer learns each synthetic task (App. B.1) "+
				"from 32 training pairs whose input one-hot vectors\n"+
				"carry the noise of App. B.4, x = ((1-w) onehot + w 1) W, at several levels w; "+
				"prints the mean test accuracy\n"+
				"per family and level. One CSV row per training run, written as it finishes (--resume continues).")
	} else {
		fs = newFlagSet(experiment, "latformer sample-efficiency [flags]",
			"Figure 5: each model learns each synthetic task (App. B.1) from 1, 2, 4, ... "+
				"training pairs and is scored by\n"+
				"its exact-match accuracy on the task's test pairs; "+
				"prints the mean and standard deviation per family and\n"+
				"size, the number of examples each model needs for 0.9, and writes the figure (--svg). "+
				"One CSV row per\n"+
				"training run, written as it finishes (--resume continues).")
	}
	f := &syntheticFlags{}
	f.quick = fs.Bool("quick", false, "quick mode for CI: "+describe(quickOpts))
	f.dataDir = fs.String("data", "", "data directory holding arc/training/*.json, whose grids are the inputs "+
		"(default $"+datasets.EnvDataDir+", else ./data)")
	f.randomGrids = fs.Bool("random-grids", false, "inputs are random grids instead of ARC grids (no data needed)")
	f.families = stringsFlag(fs, "families", nil, "comma-separated `families` "+
		"(default all: translation,rotation,reflection,scaling; also the per-pair families anchor-corner, "+
		"anchor-crop, anchor-flip, anchor-turn, anchor-touch)")
	f.models = stringsFlag(fs, "models", nil, "comma-separated `models`: latformer, latformer_nosmooth, "+
		"latformer_search (gate_init=search), latformer_anchored (the search goes on to the grid's and "+
		"anchor-relative elements: g = g(x)), transformer, attention_abs, attention_rel, cnn, transformer_aug "+
		"(default: "+strings.Join(full.Models, ",")+")")
	f.sizes = intsFlag(fs, "sizes", nil, "comma-separated training-set `sizes` (default "+joinInts(full.Sizes)+")")
	f.noise = floatsFlag(fs, "noise", nil,
		"comma-separated noise `levels` w in [0,1] (default "+joinFloats(full.Noise)+")")
	f.tasks = fs.Int("tasks", 0, "tasks per family, the first of each "+
		"(default: 5 translations and 5 scalings, all 3 rotations and 4 reflections; "+
		"0: all, 100 translations and 32 scalings)")
	f.canvas = fs.Int("canvas", full.Canvas, "canvas side (the paper's is 30)")
	f.numTest = fs.Int("test", full.NumTest, "test pairs per task")
	f.steps = fs.Int("steps", full.Steps, "max training steps per run")
	f.seed = fs.Uint64("seed", 0, "seed of the synthetic tasks")
	f.svg = fs.String("svg", "", "write the figure (one panel per family) to this SVG file")
	run := addRunFlags(fs, runHelp{unit: "training run", units: "training runs",
		out: "runs/" + experiment + "-<date>-<time>.csv",
		set: `hyperparameters for every model, "key=value;key=value" (after ` +
			synthetic.TrainingSettings.String() + `)`,
		recipes: synthetic.Recipes()})
	return fs, f, run
}

// options returns the options of the mode (full or --quick) with the flags given on the command line
// (fs, parsed) on top: an empty list keeps the mode's.
func (f *syntheticFlags) options(fs *flag.FlagSet, experiment string) synthetic.Options {
	o := synthetic.Full(experiment)
	if *f.quick {
		o = synthetic.Quick(experiment)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.DataDir, o.RandomGrids, o.Seed = *f.dataDir, *f.randomGrids, *f.seed
	if set["canvas"] {
		o.Canvas = *f.canvas
	}
	if set["test"] {
		o.NumTest = *f.numTest
	}
	if set["steps"] {
		o.Steps = *f.steps
	}
	if set["tasks"] {
		o.Tasks, o.TasksOf = *f.tasks, nil
	}
	if len(*f.families) > 0 {
		o.Families = nil
		for _, name := range *f.families {
			o.Families = append(o.Families, datasets.SyntheticFamily(name))
		}
	}
	if len(*f.models) > 0 {
		o.Models = *f.models
	}
	if len(*f.sizes) > 0 {
		o.Sizes = *f.sizes
	}
	if len(*f.noise) > 0 {
		o.Noise = *f.noise
	}
	return o
}

// syntheticSummary is the line under the backend's at the start of a run.
func syntheticSummary(info synthetic.RunInfo) string {
	o := info.Options
	return fmt.Sprintf("%s: %d training runs (%s), %d already done, %d to run with %d worker(s); results in %s",
		o.Experiment, info.Units, describe(o), info.Done, info.Units-info.Done, o.Workers, o.Out)
}

// writeSynthetic prints the tables of the results file of a run, the run's rows and those a resumed file
// holds besides (a series run apart), and writes its figure to svg ("" for none).
func writeSynthetic(outcome synthetic.Outcome, svg string) error {
	o := outcome.Options
	results := append(slices.Clone(outcome.Results), outcome.Others...)
	models, families := synthetic.Series(results)
	points := synthetic.Summarize(results, models, families)
	fmt.Println()
	synthetic.WriteTable(os.Stdout, points, o.Experiment)
	if o.Experiment == synthetic.SampleEfficiency {
		fmt.Println()
		synthetic.WriteReach(os.Stdout, points, models, families, 0.9)
	}
	if svg != "" {
		if err := os.WriteFile(svg, []byte(synthetic.FigureSVG(points, models, families)), 0o644); err != nil {
			return err
		}
		fmt.Printf("figure written to %s\n", svg)
	}
	printWall(outcome.Elapsed, outcome.Out)
	return nil
}

// unitLine is the plain line printed for each finished training run.
func unitLine(r synthetic.Result, finished, total int) string {
	action := ""
	if r.Action != "" {
		action = "  learned " + r.Action
	}
	noise := ""
	if r.Experiment == synthetic.Noise {
		noise = fmt.Sprintf(" w=%g", r.Noise)
	}
	return fmt.Sprintf("[%d/%d] %-18s %-11s %-16s n=%-4d%s test %3d/%d  steps %d  fitted %-5v %.1fs%s",
		finished, total, r.Model, r.Family, r.TaskName, r.NumTrain, noise, r.TestExact, r.TestTotal, r.Steps,
		r.Fitted, r.Seconds, action)
}

// describe summarizes the options of a run in one line.
func describe(o synthetic.Options) string {
	tasks := "all tasks"
	if o.Tasks > 0 {
		tasks = fmt.Sprintf("%d task(s) per family", o.Tasks)
	}
	if len(o.TasksOf) > 0 {
		var parts []string
		for _, f := range datasets.SyntheticFamilies {
			if n, ok := o.TasksOf[f]; ok {
				parts = append(parts, fmt.Sprintf("%d %s", n, f))
			}
		}
		tasks = strings.Join(parts, ", ") + " tasks, all of the others"
	}
	return fmt.Sprintf("canvas %d, %s, models %s, sizes %s, noise %s, %d test pairs, %d steps",
		o.Canvas, tasks, strings.Join(o.Models, ","), joinInts(o.Sizes), joinFloats(o.Noise), o.NumTest, o.Steps)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func joinFloats(v []float64) string {
	if len(v) == 0 {
		return "0"
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}
