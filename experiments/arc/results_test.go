// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"encoding/csv"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/baselines"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// TestReadResults checks the round trip of a row and that a malformed value is an error naming the line
// and the column, with the rows of the other lines, before and after it, kept.
func TestReadResults(t *testing.T) {
	good := Result{Category: datasets.CategoryRotate, ID: "abcd1234", Solved: true, TestExact: 1,
		TestTotal: 1, Steps: 42, Seconds: 1.5, Canvas: 3, HardGates: true, Action: "rot90(0,1)x1",
		Restarts: 3, RestartsFitted: 1, Restart: 2, TotalSteps: 1042, Model: "cnn", Source: SourceSearch, Lattice: "grid", NetworkSolved: true,
		HasProposal: true, SearchSolved: true, NetworkAction: "reflect(1)", Predictions: []datasets.Grid{{{1, 2}, {3, 4}}, nil}}
	good.SoftTop = []string{"rot90(0,1)x1", "reflect(1)", "identity"}
	after := good
	after.ID = "after000"
	path := filepath.Join(t.TempDir(), "r.csv")
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	_ = w.WriteAll([][]string{Header, good.Record(), {"bad00000", "rotate", "true", "x", "1", "0", "42", "1.5", "3", "hard", "identity", "0.25", "1", "0", "0", "42", "latformer", "", "network", "canvas", "true", "", "", ""}, after.Record()})
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadResults(path)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "test_exact") {
		t.Errorf("want an error naming line 3 and column test_exact, got %v", err)
	}
	got, ok := rows["abcd1234"]
	if !ok || got.Category != good.Category || got.Action != good.Action || got.Steps != 42 || !got.HardGates ||
		got.Restarts != 3 || got.RestartsFitted != 1 || got.Restart != 2 || got.TotalSteps != 1042 || got.Model != "cnn" ||
		got.Source != SourceSearch || got.Lattice != "grid" || !got.NetworkSolved || !got.HasProposal || !got.SearchSolved || got.NetworkAction != "reflect(1)" || !reflect.DeepEqual(got.Predictions, good.Predictions) ||
		!reflect.DeepEqual(got.SoftTop, good.SoftTop) {
		t.Errorf("round trip: got %+v, want %+v", got, good)
	}
	if _, ok := rows["bad00000"]; ok {
		t.Error("the malformed row was kept")
	}
	if _, ok := rows["after000"]; !ok || len(rows) != 2 {
		t.Errorf("want the rows before and after the malformed line (2), got %d: %v", len(rows), slices.Collect(maps.Keys(rows)))
	}
}

