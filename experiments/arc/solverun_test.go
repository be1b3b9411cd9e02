// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
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
	var outs [2]SolveOutcome
	var started [2]string
	var errs [2]error
	var wg sync.WaitGroup
	for i := range outs {
		o := SolveOptions{Tasks: tasks, Model: LatticeSearch, NewBackend: backend.New}
		report := SolveReport{Start: func(_ runner.Info, o SolveOptions) { started[i] = o.Out }}
		wg.Go(func() { outs[i], errs[i] = solveRun(o, report, now) })
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
		rows, err := ReadSolved(out.Out)
		if err != nil || len(rows) != len(tasks) {
			t.Errorf("%s: %d rows, %v; want %d", out.Out, len(rows), err, len(tasks))
		}
	}
}
