// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/larc"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/t5"
	"github.com/latformer/latformer/textenc"
)

// larcQuick is `latformer larc --quick`: two tasks, short training, for CI.
var larcQuick = struct {
	limit, steps, bowDim int
	settings             hparams.Settings
}{2, 40, 8, hparams.Settings{{Key: latformer.ParamAugment, Value: 2}, {Key: latformer.ParamRestarts, Value: 1}}}

// runLARC is `latformer larc` (Table 3).
func runLARC(args []string) error {
	fs, f, run := larcFlagSet()
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	base := larc.PaperSettings
	if *f.quick {
		base = base.With(larcQuick.settings...)
	}
	settings, err := run.settingsFor(arcsolver.Params(), base)
	if err != nil {
		return err
	}
	if err := run.prepare(fs, dataPaths(f.DataDir, "arc/training", "larc")); err != nil {
		return err
	}
	o := f.Options
	o.Conditions, o.Tasks, o.Options = *f.conditions, *f.tasks, run.options(settings)
	if *f.quick {
		larcQuickOptions(fs, &o, &f.bowDim)
	}
	if slices.Contains(o.Conditions, larc.ConditionNL) {
		if o.Encoder, err = larcCachedEncoder(o, f.t5Dir, f.bowDim, f.cacheDir); err != nil {
			return err
		}
	}
	outcome, err := runUnits(unitReport[larc.RunInfo, larc.Result]{desc: "training", quiet: run.quiet,
		summary: larcSummary, line: larcLine}, func(r larc.Report) (larc.Outcome, error) { return larc.Run(o, r) })
	if outcome.Out == "" {
		return err
	}
	fmt.Println()
	larc.WriteTable(os.Stdout, larc.Summarize(outcome.Results, outcome.Options.Conditions))
	if c, ok := o.Encoder.(*textenc.Cached); ok {
		fmt.Printf("descriptions: %d embedded, %d from the cache\n", c.Misses, c.Hits)
	}
	printWall(outcome.Elapsed, outcome.Out)
	return err
}

// larcFlags are the flags of `latformer larc` (the run flags aside).
type larcFlags struct {
	larc.Options
	quick             *bool
	t5Dir, cacheDir   string
	bowDim            int
	conditions, tasks *[]string
}

// larcFlagSet returns the flag set of `latformer larc`, its flags and its run flags.
func larcFlagSet() (*flag.FlagSet, *larcFlags, *runFlags) {
	fs := newFlagSet("larc", "latformer larc [flags]",
		"Table 3: LatFormer on the geometric tasks of LARC's test split, trained per task on the input-output pairs\n"+
			"alone (io) "+
			"and with the embedding of the task's description fed to the mask experts' gates and the FFN (nl,\n"+
			"LatFormer + NL). "+
			"The text encoder is T5 with --t5 DIR (a Hugging Face checkpoint directory: config.json,\n"+
			"model.safetensors, spiece.model or tokenizer.json) or, without weights, a bag-of-words stand-in (LSA)\n"+
			"fitted on the descriptions of LARC's training split. One CSV row per task and condition, written as it\n"+
			"finishes (--resume continues).")
	f := &larcFlags{}
	f.quick = fs.Bool("quick", false,
		fmt.Sprintf("quick mode for CI: %d tasks, %d steps, %q, bag-of-words of %d dimensions", larcQuick.limit,
			larcQuick.steps, larcQuick.settings.String(), larcQuick.bowDim))
	fs.StringVar(&f.DataDir, "data", "",
		"data directory holding arc/training/*.json and larc/ (default $"+datasets.EnvDataDir+", else ./data)")
	fs.StringVar(&f.t5Dir, "t5", "", "T5 checkpoint directory "+
		"(e.g. t5-small: config.json, model.safetensors, spiece.model or tokenizer.json); "+
		"default: the bag-of-words stand-in")
	fs.IntVar(&f.bowDim, "bow-dim", 32, "dimensions of the bag-of-words stand-in (without --t5)")
	fs.StringVar(&f.cacheDir, "cache", filepath.Join("runs", "embeddings"),
		"directory of the description-embedding cache (one file per encoder and checkpoint)")
	f.conditions = stringsFlag(fs, "conditions", []string{larc.ConditionIO, larc.ConditionNL},
		"comma-separated `conditions`: io (pairs only), nl (pairs and description)")
	fs.StringVar(&f.Category, "category", "all",
		"tasks of one annotated category: all, translate, rotate, reflect, scale")
	f.tasks = stringsFlag(fs, "tasks", nil, "comma-separated task `ids` among the selected ones")
	fs.IntVar(&f.Limit, "limit", 0, "at most this many tasks, in id order (0: all)")
	fs.IntVar(&f.Steps, "steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	run := addRunFlags(fs, runHelp{unit: "task and condition", units: "rows", out: "runs/larc-<date>-<time>.csv",
		set: `hyperparameters, "key=value;key=value"`, recipes: arcsolver.Recipes()})
	return fs, f, run
}