// TestReadResultsOldFormat checks that results files without the compile_seconds column, without the
// restart columns or without the model column are read, with ErrOldResults and model latformer; that
// resuming one rewrites it in the current format with its rows kept and the new task appended; and that
// resuming a file of another model is an error.
func TestReadResultsOldFormat(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "arc", "training"), 0o755); err != nil {
		t.Fatal(err)
	}
	task := `{"train": [{"input": [[1]], "output": [[1]]}], "test": [{"input": [[2]], "output": [[2]]}]}`
	for _, id := range []string{"abcd1234", "ef015678"} {
		if err := os.WriteFile(filepath.Join(data, "arc", "training", id+".json"), []byte(task), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	row := []string{"abcd1234", "rotate", "true", "1", "1", "0", "42", "1.5", "3", "hard", "identity", "0.25", "1", "0", "0", "42", "latformer"}
	for _, columns := range []int{11, 12, 16, 17} {
		path := filepath.Join(t.TempDir(), "old.csv")
		var sb strings.Builder
		w := csv.NewWriter(&sb)
		_ = w.WriteAll([][]string{Header[:columns], row[:columns]})
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := ReadResults(path)
		if !errors.Is(err, ErrOldResults) {
			t.Errorf("%d columns: want ErrOldResults, got %v", columns, err)
		}
		if r, ok := rows["abcd1234"]; !ok || !r.Solved || r.Steps != 42 || r.Restarts != 1 || r.TotalSteps != 42 || r.Model != "latformer" {
			t.Errorf("%d columns: old row read as %+v", columns, r)
		}
		settings := hparams.Settings{{Key: latformer.ParamSteps, Value: 2}, {Key: latformer.ParamAugment, Value: 1}, {Key: latformer.ParamRestarts, Value: 1}}
		if _, err := Run(Options{DataDir: data, Tasks: []string{"abcd1234", "ef015678"}, Out: path, Resume: true, NewBackend: backend.New, Model: "cnn", Settings: settings}, Report{}); err == nil || !strings.Contains(err.Error(), "model latformer") {
			t.Errorf("%d columns: resuming LatFormer's file with the CNN: error %v", columns, err)
		}
		if _, err := Run(Options{DataDir: data, Tasks: []string{"abcd1234", "ef015678"}, Out: path, Resume: true, NewBackend: backend.New, Settings: settings}, Report{}); err != nil {
			t.Fatalf("%d columns: resuming: %v", columns, err)
		}
		rows, err = ReadResults(path)
		if err != nil || len(rows) != 2 || rows["abcd1234"].Steps != 42 || rows["ef015678"].Model != "latformer" {
			t.Errorf("%d columns: after resuming, %d rows, err %v: %+v", columns, len(rows), err, rows)
		}
	}
}

// TestOptions checks that bad options are errors before any work.
func TestOptions(t *testing.T) {
	for _, o := range []Options{{Split: "test"}, {Category: "spin"}, {Workers: -1}, {Canvas: 31}, {Resume: true, Force: true}, {Resume: true},
		{Model: "lstm"}, {Settings: hparams.Settings{{Key: baselines.ParamDim, Value: 8}}}} {
		if _, err := o.withDefaults(time.Time{}); err == nil {
			t.Errorf("%+v: want an error", o)
		}
	}
	// A baseline's own hyperparameters are accepted with that baseline.
	if o, err := (Options{Model: "cnn", Settings: hparams.Settings{{Key: baselines.ParamDim, Value: 8}}}).withDefaults(time.Time{}); err != nil || o.Model != "cnn" {
		t.Errorf("cnn with baseline_dim: %v", err)
	}
	if o, _ := (Options{}).withDefaults(time.Time{}); o.Model != "latformer" {
		t.Errorf("default model %q, want latformer", o.Model)
	}
}

// TestWriteModelTable checks that a baseline's table carries the paper's row for it ("-" where the paper
// has none), that LatFormer's has no such column, and that every baseline has a paper row.
func TestWriteModelTable(t *testing.T) {
	sums := []CategorySummary{{Category: datasets.CategoryTranslate, Tasks: 24, Solved: 2}, {Category: datasets.CategoryRotate, Tasks: 11, Solved: 1}}
	var b strings.Builder
	WriteModelTable(&b, sums, "transformer_aug")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "paper transformer_aug") {
		t.Fatalf("table:\n%s", b.String())
	}
	if f := strings.Fields(lines[1]); f[len(f)-1] != "-" || f[2] != "2" {
		t.Errorf("translate row %q: want 2 solved and the paper's \"-\"", lines[1])
	}
	if f := strings.Fields(lines[2]); f[len(f)-1] != "0.200" {
		t.Errorf("rotate row %q: want the paper's 0.200 last", lines[2])
	}
	b.Reset()
	WriteTable(&b, sums)
	if strings.Contains(b.String(), "paper latformer") || strings.Count(b.String(), "\n") != 3 {
		t.Errorf("LatFormer's table:\n%s", b.String())
	}
	for _, name := range baselines.Names() {
		if len(PaperBaselines[name]) == 0 {
			t.Errorf("baseline %s has no paper row", name)
		}
	}
}

