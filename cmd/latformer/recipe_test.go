// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/synthetic"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// runSettingsOf parses args as a run command's flags with the recipes of book and returns the run's
// hyperparameters (runFlags.settingsFor, with the command's own settings base) and what it printed.
func runSettingsOf(t *testing.T, book arcsolver.RecipeBook, base hparams.Settings, args ...string) (hparams.Settings, string, error) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	run := addRunFlags(fs, runHelp{unit: "task", units: "tasks", recipes: book})
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	var s hparams.Settings
	var err error
	out := captureStdout(t, func() { s, err = run.settingsFor(arcsolver.Params(), base) })
	return s, out, err
}

// TestRecipeFlag checks --recipe: the recipe's settings first and --set on top, --set winning on a key
// both set; `--recipe paper` the same settings as `--set gate_init=paper`; no --recipe the default (no
// settings); what each changes printed, from the command's own settings.
func TestRecipeFlag(t *testing.T) {
	book := arcsolver.Recipes()
	s, out, err := runSettingsOf(t, book, nil, "--recipe", "nosearch", "--set", "train_steps=7;seed=3")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := arcsolver.Params().Parse("train_steps=7;seed=3")
	if want := arcsolver.RecipeNoSearch.Settings.With(set...); s.String() != want.String() {
		t.Errorf("--recipe nosearch --set train_steps=7;seed=3: %q, want %q", s, want)
	}
	for key, want := range map[string]any{latformer.ParamSteps: 7, latformer.ParamSeed: 3, arcsolver.ParamGateInit: "paper",
		latformer.ParamGateBeam: 4, latformer.ParamHardSteps: 300} {
		if got, _ := s.Get(key); got != want {
			t.Errorf("--recipe nosearch --set train_steps=7;seed=3: %s=%v, want %v", key, got, want)
		}
	}
	for _, line := range []string{"recipe: nosearch (gate_init: search → paper; train_steps: 500 → 200;",
		"settings (--set): train_steps: 200 → 7; seed: 1 → 3"} {
		if !strings.Contains(out, line) {
			t.Errorf("printed %q; want a line with %q", out, line)
		}
	}

	byRecipe, out, err := runSettingsOf(t, book, nil, "--recipe", "paper")
	bySet, _, err2 := runSettingsOf(t, book, nil, "--set", "gate_init=paper")
	if err != nil || err2 != nil || len(byRecipe) != 1 || len(bySet) != 1 || byRecipe[0] != bySet[0] {
		t.Errorf("--recipe paper: %q (%v); --set gate_init=paper: %q (%v); want the same settings", byRecipe, err, bySet, err2)
	}
	if !strings.Contains(out, "recipe: paper (gate_init: search → paper)") {
		t.Errorf("--recipe paper printed %q", out)
	}
	// After a command's own settings (larc's paper protocol): the recipe changes nothing there.
	if _, out, _ := runSettingsOf(t, book, hparams.Settings{{Key: arcsolver.ParamGateInit, Value: "paper"}}, "--recipe", "paper"); !strings.Contains(out, "gate_init: paper (unchanged)") {
		t.Errorf("--recipe paper after gate_init=paper printed %q", out)
	}
	if s, out, err := runSettingsOf(t, book, nil); err != nil || len(s) != 0 || !strings.Contains(out, "recipe: default (no settings)") {
		t.Errorf("no --recipe: %q, %v, printed %q; want no settings, recipe default", s, err, out)
	}
	if _, _, err := runSettingsOf(t, book, nil, "--recipe", "fig5-nosearch"); err == nil || !strings.Contains(err.Error(), `unknown recipe "fig5-nosearch"`) {
		t.Errorf("--recipe fig5-nosearch among ARC's recipes: %v", err)
	}
	if s, _, err := runSettingsOf(t, synthetic.Recipes(), nil, "--recipe", "fig5-nosearch", "--set", "train_gate_beam=2"); err != nil ||
		s.String() != "train_steps=200;train_gate_beam_steps=25;train_hard_steps=100;train_restart_experts=t,all,all;train_gate_beam_neighbors=true;train_gate_beam=2" {
		t.Errorf("--recipe fig5-nosearch --set train_gate_beam=2: %q, %v", s, err)
	}
}

