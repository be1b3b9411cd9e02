// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
)

// shiftTasks are the tiny synthetic fixtures of datasets (a circular shift, a flip, a shift down).
func shiftTasks(t *testing.T) []datasets.Task {
	t.Helper()
	tasks, err := datasets.LoadTaskFiles([]string{"../../datasets/testdata/arcprize/task_shift.json",
		"../../datasets/testdata/arcprize/tasks"})
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// TestSolveRunsOfOneSecond starts two runs without Out at once, at the same time to the second (the time
// in the default name): each writes a file of its own, runs/solve-<date>-<time>.csv and the same with -2,
// with a row per task, and says which in its Start report and its outcome.
func TestSolveRunsOfOneSecond(t *testing.T) {
	tasks := shiftTasks(t)
	t.Chdir(t.TempDir())
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	var outs [2]Outcome
	var started [2]string
	var errs [2]error
	var wg sync.WaitGroup
	for i := range outs {
		o := Options{Model: LatticeSearch, NewBackend: backend.New}
		report := Report{Start: func(info RunInfo) { started[i] = info.Options.Out }}
		wg.Go(func() { outs[i], errs[i] = solveRun(tasks, o, report, now) })
	}
	wg.Wait()
	got := []string{outs[0].Out, outs[1].Out}
	slices.Sort(got)
	want := []string{filepath.Join("runs", "solve-20261205-120000-2.csv"), filepath.Join("runs", "solve-20261205-120000.csv")}
	if !slices.Equal(got, want) {
		t.Errorf("two runs of one second wrote %q, want %q", got, want)
	}
	for i, out := range outs {
		if errs[i] != nil || started[i] != out.Out {
			t.Errorf("run %d: %v; started on %q, outcome %q", i, errs[i], started[i], out.Out)
		}
		rows, err := ReadSolveResults(out.Out)
		if err != nil || len(rows) != len(tasks) {
			t.Errorf("%s: %d rows, %v; want %d", out.Out, len(rows), err, len(tasks))
		}
	}
}

// TestLoadDamagedSolution predicts with a saved solution whose solution.json is cut short: the task fails
// with an error that names it once ("task ID: ", not twice) and the damaged file, and the other tasks
// are predicted.
func TestLoadDamagedSolution(t *testing.T) {
	dir := t.TempDir()
	tasks := shiftTasks(t)
	saved := filepath.Join(dir, "saved")
	o := Options{Model: LatticeSearch, NewBackend: backend.New, Out: filepath.Join(dir, "save.csv"), Save: saved}
	if _, err := SolveRun(tasks, o, Report{}); err != nil {
		t.Fatal(err)
	}
	id := tasks[0].ID
	file := filepath.Join(saved, id, "solution.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var reported []error
	o = Options{NewBackend: backend.New, Out: filepath.Join(dir, "load.csv"), Load: saved}
	out, err := SolveRun(tasks, o, Report{Error: func(err error) { reported = append(reported, err) }})
	if err == nil || len(reported) != 1 {
		t.Fatalf("a damaged solution: error %v, %d reported; want one", err, len(reported))
	}
	msg := err.Error()
	if n := strings.Count(msg, "task "+id); n != 1 || !strings.HasPrefix(msg, "task "+id+": ") ||
		!strings.Contains(msg, file) {
		t.Errorf("error %q names task %s %d times; want once, as its prefix, and the damaged file %s", msg, id, n, file)
	}
	if len(out.Results) != len(tasks)-1 {
		t.Errorf("%d tasks predicted, want the %d others", len(out.Results), len(tasks)-1)
	}
}
