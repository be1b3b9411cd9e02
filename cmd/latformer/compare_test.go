// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/experiments/synthetic"
	"github.com/latformer/latformer/internal/resultsfile"
)

// TestCompare checks `latformer compare` on two ARC results files: tasks with the same outcome are
// counted, each task solved in one file and not in the other is named with both outcomes, and the tasks of
// one file only are listed; a file of the sample-efficiency experiment is compared by its test pairs exact;
// a file that is no results file, or a missing one, is an error.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, header []string, rows ...[]string) string {
		path := filepath.Join(dir, name)
		if err := resultsfile.WriteAtomic(path, header, rows); err != nil {
			t.Fatal(err)
		}
		return path
	}
	task := func(id string, solved bool) []string {
		return arc.Result{ID: id, Solved: solved, Model: "latformer", Category: datasets.CategoryRotate}.Record()
	}
	newer := write("new.csv", arc.Header, task("aaaa0001", true), task("aaaa0002", false), task("aaaa0003", true), task("aaaa0005", true))
	older := write("old.csv", arc.Header, task("aaaa0001", true), task("aaaa0002", true), task("aaaa0003", false), task("aaaa0004", false))
	lines, err := compareFiles(newer, older)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"3 tasks in both files, 1 with the same outcome (solved or not), 2 differ",
		"differs: aaaa0002: unsolved in " + newer + ", solved in " + older,
		"differs: aaaa0003: solved in " + newer + ", unsolved in " + older,
		"1 tasks only in " + newer + ": [aaaa0005]",
		"1 tasks only in " + older + ": [aaaa0004]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison lacks %q:\n%s", want, text)
		}
	}
	if slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "aaaa0001") }) {
		t.Errorf("a task with the same outcome is listed:\n%s", text)
	}

	run := func(exact int) []string {
		return synthetic.Result{Unit: synthetic.Unit{Model: "latformer", Family: datasets.FamilyRotation, NumTrain: 4}, Experiment: synthetic.SampleEfficiency,
			TestExact: exact, TestTotal: 10}.Record()
	}
	a, b := write("se_new.csv", synthetic.Header, run(10)), write("se_old.csv", synthetic.Header, run(9))
	if lines, err := compareFiles(a, b); err != nil || !strings.Contains(strings.Join(lines, "\n"), "10/10 test pairs exact in "+a+", 9/10 test pairs exact in "+b) {
		t.Errorf("sample-efficiency files: %q, %v", lines, err)
	}
	other := write("other.csv", []string{"x", "y"}, []string{"1", "2"})
	if _, err := compareFiles(other, older); err == nil || !strings.Contains(err.Error(), "none of a results file") {
		t.Errorf("a CSV of another kind: error %v", err)
	}
	if _, err := compareFiles(newer, filepath.Join(dir, "missing.csv")); err == nil {
		t.Error("a missing committed file: no error")
	}
	if err := runCompare([]string{newer}); err == nil {
		t.Error("one file: no usage error")
	}
}