// TestCategoryList checks that Category takes a comma-separated list (the union of those categories'
// annotated tasks, selected from a data directory holding a stand-in file for every annotated task) and
// that a bad entry is an error naming it.
func TestCategoryList(t *testing.T) {
	o := Options{Category: "rotate, reflect"}
	set, err := o.categories()
	if err != nil || len(set) != 2 || !set[datasets.CategoryRotate] || !set[datasets.CategoryReflect] {
		t.Errorf("rotate, reflect: %v, %v", set, err)
	}
	if o, err := o.withDefaults(time.Now()); err != nil || !strings.Contains(o.Out, "-rotate+reflect-") {
		t.Errorf("rotate, reflect: default results file %q (%v), want one naming rotate+reflect (no space)", o.Out, err)
	}
	for bad, entry := range map[string]string{"rotate,spin": `"spin"`, "rotate,": `""`, "all,rotate": `"all"`} {
		if _, err := (Options{Category: bad}).withDefaults(time.Now()); err == nil || !strings.Contains(err.Error(), "comma-separated") || !strings.Contains(err.Error(), entry+" in") {
			t.Errorf("category %q: got %v, want an error naming %s", bad, err, entry)
		}
	}
	anns, err := annotate.Default()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	split := filepath.Join(data, "arc", "training")
	if err := os.MkdirAll(split, 0o755); err != nil {
		t.Fatal(err)
	}
	want := 0
	for id, a := range anns {
		task := `{"train":[{"input":[[1]],"output":[[1]]}],"test":[{"input":[[1]],"output":[[1]]}]}`
		if err := os.WriteFile(filepath.Join(split, id+".json"), []byte(task), 0o644); err != nil {
			t.Fatal(err)
		}
		if a.Category == datasets.CategoryRotate || a.Category == datasets.CategoryScale {
			want++
		}
	}
	tasks, err := SelectTasks(Options{DataDir: data, Category: "scale,rotate"})
	if err != nil || want == 0 || len(tasks) != want {
		t.Fatalf("scale,rotate: %d tasks (%v), want %d", len(tasks), err, want)
	}
	for _, task := range tasks {
		if c := anns[task.ID].Category; c != datasets.CategoryRotate && c != datasets.CategoryScale {
			t.Errorf("task %s of category %s selected", task.ID, c)
		}
	}
}

// TestReadResultsFor checks the line a table prints for each way a results file can leave rows out: a
// missing file, an unreadable one, an empty one, a skipped line; and that a complete file, in the current
// format or an older one, gives all its rows and no line.
func TestReadResultsFor(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, records ...[]string) string {
		path := filepath.Join(dir, name)
		var sb strings.Builder
		w := csv.NewWriter(&sb)
		_ = w.WriteAll(records)
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	row := Result{Category: datasets.CategoryRotate, ID: "abcd1234", Solved: true, TestExact: 1, TestTotal: 1,
		Steps: 42, Seconds: 1.5, Canvas: 3, Restarts: 1, TotalSteps: 42, Model: "cnn", Source: SourceNetwork, NetworkSolved: true}
	other := row
	other.ID = "ef015678"
	old := func(r Result) []string { return r.Record()[:18] } // the committed baselines' format before the migration
	bad := slices.Clone(other.Record())
	bad[0], bad[3] = "bad00000", "x"
	for _, c := range []struct {
		name, path string
		rows       int    // rows returned
		note       string // a part of the line; "" for none
	}{
		{"missing", filepath.Join(dir, "none.csv"), 0, "none.csv: not run yet (make arc-baselines writes it)"},
		{"another header", write("other.csv", []string{"task", "solved"}, []string{"abcd1234", "true"}), 0, "other.csv: unreadable: "},
		{"empty", write("empty.csv"), 0, "empty.csv: no rows yet (make arc-baselines writes them)"},
		{"header only", write("header.csv", Header), 0, "header.csv: no rows yet"},
		{"a bad line", write("bad.csv", Header, row.Record(), bad, other.Record()), 2, "bad.csv: 1 line(s) skipped, the other 2 rows read: "},
		{"current format", write("current.csv", Header, row.Record(), other.Record()), 2, ""},
		{"older format", write("old.csv", Header[:18], old(row), old(other)), 2, ""},
	} {
		rows, note := ReadResultsFor(c.path, "make arc-baselines")
		if len(rows) != c.rows || (c.rows == 0) != (rows == nil) {
			t.Errorf("%s: %d rows (nil %v), want %d", c.name, len(rows), rows == nil, c.rows)
		}
		if c.note == "" && note != "" || c.note != "" && !strings.Contains(note, c.note) {
			t.Errorf("%s: line %q, want one containing %q", c.name, note, c.note)
		}
		if c.rows > 0 && (!rows["abcd1234"].Solved || rows["ef015678"].Model != "cnn" || rows["ef015678"].Steps != 42) {
			t.Errorf("%s: rows read as %+v", c.name, rows)
		}
	}
}