// TestRecipeCommands checks every command with the run flags: an unknown --recipe is a usage error (exit
// status 2) naming the recipes it knows, before any work; the help lists them; and arc prints the recipe
// and --set on top of it before it reads the data (an empty directory here).
func TestRecipeCommands(t *testing.T) {
	t.Setenv(datasets.EnvDataDir, t.TempDir())
	out := filepath.Join(t.TempDir(), "r.csv")
	for _, c := range runCommands {
		names := "default, paper, nosearch, evaluation, paper-evaluation, nosearch-evaluation"
		if c.name == "sample-efficiency" || c.name == "noise" {
			names += ", fig5-nosearch"
		}
		args := append(append([]string{"--out", out}, c.extra...), "--recipe", "nope")
		err := c.run(args)
		if err == nil || !strings.Contains(err.Error(), `--recipe: unknown recipe "nope" (known: `+names+")") {
			t.Errorf("latformer %s %q: %v", c.name, args, err)
		}
		if code := exitCode(c.name, c.run, args); code != 2 {
			t.Errorf("latformer %s %q: exit status %d, want 2", c.name, args, code)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("latformer %s: a refused run created %s", c.name, out)
		}
		help := captureStdout(t, func() { _ = c.run([]string{"-h"}) })
		if !strings.Contains(help, "  -recipe string") || !strings.Contains(strings.Join(strings.Fields(help), " "), names) {
			t.Errorf("latformer %s -h: no --recipe with %s:\n%s", c.name, names, help)
		}
	}
	var err error
	printed := captureStdout(t, func() { err = runARC([]string{"--recipe", "nosearch", "--set", "train_restarts=1", "--out", out}) })
	if err == nil || !strings.Contains(printed, "recipe: nosearch (") || !strings.Contains(printed, "settings (--set): train_restarts: 2 → 1") {
		t.Errorf("arc --recipe nosearch --set train_restarts=1 printed %q, error %v", printed, err)
	}
}

// TestRecipesPage checks that docs/recipes.md has a section for every recipe a command takes
// (synthetic.Recipes: latformer's and Figure 5's) with its settings as --set writes them, so that the page
// and the Go values cannot drift apart.
func TestRecipesPage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "docs", "recipes.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(text)
	if n := len(synthetic.Recipes()); n < 6 {
		t.Fatalf("%d recipes, want at least 6", n)
	}
	for _, r := range synthetic.Recipes() {
		if !strings.Contains(page, "\n## `"+r.Name+"`\n") {
			t.Errorf("docs/recipes.md: no section \"## `%s`\"", r.Name)
		}
		if len(r.Settings) > 0 && !strings.Contains(page, "| `"+r.Settings.String()+"` |") {
			t.Errorf("docs/recipes.md: the settings of %s, `%s`, are not in its table", r.Name, r.Settings)
		}
	}
}

// TestRecipeInRunMeta checks that the recipe is part of a run's description (runMeta: shards of another
// recipe are another run), the default one too.
func TestRecipeInRunMeta(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{{[]string{"--recipe", "nosearch"}, "recipe=nosearch"}, {nil, "recipe=default"}} {
		fs := flag.NewFlagSet("arc", flag.ContinueOnError)
		addRunFlags(fs, runHelp{unit: "task", units: "tasks", recipes: arcsolver.Recipes()})
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		m, err := runMeta(fs, nil)
		if err != nil || !slices.Contains(m.Settings, c.want) {
			t.Errorf("runMeta of %q: %v, %v; want %q among the settings", c.args, m.Settings, err, c.want)
		}
	}
}
