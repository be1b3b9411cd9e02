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

	"github.com/latformer/latformer/backend"
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
	quick := fs.Bool("quick", false, "quick mode for CI: "+describe(quickOpts))
	dataFlag := fs.String("data", "", "data directory holding arc/training/*.json, whose grids are the inputs "+
		"(default $"+datasets.EnvDataDir+", else ./data)")
	randomGrids := fs.Bool("random-grids", false, "inputs are random grids instead of ARC grids (no data needed)")
	families := stringsFlag(fs, "families", nil, "comma-separated `families` "+
		"(default all: translation,rotation,reflection,scaling; also the per-pair families anchor-corner, "+
		"anchor-crop, anchor-flip, anchor-turn, anchor-touch)")
	models := stringsFlag(fs, "models", nil, "comma-separated `models`: latformer, latformer_nosmooth, "+
		"latformer_search (gate_init=search), latformer_anchored (the search goes on to the grid's and "+
		"anchor-relative elements: g = g(x)), transformer, attention_abs, attention_rel, cnn, transformer_aug "+
		"(default: "+strings.Join(full.Models, ",")+")")
	sizes := intsFlag(fs, "sizes", nil, "comma-separated training-set `sizes` (default "+joinInts(full.Sizes)+")")
	noise := floatsFlag(fs, "noise", nil,
		"comma-separated noise `levels` w in [0,1] (default "+joinFloats(full.Noise)+")")
	tasks := fs.Int("tasks", 0, "tasks per family, the first of each "+
		"(default: 5 translations and 5 scalings, all 3 rotations and 4 reflections; "+
		"0: all, 100 translations and 32 scalings)")
	canvas := fs.Int("canvas", full.Canvas, "canvas side (the paper's is 30)")
	numTest := fs.Int("test", full.NumTest, "test pairs per task")
	steps := fs.Int("steps", full.Steps, "max training steps per run")
	seed := fs.Uint64("seed", 0, "seed of the synthetic tasks")
	svg := fs.String("svg", "", "write the figure (one panel per family) to this SVG file")
	run := addRunFlags(fs, runHelp{unit: "training run", units: "training runs",
		out: "runs/" + experiment + "-<date>-<time>.csv",
		set: `hyperparameters for every model, "key=value;key=value" (after ` +
			synthetic.TrainingSettings.String() + `)`,
		recipes: synthetic.Recipes()})
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := full
	if *quick {
		o = quickOpts
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.DataDir, o.RandomGrids, o.Seed, o.Workers, o.NewBackend = *dataFlag, *randomGrids, *seed, run.workers, backend.New
	// o holds the mode's settings; a flag given on the command line overrides them (an empty list keeps
	// them).
	if set["canvas"] {
		o.Canvas = *canvas
	}
	if set["test"] {
		o.NumTest = *numTest
	}
	if set["steps"] {
		o.Steps = *steps
	}
	if set["tasks"] {
		o.Tasks, o.TasksOf = *tasks, nil
	}
	if len(*families) > 0 {
		o.Families = nil
		for _, f := range *families {
			o.Families = append(o.Families, datasets.SyntheticFamily(f))
		}
	}
	if len(*models) > 0 {
		o.Models = *models
	}
	if len(*sizes) > 0 {
		o.Sizes = *sizes
	}
	if len(*noise) > 0 {
		o.Noise = *noise
	}
	table, err := synthetic.Params(o.Models)
	if err != nil {
		return usageError{fmt.Errorf("--models: %w", err), nil}
	}
	base := synthetic.TrainingSettings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	if o.Settings, err = run.settingsFor(table, base); err != nil {
		return err
	}
	if err := run.prepare(fs, gridPaths(*dataFlag, *randomGrids)); err != nil {
		return err
	}
	o.Out, o.Resume, o.Force, o.Sharding = run.out, run.resume, run.force, run.sharding
	var bar *taskBar
	report := synthetic.Report{
		Start: func(info synthetic.RunInfo) {
			o := info.Options
			bar = startRun(info.Backend,
				fmt.Sprintf("%s: %d training runs (%s), %d already done, %d to run with %d worker(s); results in %s",
					o.Experiment, info.Units, describe(o), info.Done, info.Units-info.Done, o.Workers, o.Out),
				info.Units-info.Done, "training", run.quiet)
		},
		Unit: func(r synthetic.Result, finished, total int) {
			bar.done(unitLine(r, finished, total), finished, total)
		},
		Error: func(err error) { bar.warn(err) },
	}
	outcome, err := synthetic.Run(o, report)
	bar.finish()
	if outcome.Out == "" {
		return err
	}
	return errors.Join(writeSynthetic(outcome, *svg), err)
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
	fmt.Printf("wall time %s; results written to %s\n", outcome.Elapsed.Round(1e9), outcome.Out)
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
