// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
)

// writeTask writes an ARC task JSON file whose outputs are the inputs translated by one column.
func writeTask(t *testing.T, dir, id string, seed int) {
	t.Helper()
	mk := func(k int) map[string]any {
		in := datasets.NewGrid(4, 4, 0)
		in[k%4][(k+seed)%3] = 1 + (k+seed)%9
		out := datasets.NewGrid(4, 4, 0)
		for i := range 4 {
			for j := range 4 {
				out[i][(j+1)%4] = in[i][j]
			}
		}
		return map[string]any{"input": in, "output": out}
	}
	task := map[string]any{"train": []any{mk(0), mk(1), mk(2)}, "test": []any{mk(3)}}
	data, _ := json.Marshal(task)
	if err := os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// twoTaskData returns a data directory with two small training tasks (writeTask), aaaa0001 and aaaa0002.
func twoTaskData(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	dir := filepath.Join(data, "arc", "training")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTask(t, dir, "aaaa0001", 0)
	writeTask(t, dir, "aaaa0002", 1)
	return data
}

// TestARCQuick runs `latformer arc` in quick mode on two small tasks (written by the test), twice: the
// second run with --resume must skip both, and the CSV must have exactly one row per task.
func TestARCQuick(t *testing.T) {
	data := twoTaskData(t)
	out := filepath.Join(t.TempDir(), "results.csv")
	args := []string{"--data", data, "--tasks", "aaaa0001,aaaa0002", "--steps", "30", "--out", out, "--quiet", "--set", "augment_copies=2"}
	if err := runARC(args); err != nil {
		t.Fatal(err)
	}
	rows, err := arc.ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("want 2 result rows, got %d", len(rows))
	}
	for id, r := range rows {
		if r.TestTotal != 1 || r.Steps < 1 || r.Steps > 30 || r.Canvas != 4 {
			t.Errorf("task %s: unexpected result %+v", id, r)
		}
	}
	if err := runARC(append(args, "--resume")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(out)
	if n := strings.Count(strings.TrimSpace(string(raw)), "\n"); n != 2 {
		t.Errorf("after --resume the CSV has %d data lines, want 2:\n%s", n, raw)
	}
	if err := runARC([]string{"--data", data, "--category", "spin"}); err == nil || !strings.Contains(err.Error(), "category must be all, or one or more") || !strings.Contains(err.Error(), `"spin"`) {
		t.Errorf("bad --category: got %v", err)
	}
}

// TestARCNeverOverwrites checks that a results file survives a run without --resume or --force, that
// --force overwrites it, and that without --out the CSV goes to a new file under runs/.
func TestARCNeverOverwrites(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "arc", "training")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTask(t, dir, "aaaa0001", 0)
	out := filepath.Join(t.TempDir(), "precious.csv")
	const precious = "id,category,solved\nkeep,me,true\n"
	if err := os.WriteFile(out, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--data", data, "--tasks", "aaaa0001", "--steps", "5", "--quiet", "--set", "augment_copies=1"}
	err := runARC(append(args, "--out", out))
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("existing --out without --resume/--force: want an 'already exists' error, got %v", err)
	}
	if raw, _ := os.ReadFile(out); string(raw) != precious {
		t.Fatalf("the existing results file was changed:\n%s", raw)
	}
	if err := runARC(append(args, "--out", out, "--resume", "--force")); err == nil {
		t.Error("--resume with --force: want a usage error")
	}
	if err := runARC(append(args, "--out", out, "--force")); err != nil {
		t.Fatal(err)
	}
	if rows, err := arc.ReadResults(out); err != nil || len(rows) != 1 || rows["aaaa0001"].ID == "" {
		t.Errorf("after --force: rows %v, err %v", rows, err)
	}
	// Default output: a new file under runs/ of the working directory.
	t.Chdir(t.TempDir())
	if err := runARC(args); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join("runs", "arc-training-all-*.csv"))
	if len(matches) != 1 {
		t.Errorf("default --out: want one runs/arc-training-all-*.csv, got %v", matches)
	}
}

// TestARCMaxCanvas checks --max-canvas: tasks on a larger canvas are left out of the selection (and of
// the run), the others kept; an out-of-range value is an error.
func TestARCMaxCanvas(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "arc", "training")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTask(t, dir, "aaaa0001", 0) // canvas 4
	for maxCanvas, want := range map[int]int{0: 1, 3: 0, 4: 1, 30: 1} {
		tasks, err := arc.SelectTasks(arc.Options{DataDir: data, Tasks: []string{"aaaa0001"}, MaxCanvas: maxCanvas})
		if err != nil || len(tasks) != want {
			t.Errorf("MaxCanvas %d: %d tasks (%v), want %d", maxCanvas, len(tasks), err, want)
		}
	}
	out := filepath.Join(t.TempDir(), "results.csv")
	if err := runARC([]string{"--data", data, "--tasks", "aaaa0001", "--max-canvas", "3", "--out", out, "--quiet"}); err != nil {
		t.Fatal(err)
	}
	if rows, err := arc.ReadResults(out); err != nil || len(rows) != 0 {
		t.Errorf("--max-canvas 3: rows %v (%v), want none", rows, err)
	}
	if err := runARC([]string{"--data", data, "--max-canvas", "31"}); err == nil || !strings.Contains(err.Error(), "max canvas") {
		t.Errorf("--max-canvas 31: got %v", err)
	}
}

// TestARCCurves runs `latformer arc --curves` on two tasks with two workers: the curves CSV has its header
// once, and for each task one row per training step, numbered 1 to the steps the row reports, with the
// restart, the proposal it started at and a finite loss; a second run appends without a second header.
func TestARCCurves(t *testing.T) {
	data := twoTaskData(t)
	tmp := t.TempDir()
	curves := filepath.Join(tmp, "curves.csv")
	args := []string{"--data", data, "--tasks", "aaaa0001,aaaa0002", "--steps", "7", "--workers", "2", "--quiet",
		"--set", "augment_copies=2;train_restarts=1;fit_patience=0", "--curves", curves}
	if err := runARC(append(args, "--out", filepath.Join(tmp, "a.csv"))); err != nil {
		t.Fatal(err)
	}
	rows, err := arc.ReadResults(filepath.Join(tmp, "a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(curves)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if lines[0] != "task,restart,proposal,held,step,loss,cell_accuracy,exact,seconds" {
		t.Fatalf("header %q", lines[0])
	}
	steps := map[string][]int{}
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		if len(f) != 9 || f[1] != "0" || f[5] == "NaN" {
			t.Fatalf("bad curves row %q", line)
		}
		n, _ := strconv.Atoi(f[4])
		steps[f[0]] = append(steps[f[0]], n)
	}
	for id, r := range rows {
		got := steps[id]
		if len(got) != r.TotalSteps {
			t.Errorf("task %s: %d curve rows, the row says %d steps", id, len(got), r.TotalSteps)
		}
		for i, s := range got {
			if s != i+1 {
				t.Errorf("task %s: curve row %d is step %d", id, i, s)
				break
			}
		}
	}
	if err := runARC(append(args, "--out", filepath.Join(tmp, "b.csv"))); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(curves)
	if n := strings.Count(string(raw), "task,restart"); n != 1 {
		t.Errorf("after a second run the header appears %d times, want once", n)
	}
	if n := strings.Count(strings.TrimSpace(string(raw)), "\n"); n != 2*(len(lines)-1) {
		t.Errorf("after a second run %d rows, want %d", n, 2*(len(lines)-1))
	}
}
