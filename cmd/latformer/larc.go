// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

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
	fs := newFlagSet("larc", "latformer larc [flags]",
		"Table 3: LatFormer on the geometric tasks of LARC's test split, trained per task on the input-output pairs\n"+
			"alone (io) "+
			"and with the embedding of the task's description fed to the mask experts' gates and the FFN (nl,\n"+
			"LatFormer + NL). "+
			"The text encoder is T5 with --t5 DIR (a Hugging Face checkpoint directory: config.json,\n"+
			"model.safetensors, spiece.model or tokenizer.json) or, without weights, a bag-of-words stand-in (LSA)\n"+
			"fitted on the descriptions of LARC's training split. One CSV row per task and condition, written as it\n"+
			"finishes (--resume continues).")
	quick := fs.Bool("quick", false,
		fmt.Sprintf("quick mode for CI: %d tasks, %d steps, %q, bag-of-words of %d dimensions", larcQuick.limit,
			larcQuick.steps, larcQuick.settings.String(), larcQuick.bowDim))
	dataFlag := fs.String("data", "",
		"data directory holding arc/training/*.json and larc/ (default $"+datasets.EnvDataDir+", else ./data)")
	t5Dir := fs.String("t5", "", "T5 checkpoint directory "+
		"(e.g. t5-small: config.json, model.safetensors, spiece.model or tokenizer.json); "+
		"default: the bag-of-words stand-in")
	bowDim := fs.Int("bow-dim", 32, "dimensions of the bag-of-words stand-in (without --t5)")
	cacheDir := fs.String("cache", filepath.Join("runs", "embeddings"),
		"directory of the description-embedding cache (one file per encoder and checkpoint)")
	conditions := stringsFlag(fs, "conditions", []string{larc.ConditionIO, larc.ConditionNL},
		"comma-separated `conditions`: io (pairs only), nl (pairs and description)")
	category := fs.String("category", "all", "tasks of one annotated category: all, translate, rotate, reflect, scale")
	tasks := stringsFlag(fs, "tasks", nil, "comma-separated task `ids` among the selected ones")
	limit := fs.Int("limit", 0, "at most this many tasks, in id order (0: all)")
	steps := fs.Int("steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	run := addRunFlags(fs, runHelp{unit: "task and condition", units: "rows", out: "runs/larc-<date>-<time>.csv",
		set: `hyperparameters, "key=value;key=value"`, recipes: arcsolver.Recipes()})
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	base := larc.PaperSettings
	if *quick {
		base = base.With(larcQuick.settings...)
	}
	settings, err := run.settingsFor(arcsolver.Params(), base)
	if err != nil {
		return err
	}
	if err := run.prepare(fs, dataPaths(*dataFlag, "arc/training", "larc")); err != nil {
		return err
	}
	o := larc.Options{DataDir: *dataFlag, Conditions: *conditions, Category: *category, Tasks: *tasks,
		Limit: *limit, Steps: *steps, Settings: settings, Workers: run.workers, NewBackend: backend.New,
		Out: run.out, Resume: run.resume, Force: run.force, Sharding: run.sharding}
	if *quick {
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
	if slices.Contains(o.Conditions, larc.ConditionNL) {
		enc, describe, err := larcEncoder(o, *t5Dir, *bowDim)
		if err != nil {
			return err
		}
		cached, err := textenc.NewCached(enc, *cacheDir)
		if err != nil {
			return err
		}
		o.Encoder = cached
		fmt.Printf("text encoder: %s; embeddings cached in %s\n", describe, cached.Path())
	}
	var bar *taskBar
	report := larc.Report{
		Start: func(info larc.RunInfo) {
			bar = startRun(info.Backend, fmt.Sprintf("%d tasks (LARC test split, annotated %s), %d runs (%s), "+
				"%d already done, %d to run with %d worker(s); results in %s",
				info.Tasks, info.Options.Category, info.Units, strings.Join(info.Options.Conditions, ", "), info.Done,
				info.Units-info.Done, info.Options.Workers, info.Options.Out),
				info.Units-info.Done, "training", run.quiet)
		},
		Unit: func(r larc.Result, finished, total int) {
			solved := "unsolved"
			if r.Solved {
				solved = "SOLVED"
			}
			bar.done(fmt.Sprintf("[%d/%d] %s %-9s %-2s %-8s test %d/%d  steps %d  %.1fs  %s",
				finished, total, r.ID, r.Category, r.Condition, solved, r.TestExact, r.TestTotal, r.Steps, r.Seconds,
				r.Action), finished, total)
		},
		Error: func(err error) { bar.warn(err) },
	}
	outcome, err := larc.Run(o, report)
	bar.finish()
	if outcome.Out == "" {
		return err
	}
	fmt.Println()
	larc.WriteTable(os.Stdout, larc.Summarize(outcome.Results, outcome.Options.Conditions))
	if c, ok := o.Encoder.(*textenc.Cached); ok {
		fmt.Printf("descriptions: %d embedded, %d from the cache\n", c.Misses, c.Hits)
	}
	fmt.Printf("wall time %s; results written to %s\n", outcome.Elapsed.Round(time.Second), outcome.Out)
	return err
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
