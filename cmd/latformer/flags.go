// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
)

// listFlag is a flag whose value is a comma-separated list: the spaces around an item are trimmed and
// empty items dropped ("a, b,,c" is a, b and c). The first time the flag is given its list replaces the
// default; given again, the lists are concatenated. Each item is parsed with parse.
type listFlag[T any] struct {
	items []T
	parse func(string) (T, error)
	given bool
}

func (l *listFlag[T]) String() string {
	s := make([]string, len(l.items))
	for i, v := range l.items {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}

func (l *listFlag[T]) Set(value string) error {
	if !l.given {
		l.items, l.given = nil, true
	}
	for _, item := range strings.Split(value, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		v, err := l.parse(item)
		if err != nil {
			return err
		}
		l.items = append(l.items, v)
	}
	return nil
}

// listVar defines a list flag with parse for its items and returns its items (def until given).
func listVar[T any](fs *flag.FlagSet, name string, def []T, usage string, parse func(string) (T, error)) *[]T {
	l := &listFlag[T]{items: def, parse: parse}
	fs.Var(l, name, usage)
	return &l.items
}

// stringsFlag defines a comma-separated list of strings.
func stringsFlag(fs *flag.FlagSet, name string, def []string, usage string) *[]string {
	return listVar(fs, name, def, usage, func(s string) (string, error) { return s, nil })
}

// intsFlag defines a comma-separated list of whole numbers.
func intsFlag(fs *flag.FlagSet, name string, def []int, usage string) *[]int {
	return listVar(fs, name, def, usage, func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", s)
		}
		return v, nil
	})
}

// floatsFlag defines a comma-separated list of numbers.
func floatsFlag(fs *flag.FlagSet, name string, def []float64, usage string) *[]float64 {
	return listVar(fs, name, def, usage, func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return v, nil
	})
}

// runFlags are the flags of the commands that run an experiment's units into a results CSV (arc, larc,
// sample-efficiency, noise, registration): where the rows go, how many workers, the hyperparameters
// (a recipe and --set), and the progress bar.
type runFlags struct {
	out           string
	resume, force bool
	workers       int
	recipe        string               // --recipe as given (runFlags.settingsFor looks it up)
	recipes       arcsolver.RecipeBook // the recipes --recipe may name
	settings      string               // --set as given (parseSettings reads it)
	quiet         bool
	shard         string           // --shard I/N (runner.ParseShard), "" for the whole run
	sharding      *runner.Sharding // --shard as prepare reads it, for the experiment's Options; nil: none
	devices       *[]string        // --devices: one process per device, each on its shard
}

// runHelp is what a command's run flags say: what a row is (unit, units: "task", "tasks"), the default
// results file, the help of --set and the recipes --recipe may name.
type runHelp struct {
	unit, units string
	out         string
	set         string
	recipes     arcsolver.RecipeBook
}

// addRunFlags defines --out, --resume, --force, --workers (default 1), --recipe, --set, --quiet, --shard
// and --devices on fs (the last two applied by runFlags.prepare).
func addRunFlags(fs *flag.FlagSet, h runHelp) *runFlags {
	f := &runFlags{recipes: h.recipes}
	fs.StringVar(&f.out, "out", "",
		fmt.Sprintf("results CSV, one row per %s, written as each finishes (default: a new file %s, with -2, "+
			"-3, ... before .csv when a run started in the same second took the name); an existing file is never "+
			"overwritten without --resume or --force", h.unit, h.out))
	fs.BoolVar(&f.resume, "resume", false,
		fmt.Sprintf("append to --out, skipping the %s already in it (after an interruption)", h.units))
	fs.BoolVar(&f.force, "force", false, "overwrite --out if it exists")
	fs.IntVar(&f.workers, "workers", 1, h.units+" run in parallel, one backend each")
	fs.StringVar(&f.recipe, "recipe", arcsolver.RecipeDefault.Name,
		fmt.Sprintf("named hyperparameters (docs/recipes.md), applied after the command's own and before --set: %s",
			strings.Join(h.recipes.Names(), ", ")))
	fs.StringVar(&f.settings, "set", "", h.set+"; after --recipe's")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fs.StringVar(&f.shard, "shard", "",
		fmt.Sprintf("run shard `I/N` of the %s only (0 <= I < N; by a hash of each one's key, balanced by cost "+
			"where known), into --out with a run file beside it; `latformer merge` joins the N files", h.units))
	f.devices = stringsFlag(fs, "devices", nil,
		"comma-separated `devices`: one process per device (CUDA_VISIBLE_DEVICES=device) on shard i of N, each "+
			"into a file beside --out, then merged into --out")
	return f
}

// parseSettings reads the text of --set once, against the hyperparameters of the run's model(s) (t):
// an unknown key or a bad value is a usage error before any work, naming the nearest keys or the values
// the parameter accepts, and a former key's warning goes to stderr. When the user set something, it prints
// what each setting changes: from the value the run would have had (base, the command's own settings,
// applied before the user's; else the default) to the user's.
func parseSettings(text string, t hparams.Table, base hparams.Settings) (hparams.Settings, error) {
	s, err := t.ParseTo(text, os.Stderr)
	if err != nil {
		return nil, usageError{fmt.Errorf("--set: %w", err), nil}
	}
	if len(s) > 0 {
		fmt.Printf("settings (--set): %s\n", strings.Join(t.Overrides(s, base), "; "))
	}
	return s, nil
}

// settingsFor returns the hyperparameters of the run: the recipe --recipe names, then --set on top, both
// checked against t (the run's model(s)) before any work; an unknown recipe is a usage error naming the
// known ones. It prints the recipe and what its settings change from base (the command's own settings,
// applied before the recipe's), then what --set changes (parseSettings).
func (f *runFlags) settingsFor(t hparams.Table, base hparams.Settings) (hparams.Settings, error) {
	r, err := f.recipes.Lookup(f.recipe)
	if err != nil {
		return nil, usageError{fmt.Errorf("--recipe: %w", err), nil}
	}
	recipe, err := t.CheckTo(r.Settings, os.Stderr)
	if err != nil {
		return nil, usageError{fmt.Errorf("--recipe %s: %w", r.Name, err), nil}
	}
	changes := "no settings"
	if len(recipe) > 0 {
		changes = strings.Join(t.Overrides(recipe, base), "; ")
	}
	fmt.Printf("recipe: %s (%s)\n", r.Name, changes)
	user, err := parseSettings(f.settings, t, base.With(recipe...))
	if err != nil {
		return nil, err
	}
	return recipe.With(user...), nil
}
