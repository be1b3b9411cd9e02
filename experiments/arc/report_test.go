// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// result is a row of category c, solved or not.
func result(id string, c datasets.Category, solved bool) Result {
	return Result{Category: c, ID: id, Solved: solved}
}

// results indexes rows by id.
func results(rows ...Result) map[string]Result {
	m := map[string]Result{}
	for _, r := range rows {
		m[r.ID] = r
	}
	return m
}

// TestSolvedTable checks the cells of a two-run comparison: solved / tasks (fraction) per category, empty
// where a run has no task of the category, the totals and their percentage, the paper's column, and the
// chart's fractions (NaN for a missing category, no group for "none").
func TestSolvedTable(t *testing.T) {
	a := LoadedRun{RunFile{Name: "a"}, results(result("t1", datasets.CategoryTranslate, true), result("t2", datasets.CategoryTranslate, false),
		result("t3", datasets.CategoryTranslate, true), result("r1", datasets.CategoryRotate, true), result("n1", datasets.CategoryNone, false))}
	b := LoadedRun{RunFile{Name: "b"}, results(result("t1", datasets.CategoryTranslate, false), result("t2", datasets.CategoryTranslate, true))}
	got := SolvedTable([]LoadedRun{a, b}, true)
	want := [][]string{
		{"Translate", "2 / 3 (0.667)", "1 / 2 (0.500)", "0.365"},
		{"Rotate + Translate", "1 / 1 (1.000)", "", "0.800"},
		{"(not annotated)", "0 / 1 (0.000)", "", ""},
		{"all", "3 / 5 (60.0%)", "1 / 2 (50.0%)", ""},
	}
	if !reflect.DeepEqual(got.Rows, want) {
		t.Errorf("rows\n got %q\nwant %q", got.Rows, want)
	}
	if h := []string{"category", "a", "b", "paper LatFormer"}; !reflect.DeepEqual(got.Header, h) {
		t.Errorf("header %q, want %q", got.Header, h)
	}
	if !reflect.DeepEqual(got.Labels, []string{"Translate", "Rotate + Translate"}) || len(got.Values) != 2 ||
		math.Abs(got.Values[0][0]-2.0/3) > 1e-12 || got.Values[0][1] != 1 || got.Values[1][0] != 0.5 || !math.IsNaN(got.Values[1][1]) {
		t.Errorf("chart: labels %q, values %v", got.Labels, got.Values)
	}
	if plain := SolvedTable([]LoadedRun{b}, false); len(plain.Header) != 2 || len(plain.Rows[0]) != 2 {
		t.Errorf("without the paper's column: header %q, rows %q", plain.Header, plain.Rows)
	}
	if html := got.HTML(); strings.Count(html, "<tr>") != 5 || !strings.Contains(html, "3 / 5 (60.0%)") {
		t.Errorf("HTML table: %s", html)
	}
	if chart := got.ChartHTML("solved"); !strings.HasPrefix(chart, "<img") || !strings.Contains(chart, `alt="bar chart: solved"`) {
		t.Errorf("chart HTML: %.200s", chart)
	}
}

// TestReadRuns checks that a missing file is left out with a note naming it relative to the directory's last
// element and its command, and that a file's rows are read.
func TestReadRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	_ = w.WriteAll([][]string{Header, result("t1", datasets.CategoryTranslate, true).Record()})
	if err := os.WriteFile(filepath.Join(dir, "here.csv"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, notes := ReadRuns(dir, []RunFile{{"missing", "gone.csv", "make gone"}, {"here", "here.csv", "make here"}})
	if len(runs) != 1 || runs[0].Name != "here" || !runs[0].Results["t1"].Solved {
		t.Errorf("runs %+v", runs)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], filepath.Join("results", "gone.csv")+": not run yet (make gone") {
		t.Errorf("notes %q", notes)
	}
}

// TestDeterminedAndSources checks the report on the tasks the search alone solves and on where a
// search-started run's predictions come from.
func TestDeterminedAndSources(t *testing.T) {
	alone := results(result("b", datasets.CategoryTranslate, true), result("a", datasets.CategoryRotate, true), result("c", datasets.CategoryRotate, false))
	det := Determined(alone)
	if !reflect.DeepEqual(det, []string{"a", "b"}) {
		t.Fatalf("determined %v, want [a b]", det)
	}
	hard := result("a", datasets.CategoryRotate, true)
	hard.RestartsFitted, hard.HardGates, hard.Source, hard.NetworkSolved = 1, true, SourceNetwork, true
	fromSearch := result("b", datasets.CategoryTranslate, true)
	fromSearch.Source, fromSearch.HardGates = SourceSearch, true // hard gates, but no restart fitted
	untrained := result("c", datasets.CategoryRotate, false)
	untrained.Source = "untrained"
	run := LoadedRun{RunFile{Name: "search"}, results(hard, fromSearch, untrained)}
	var sb strings.Builder
	WriteDetermined(&sb, det, []LoadedRun{run, {RunFile{Name: "none"}, results()}})
	want := "2 tasks determined by their training pairs\n" +
		"  search                       solves 2 of them (its hard gates fit 1); misses []\n" +
		"  none                         solves 0 of them (its hard gates fit 0); misses [a b]\n"
	if sb.String() != want {
		t.Errorf("WriteDetermined:\n%s\nwant\n%s", sb.String(), want)
	}
	sb.Reset()
	WriteSources(&sb, run)
	if want := "search: the network predicted 1 tasks (1 solved), the search's proposal 1 (1 solved); the network alone would solve 1\n"; sb.String() != want {
		t.Errorf("WriteSources: %q, want %q", sb.String(), want)
	}
}

