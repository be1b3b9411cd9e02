// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
)

// prize is the folder of the tiny synthetic fixtures (a circular shift, a flip, a shift down on 4x4 grids).
const prize = "../../datasets/testdata/arcprize"

// TestSolveCLI runs `latformer solve` on the three kinds of task files at once (a task file, a folder, a
// challenges file whose test outputs are absent) with --submission and --save, then again with --load: the
// submission has every task with one pair of attempts per test input, the loaded run writes the same
// submission to the byte without training (its rows say loaded, 0 seconds of training is not asserted),
// and `latformer score` on the tasks whose outputs the files hold agrees with the CSV: a test input the
// first attempt predicts exactly counts, so the score is at least the CSV's exact count.
func TestSolveCLI(t *testing.T) {
	dir := t.TempDir()
	files := []string{filepath.Join(prize, "task_shift.json"), filepath.Join(prize, "tasks"), filepath.Join(prize, "challenges.json")}
	sub1, sub2 := filepath.Join(dir, "submission.json"), filepath.Join(dir, "again.json")
	saved := filepath.Join(dir, "saved")
	common := []string{"--quiet", "--set", "augment_copies=2;train_restarts=2"}
	out := captureStdout(t, func() {
		err := runSolve(append(append([]string{"--steps", "30", "--submission", sub1, "--save", saved, "--out", filepath.Join(dir, "solve.csv")}, files...), common...))
		if err != nil {
			t.Error(err)
		}
	})
	for _, want := range []string{"task cafe0001: element ", "test 1, attempt 1 (", "task task_shift: element ", "submission of 5 tasks written to"} {
		if !strings.Contains(out, want) {
			t.Errorf("solve output lacks %q:\n%s", want, out)
		}
	}
	sub, err := datasets.LoadSubmission(sub1)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]int{"task_shift": 1, "down1": 1, "flip1": 1, "cafe0001": 2, "cafe0002": 1}
	for id, n := range tests {
		if len(sub[id]) != n {
			t.Errorf("submission: task %s has %d attempts, want %d", id, len(sub[id]), n)
		}
		if _, err := os.Stat(filepath.Join(saved, id, "solution.json")); err != nil {
			t.Errorf("task %s not saved: %v", id, err)
		}
	}
	if len(sub) != len(tests) {
		t.Errorf("submission has %d tasks, want %d", len(sub), len(tests))
	}

	// Loaded: the same submission, to the byte.
	loadCSV := filepath.Join(dir, "load.csv")
	captureStdout(t, func() {
		if err := runSolve(append([]string{"--load", saved, "--submission", sub2, "--out", loadCSV, "--quiet"}, files...)); err != nil {
			t.Error(err)
		}
	})
	a, _ := os.ReadFile(sub1)
	b, _ := os.ReadFile(sub2)
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the loaded solutions' submission differs:\n%s\n%s", a, b)
	}
	if err := runSolve(append([]string{"--load", saved, "--steps", "3", "--out", filepath.Join(dir, "x.csv")}, files...)); err == nil || !strings.Contains(err.Error(), "--steps not used") {
		t.Errorf("--load with --steps: %v", err)
	}

	// Scored against the outputs the task files hold, the score counts at least the exact first attempts.
	rows := readSolved(t, loadCSV)
	solutions := map[string][]datasets.Grid{}
	tasks, err := datasets.LoadTaskFiles(files[:2])
	if err != nil {
		t.Fatal(err)
	}
	exact, part := 0.0, datasets.Submission{}
	for _, task := range tasks {
		for _, p := range task.Test {
			solutions[task.ID] = append(solutions[task.ID], p.Output)
		}
		part[task.ID] = sub[task.ID]
		if !rows[task.ID].Loaded || rows[task.ID].TestTotal != 1 {
			t.Errorf("row of task %s: %+v", task.ID, rows[task.ID])
		}
		exact += float64(rows[task.ID].TestExact) / float64(rows[task.ID].TestTotal)
	}
	score, err := datasets.ScoreSubmission(part, solutions)
	if err != nil {
		t.Fatal(err)
	}
	if score.Total*3 < exact-1e-9 {
		t.Errorf("score %v of 3 tasks below the CSV's exact first attempts %v", score.Total*3, exact)
	}
}

// readSolved reads the rows of a solve results CSV by task id.
func readSolved(t *testing.T, path string) map[string]arc.Result {
	t.Helper()
	rows, err := arc.ReadSolveResults(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestScoreCLI scores the hand-written fixture submission (cafe0001: an attempt_2-only hit and a miss,
// 0.5; cafe0002: 1) and checks the command's errors: the argument count (a usage error), a missing file,
// a task missing from the submission, a bad color (each naming the task).
func TestScoreCLI(t *testing.T) {
	sub, sol := filepath.Join(prize, "submission.json"), filepath.Join(prize, "solutions.json")
	out := captureStdout(t, func() {
		if err := runScore([]string{sub, sol}); err != nil {
			t.Error(err)
		}
	})
	for _, want := range []string{"cafe0001     1/2  0.500", "cafe0002     1/1  1.000", "score 0.7500 (1.50 of 2 tasks)"} {
		if !strings.Contains(out, want) {
			t.Errorf("score output lacks %q:\n%s", want, out)
		}
	}
	if got := exitCode("score", runScore, []string{sub}); got != 2 {
		t.Errorf("score with one file: exit status %d, want 2", got)
	}
	dir := t.TempDir()
	write := func(name string, v any) string {
		data, _ := json.Marshal(v)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	one := []map[string]any{{"attempt_1": [][]int{{1}}, "attempt_2": [][]int{{1}}}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "none.json"), sol}, "none.json"},
		{[]string{write("partial.json", map[string]any{"cafe0002": one}), sol}, `task "cafe0001": missing from the submission`},
		{[]string{write("color.json", map[string]any{"cafe0002": []map[string]any{{"attempt_1": [][]int{{11}}, "attempt_2": [][]int{{1}}}}}), sol}, `task "cafe0002": test 0 attempt_1: cell (0,0) has value 11`},
	} {
		if err := runScore(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("score %v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}
