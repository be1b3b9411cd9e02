// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// TestSetErrors checks that every command reads --set before any work: a value a hyperparameter does not
// accept is a usage error (exit status 2) naming the values it does, an unknown key one naming the nearest
// known keys. The data directory is empty, so a command that went on to read its data would fail with
// another error.
func TestSetErrors(t *testing.T) {
	t.Setenv(datasets.EnvDataDir, t.TempDir())
	commands := map[string]func([]string) error{"arc": runARC, "larc": runLARC, "sample-efficiency": runSampleEfficiency,
		"noise": runNoise, "registration": runRegistration, "demo": runDemo, "bench": runBench, "solve": runSolve}
	for name, run := range commands {
		for _, c := range []struct{ set, want string }{
			{"latformer_attention=fulll", `latformer_attention=fulll is not an allowed value; allowed values: full, mask_only`},
			{"model_dimm=8", `unknown hyperparameter "model_dimm"; nearest known: model_dim`},
			{"train_steps=1;model_dim=8.5", `model_dim=8.5: want a whole number (default 32)`},
			{"gate_init_train=hrad", `allowed values: hard, soft`},
			{"train_restart_experts=all,q", `expert families "q"`},
		} {
			err := run([]string{"--set", c.set})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("latformer %s --set %q: error %v, want one containing %q", name, c.set, err, c.want)
			}
			if got := exitCode(name, run, []string{"--set", c.set}); got != 2 {
				t.Errorf("latformer %s --set %q: exit status %d, want 2", name, c.set, got)
			}
		}
	}
	// The solver's keys (arcsolver.Params) are known to every command that solves, not to bench's step.
	solving := 0
	for name, run := range commands {
		err := run([]string{"--set", "gate_init=serach"})
		want := `allowed values: search, paper`
		if name == "bench" {
			want = `unknown hyperparameter "gate_init"`
		} else {
			solving++
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("latformer %s --set gate_init=serach: error %v, want one containing %q", name, err, want)
		}
	}
	if solving != 7 {
		t.Errorf("%d solving commands checked, want 7", solving)
	}
	// A baseline's own hyperparameter is known with that baseline only.
	if err := runARC([]string{"--model", "cnn", "--set", "baseline_dimm=8"}); err == nil || !strings.Contains(err.Error(), "nearest known: baseline_dim") {
		t.Errorf("arc --model cnn --set baseline_dimm=8: error %v", err)
	}
	if err := runARC([]string{"--set", "baseline_dim=8"}); err == nil || !strings.Contains(err.Error(), `unknown hyperparameter "baseline_dim"`) {
		t.Errorf("arc --set baseline_dim=8 (LatFormer): error %v", err)
	}
}

// TestFormerKeyWarning checks that a former key in --set reads as its new one with the warning on stderr,
// not stdout (the tables and CSV paths a script reads).
func TestFormerKeyWarning(t *testing.T) {
	t.Setenv(datasets.EnvDataDir, t.TempDir())
	path := filepath.Join(t.TempDir(), "stderr")
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = file
	stdout := captureStdout(t, func() { _ = runARC([]string{"--set", "gate_init_fallback=false", "--quiet"}) })
	os.Stderr = saved
	file.Close()
	stderr, _ := os.ReadFile(path)
	const want = `hyperparameter "gate_init_fallback" is a former name`
	if !strings.Contains(string(stderr), want) || strings.Contains(stdout, want) {
		t.Errorf("stderr %q, stdout %q; want the warning on stderr only", stderr, stdout)
	}
	if !strings.Contains(stdout, "search_fallback: true → false") {
		t.Errorf("stdout %q does not show the setting the former key reads as", stdout)
	}
}