// TestCommittedBaselineResults checks the baseline rows of Table 2 that notebook 04 and docs/arc-baselines.md read
// (results/arc_baseline_<model>.csv): every file is in the current format (migrated from the 18-column one,
// each old line a prefix of its new one) and reads whole, with its model's rows on the 59 tasks with canvas at
// most 10 (the Transformer with augmentation on the 35 rotate, reflect and scale ones). A run that its log
// (<name>_run.txt) shows in progress, its last command without the closing "wall time" line (a run cut, to
// be resumed), may have fewer rows; every row it has is checked the same way.
func TestCommittedBaselineResults(t *testing.T) {
	for _, name := range baselines.Names() {
		path := filepath.Join("..", "..", "results", "arc_baseline_"+name+".csv")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		header, err := csv.NewReader(f).Read()
		f.Close()
		if err != nil || !slices.Equal(header, Header) {
			t.Errorf("%s: header %q (err %v), want the current format %q", path, header, err, Header)
		}
		rows, note := ReadResultsFor(path, "make arc-baselines")
		want := 59
		if name == "transformer_aug" {
			want = 35
		}
		finished := runFinished(t, strings.TrimSuffix(path, ".csv")+"_run.txt")
		if note != "" || len(rows) > want || finished && len(rows) != want {
			t.Errorf("%s: %d rows (run finished: %v), want %d; line %q", path, len(rows), finished, want, note)
		}
		if !finished {
			t.Logf("%s: run in progress, %d of %d tasks", path, len(rows), want)
		}
		for id, r := range rows {
			if r.Model != name || r.Canvas > 10 || r.Source != SourceNetwork || r.NetworkSolved != r.Solved {
				t.Errorf("%s: task %s read as model %s, canvas %d, source %s, network_solved %v (solved %v)", path, id, r.Model, r.Canvas, r.Source, r.NetworkSolved, r.Solved)
			}
		}
	}
}

// runFinished says whether the run log at path shows its run finished: a "wall time" line (latformer arc's
// last) after the last command line ("$ latformer ...", scripts/reproduce.sh's first), or anywhere in a log
// without command lines (the older logs).
func runFinished(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := "\n" + string(data)
	if i := strings.LastIndex(log, "\n$ latformer "); i >= 0 {
		log = log[i:]
	}
	return strings.Contains(log, "\nwall time ")
}

// TestRunFinished checks how the baseline test tells a finished run's log from one in progress.
func TestRunFinished(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		log  string
		want bool
	}{
		{"== cnn\n[1/59] ...\nwall time 8m9s; results written to arc_cnn.csv\n", true},
		{"$ latformer arc --model dnc\n[1/59] ...\n", false},
		{"$ latformer arc --model dnc\n[1/59] ...\nwall time 1h2m; results\n", true},
		{"$ latformer arc\nwall time 3m\n$ latformer arc --resume\n[5/59] ...\n", false},
	} {
		path := filepath.Join(dir, "x_run.txt")
		if err := os.WriteFile(path, []byte(c.log), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := runFinished(t, path); got != c.want {
			t.Errorf("log %q: finished %v, want %v", c.log, got, c.want)
		}
	}
}