// TestBaselineTable checks that the baselines' table counts only the tasks of the first baseline run, as
// fractions of the category's annotated tasks, with the paper's numbers and a "not run" row.
func TestBaselineTable(t *testing.T) {
	latf := LoadedRun{RunFile{Name: "latformer"}, results(result("t1", datasets.CategoryTranslate, true), result("t2", datasets.CategoryTranslate, true),
		result("t3", datasets.CategoryTranslate, true), result("r1", datasets.CategoryRotate, false))}
	cnn := LoadedRun{RunFile{Name: "cnn"}, results(result("t1", datasets.CategoryTranslate, true), result("t2", datasets.CategoryTranslate, false),
		result("r1", datasets.CategoryRotate, false))}
	totals := map[datasets.Category]int{datasets.CategoryTranslate: 4, datasets.CategoryRotate: 2, datasets.CategoryReflect: 1, datasets.CategoryScale: 1}
	tab, n := BaselineTable(latf, []LoadedRun{cnn}, []string{"transformer", "cnn"}, totals)
	if n != 3 {
		t.Errorf("%d tasks, want 3 (those of the cnn run)", n)
	}
	want := [][]string{
		{"latformer", "2/2 (0.500)", "0/1 (0.000)", "-", "-", "0.365 / 0.800 / 0.591 / 0.545"},
		{"transformer", "not run", "", "", "", ""},
		{"cnn", "1/2 (0.250)", "0/1 (0.000)", "-", "-", tab.Rows[2][5]},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows\n got %q\nwant %q", tab.Rows, want)
	}
	if len(tab.Series) != 2 || tab.Values[1][0] != 0.25 || !math.IsNaN(tab.Values[1][2]) {
		t.Errorf("chart series %q values %v", tab.Series, tab.Values)
	}
	if p := PaperBaselines["cnn"]; p != nil && !strings.HasPrefix(tab.Rows[2][5], "0.") {
		t.Errorf("cnn's paper column %q", tab.Rows[2][5])
	}
}

// TestPickable checks the picker's order: tasks the search alone found an element for first, then by
// category and id, and that tasks over the canvas limit (or without a canvas) are left out.
func TestPickable(t *testing.T) {
	mk := func(id string, c datasets.Category, canvas int) Result {
		r := result(id, c, false)
		r.Canvas = canvas
		return r
	}
	search := results(mk("z1", datasets.CategoryTranslate, 5), mk("a1", datasets.CategoryTranslate, 5), mk("f1", datasets.CategoryRotate, 9),
		mk("b1", datasets.CategoryReflect, 10), mk("big", datasets.CategoryReflect, 11), mk("zero", datasets.CategoryReflect, 0))
	found := result("f1", datasets.CategoryRotate, true)
	found.Action = "rot90"
	var ids []string
	for _, r := range Pickable(search, results(found), 10) {
		ids = append(ids, r.ID)
	}
	if want := []string{"f1", "b1", "a1", "z1"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("order %v, want %v", ids, want)
	}
}

// TestTaskViewHTML checks the picker's view of a task rotated by 180°: its pairs, the search's proposal
// masks (the rotation among them) and the prediction; and the data-missing message and the pairs' limit.
func TestTaskViewHTML(t *testing.T) {
	rot := func(g datasets.Grid) datasets.Grid {
		out := datasets.NewGrid(len(g), len(g[0]), 0)
		for i := range g {
			for j := range g[i] {
				out[len(g)-1-i][len(g[0])-1-j] = g[i][j]
			}
		}
		return out
	}
	ins := []datasets.Grid{{{1, 2, 0}, {0, 3, 0}, {0, 0, 4}}, {{5, 0, 0}, {6, 7, 0}, {0, 0, 8}}, {{1, 0, 2}, {0, 0, 0}, {3, 0, 0}}}
	task := datasets.Task{ID: "rot180ab"}
	for _, g := range ins[:2] {
		task.Train = append(task.Train, datasets.Pair{Input: g, Output: rot(g)})
	}
	task.Test = []datasets.Pair{{Input: ins[2], Output: rot(ins[2])}}
	r := result("rot180ab", datasets.CategoryRotate, true)
	r.Action, r.Source, r.Predictions = "rot180", SourceSearch, []datasets.Grid{rot(ins[2])}
	html, err := TaskViewHTML(task, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rot180ab (Rotate + Translate): 2 training pairs", "best proposals on the 3 × 3 canvas", ": solved, action rot180, predicted by the search"} {
		if !strings.Contains(html, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	// 2 pairs, at least one proposal mask, and test input, expected, predicted.
	if n := strings.Count(html, "<img"); n < 2+1+3 || n > 2+4+3 {
		t.Errorf("%d images, want 2 pairs + 1 to 4 masks + 3", n)
	}
	if pairs, err := PairsHTML(task, 5); err != nil || strings.Count(pairs, "<img") != 2 || !strings.Contains(pairs, "rot180ab pair 2: input → output") {
		t.Errorf("PairsHTML(5) of 2 pairs: %v %.300s", err, pairs)
	}
	msg := DataMissingHTML(errors.New("no arc/training in /x"), "/data<1>")
	if !strings.Contains(msg, "/data&lt;1&gt;") || !strings.Contains(msg, "no arc/training in /x") {
		t.Errorf("DataMissingHTML: %s", msg)
	}
}