// larcQuickOptions sets o (and the bag-of-words dimensions) to --quick's, where their flags are not given.
func larcQuickOptions(fs *flag.FlagSet, o *larc.Options, bowDim *int) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["limit"] {
		o.Limit = larcQuick.limit
	}
	if !set["steps"] {
		o.Steps = larcQuick.steps
	}
	if !set["bow-dim"] {
		*bowDim = larcQuick.bowDim
	}
	o.Settings = larcQuick.settings.With(o.Settings...)
}

// larcCachedEncoder returns larcEncoder's encoder wrapped in the embedding cache of cacheDir, and prints
// which it is.
func larcCachedEncoder(o larc.Options, t5Dir string, bowDim int, cacheDir string) (textenc.Encoder, error) {
	enc, describe, err := larcEncoder(o, t5Dir, bowDim)
	if err != nil {
		return nil, err
	}
	cached, err := textenc.NewCached(enc, cacheDir)
	if err != nil {
		return nil, err
	}
	fmt.Printf("text encoder: %s; embeddings cached in %s\n", describe, cached.Path())
	return cached, nil
}

// larcSummary is the line under the backend's at the start of a larc run.
func larcSummary(info larc.RunInfo) string {
	return fmt.Sprintf("%d tasks (LARC test split, annotated %s), %d runs (%s), "+
		"%d already done, %d to run with %d worker(s); results in %s",
		info.Tasks, info.Options.Category, info.Units, strings.Join(info.Options.Conditions, ", "), info.Done,
		info.Units-info.Done, info.Options.Workers, info.Options.Out)
}

// larcLine is the plain line printed for each finished task and condition.
func larcLine(r larc.Result, finished, total int) string {
	solved := "unsolved"
	if r.Solved {
		solved = "SOLVED"
	}
	return fmt.Sprintf("[%d/%d] %s %-9s %-2s %-8s test %d/%d  steps %d  %.1fs  %s",
		finished, total, r.ID, r.Category, r.Condition, solved, r.TestExact, r.TestTotal, r.Steps, r.Seconds,
		r.Action)
}

// larcEncoder returns the text encoder of `latformer larc`: T5 from dir, or the bag-of-words stand-in
// fitted on the descriptions of LARC's training split; and a line describing it.
func larcEncoder(o larc.Options, dir string, bowDim int) (textenc.Encoder, string, error) {
	if dir != "" {
		b, err := backend.New()
		if err != nil {
			return nil, "", err
		}
		enc, err := t5.Load(b, dir)
		if err != nil {
			return nil, "", err
		}
		c := enc.Config
		return enc, fmt.Sprintf("%s (T5 encoder: %d layers, d_model %d, %s feed-forward; mean-pooled)", enc.Name(),
			c.NumLayers, c.DModel, c.FeedForwardProj), nil
	}
	sel, err := larc.SelectTasks(larc.Options{DataDir: o.DataDir, Conditions: []string{larc.ConditionIO}})
	if err != nil {
		return nil, "", err
	}
	bow, err := textenc.FitBagOfWords(sel.TrainDescriptions, bowDim)
	if err != nil {
		return nil, "", err
	}
	return bow, fmt.Sprintf("%s, a STAND-IN for T5 (no T5 weights given: --t5 DIR): "+
		"latent semantic analysis fitted on the %d descriptions of LARC's training split",
		bow.Name(), len(sel.TrainDescriptions)), nil
}
