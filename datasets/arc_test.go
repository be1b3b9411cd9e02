// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const arcTestValidTask = `{"train": [{"input": [[1, 2], [3, 4]], "output": [[4, 3], [2, 1]]},
 {"input": [[0, 0, 5]], "output": [[5, 0, 0]]}],
 "test": [{"input": [[7]], "output": [[9]]}]}`

// arcTestGridJSON returns the JSON of a rows x cols grid of color 1.
func arcTestGridJSON(rows, cols int) string {
	row := "[" + strings.TrimSuffix(strings.Repeat("1,", cols), ",") + "]"
	return "[" + strings.TrimSuffix(strings.Repeat(row+",", rows), ",") + "]"
}

// arcTestTaskJSON returns a one-train-pair task whose train output is outGrid.
func arcTestTaskJSON(outGrid string) string {
	return `{"train": [{"input": [[1]], "output": ` + outGrid + `}], "test": [{"input": [[1]], "output": [[2]]}]}`
}

func TestParseTaskValid(t *testing.T) {
	task, err := ParseTask("abc", []byte(arcTestValidTask))
	if err != nil {
		t.Fatalf("ParseTask: %v", err)
	}
	if task.ID != "abc" || len(task.Train) != 2 || len(task.Test) != 1 {
		t.Fatalf("got id %q, %d train, %d test pairs; want abc, 2, 1", task.ID, len(task.Train), len(task.Test))
	}
	if want := (Grid{{4, 3}, {2, 1}}); !task.Train[0].Output.Equal(want) {
		t.Errorf("train 0 output = %v, want %v", task.Train[0].Output, want)
	}
	if want := (Grid{{0, 0, 5}}); !task.Train[1].Input.Equal(want) {
		t.Errorf("train 1 input = %v, want %v", task.Train[1].Input, want)
	}
	if task.Test[0].Input[0][0] != 7 || task.Test[0].Output[0][0] != 9 {
		t.Errorf("test pair = %v -> %v, want [[7]] -> [[9]]", task.Test[0].Input, task.Test[0].Output)
	}

	// Prediction-only test pairs, unknown keys, integral floats, an empty test list, a 30x30 grid.
	cases := []struct {
		name, json       string
		train, test      int
		nilTestOutputs   int
		cornerTrainInput int
	}{
		{"test pair without output", `{"train": [{"input": [[1]], "output": [[2]]}], "test": [{"input": [[3]]}]}`, 1, 1, 1, 1},
		{"test output null", `{"train": [{"input": [[1]], "output": [[2]]}], "test": [{"input": [[3]], "output": null}, {"input": [[3]], "output": [[4]]}]}`, 1, 2, 1, 1},
		{"unknown keys", `{"name": "x", "train": [{"input": [[1]], "output": [[2]], "note": 1}], "test": [], "extra": {"a": [1]}}`, 1, 0, 0, 1},
		{"integral float", `{"train": [{"input": [[2.0, 1e0]], "output": [[2]]}], "test": []}`, 1, 0, 0, 2},
		{"30x30", `{"train": [{"input": ` + arcTestGridJSON(30, 30) + `, "output": [[2]]}], "test": []}`, 1, 0, 0, 1},
	}
	for _, c := range cases {
		task, err := ParseTask(c.name, []byte(c.json))
		if err != nil {
			t.Errorf("%s: ParseTask: %v", c.name, err)
			continue
		}
		nilOutputs := 0
		for _, p := range task.Test {
			if p.Output == nil {
				nilOutputs++
			}
		}
		if len(task.Train) != c.train || len(task.Test) != c.test || nilOutputs != c.nilTestOutputs || task.Train[0].Input[0][0] != c.cornerTrainInput {
			t.Errorf("%s: got %d train, %d test, %d nil test outputs, corner %d; want %d, %d, %d, %d", c.name,
				len(task.Train), len(task.Test), nilOutputs, task.Train[0].Input[0][0], c.train, c.test, c.nilTestOutputs, c.cornerTrainInput)
		}
	}
}

func TestParseTaskMalformed(t *testing.T) {
	cases := []struct {
		name, json, want string
	}{
		{"not JSON", `{"train": [`, "not valid JSON (at byte offset 11)"},
		{"not JSON text", `hello`, "not valid JSON (at byte offset 1)"},
		{"empty input", ``, "not valid JSON"},
		{"not an object", `[1, 2]`, "not an object"},
		{"null", `null`, "task JSON is null"},
		{"train missing", `{"test": [{"input": [[1]]}]}`, `missing "train" key`},
		{"test missing", `{"train": [{"input": [[1]], "output": [[2]]}]}`, `missing "test" key`},
		{"empty train", `{"train": [], "test": []}`, "empty train list"},
		{"train null", `{"train": null, "test": []}`, `"train" is null`},
		{"train not a list", `{"train": {"input": [[1]]}, "test": []}`, `"train" is not a list of pairs`},
		{"pair not an object", `{"train": [[[1]]], "test": []}`, "train pair 0 is not an object"},
		{"pair without input", `{"train": [{"output": [[1]]}], "test": []}`, `train pair 0 has no "input"`},
		{"train pair without output", `{"train": [{"input": [[1]], "output": [[1]]}, {"input": [[1]]}], "test": []}`, `train pair 1 has no "output"`},
		{"test pair without input", `{"train": [{"input": [[1]], "output": [[1]]}], "test": [{"output": [[1]]}]}`, `test pair 0 has no "input"`},
		{"ragged", arcTestTaskJSON(`[[1, 2], [3]]`), "train pair 0 output: ragged grid: row 1 has 1 cells, row 0 has 2"},
		{"value 10", arcTestTaskJSON(`[[1, 10]]`), "train pair 0 output: cell (0,1) has value 10, colors must be 0..9"},
		{"value -1", arcTestTaskJSON(`[[1], [-1]]`), "cell (1,0) has value -1, colors must be 0..9"},
		{"value 1.5", arcTestTaskJSON(`[[1.5]]`), "cell (0,0) has value 1.5, not an integer"},
		{"value 1e400", arcTestTaskJSON(`[[1e400]]`), "has value 1e400, not an integer"},
		{"huge integer", arcTestTaskJSON(`[[123456789012345678901234567890]]`), "has value 123456789012345678901234567890, colors must be 0..9"},
		{"string cell", arcTestTaskJSON(`[["1"]]`), `cell (0,0) is "1", not a number`},
		{"null cell", arcTestTaskJSON(`[[null]]`), "cell (0,0) is null, not a number"},
		{"31x2 grid", arcTestTaskJSON(arcTestGridJSON(31, 2)), "grid has 31 rows, more than the ARC maximum of 30"},
		{"2x31 grid", arcTestTaskJSON(arcTestGridJSON(2, 31)), "grid has 31 columns, more than the ARC maximum of 30"},
		{"empty grid []", arcTestTaskJSON(`[]`), "train pair 0 output: empty grid (no rows)"},
		{"empty grid [[]]", arcTestTaskJSON(`[[]]`), "train pair 0 output: empty grid (row 0 has no cells)"},
		{"grid not a list of lists", arcTestTaskJSON(`[1, 2]`), "train pair 0 output: not a list of rows"},
		{"test grid ragged", `{"train": [{"input": [[1]], "output": [[1]]}], "test": [{"input": [[1], [2, 3]]}]}`, "test pair 0 input: ragged grid"},
	}
	for _, c := range cases {
		task, err := ParseTask("bad", []byte(c.json))
		if err == nil {
			t.Errorf("%s: ParseTask accepted %s: %+v", c.name, c.json, task)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), `task "bad": `) {
			t.Errorf("%s: error %q, want it to start with `task \"bad\": ` and contain %q", c.name, err, c.want)
		}
	}
}

// arcTestStats are the numbers arcTestCheckTasks measures.
type arcTestStats struct {
	tasks, train, test, testWithoutOutput, maxSide int
}

// arcTestCheckTasks checks that tasks are sorted by unique id, have train pairs, and that every grid is
// valid; it returns their counts.
func arcTestCheckTasks(t *testing.T, tasks []Task) arcTestStats {
	t.Helper()
	s := arcTestStats{tasks: len(tasks)}
	for i, task := range tasks {
		if i > 0 && tasks[i-1].ID >= task.ID {
			t.Errorf("tasks not sorted by unique id: %q then %q", tasks[i-1].ID, task.ID)
		}
		if len(task.Train) == 0 {
			t.Errorf("task %s has no train pair", task.ID)
		}
		s.train += len(task.Train)
		s.test += len(task.Test)
		check := func(what string, g Grid) {
			if err := g.Validate(); err != nil {
				t.Errorf("task %s %s: %v", task.ID, what, err)
			}
			s.maxSide = max(s.maxSide, g.Rows(), g.Cols())
		}
		for _, p := range task.Train {
			check("train input", p.Input)
			check("train output", p.Output)
		}
		for _, p := range task.Test {
			check("test input", p.Input)
			if p.Output == nil {
				s.testWithoutOutput++
			} else {
				check("test output", p.Output)
			}
		}
	}
	return s
}

func arcTestWriteFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadDirARCTraining(t *testing.T) {
	dataDir, err := DataDir("")
	if err != nil {
		t.Skipf("no data directory: %v", err)
	}
	dir, err := ARCSplitDir(dataDir, "training")
	if err != nil {
		t.Skipf("no ARC training split: %v", err)
	}
	tasks, err := LoadDir(dir)
	if err != nil {
		t.Fatalf("LoadDir(%s): %v", dir, err)
	}
	s := arcTestCheckTasks(t, tasks)
	t.Logf("ARC training (%s): %d tasks, %d train pairs, %d test pairs (%d without output), max grid side %d",
		dir, s.tasks, s.train, s.test, s.testWithoutOutput, s.maxSide)
	if s.tasks != 400 || s.maxSide != 30 || s.testWithoutOutput != 0 {
		t.Errorf("got %d tasks, max side %d, %d test pairs without output; want 400, 30, 0", s.tasks, s.maxSide, s.testWithoutOutput)
	}
	if s.train != 1302 || s.test != 416 {
		t.Errorf("got %d train and %d test pairs, want the 1302 and 416 of ARC-AGI-1 training", s.train, s.test)
	}
	first := tasks[0]
	if first.ID != "007bbfb7" || first.Train[0].Input.Rows() != 3 || first.Train[0].Output.Rows() != 9 || first.Train[0].Output.Cols() != 9 {
		t.Errorf("first task %s: train 0 is %dx%d -> %dx%d, want 007bbfb7, 3x3 -> 9x9", first.ID,
			first.Train[0].Input.Rows(), first.Train[0].Input.Cols(), first.Train[0].Output.Rows(), first.Train[0].Output.Cols())
	}
	some, err := LoadTasks(dir, []string{"007bbfb7", "00d62c1b.json"})
	if err != nil || len(some) != 2 || some[0].ID != "007bbfb7" || some[1].ID != "00d62c1b" {
		t.Errorf("LoadTasks: %d tasks, err %v; want 007bbfb7 and 00d62c1b", len(some), err)
	}
}

func TestLoadDirSmall(t *testing.T) {
	dir := t.TempDir()
	arcTestWriteFiles(t, dir, map[string]string{
		"b.json": arcTestValidTask,
		"a.json": `{"train": [{"input": ` + arcTestGridJSON(30, 30) + `, "output": [[1]]}], "test": [{"input": [[1, 2]]}]}`,
		"c.json": `{"train": [{"input": [[1]], "output": [[2]]}, {"input": [[3]], "output": [[4]]}, {"input": [[5]], "output": [[6]]}],
			"test": [{"input": [[1]], "output": [[1]]}, {"input": [[2]], "output": [[2]]}]}`,
		"notes.txt": "not a task",
	})
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tasks, err := LoadDir(dir)
	if err != nil {
		t.Fatalf("LoadDir: %v", err)
	}
	s := arcTestCheckTasks(t, tasks)
	t.Logf("small dir: %d tasks, %d train pairs, %d test pairs (%d without output), max side %d", s.tasks, s.train, s.test, s.testWithoutOutput, s.maxSide)
	if want := (arcTestStats{tasks: 3, train: 6, test: 4, testWithoutOutput: 1, maxSide: 30}); s != want {
		t.Errorf("stats %+v, want %+v", s, want)
	}
	if ids := []string{tasks[0].ID, tasks[1].ID, tasks[2].ID}; !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("ids %v, want [a b c]", ids)
	}

	// LoadTasks: with and without .json, in the order asked, and the missing ids named.
	got, err := LoadTasks(dir, []string{"c.json", "a", "zz", "yy.json"})
	if len(got) != 2 || got[0].ID != "c" || got[1].ID != "a" {
		t.Errorf("LoadTasks returned %d tasks, want c and a", len(got))
	}
	if err == nil || !strings.Contains(err.Error(), "2 ARC tasks not found") || !strings.Contains(err.Error(), "zz, yy") {
		t.Errorf("LoadTasks error %v, want it to name the 2 missing ids zz and yy", err)
	}
	if _, err := LoadTasks(dir, []string{"../b"}); err == nil || !strings.Contains(err.Error(), `invalid ARC task id "../b"`) {
		t.Errorf("LoadTasks(../b) error %v, want invalid id", err)
	}

	// LoadTask: id from the file name; errors with the path.
	task, err := LoadTask(filepath.Join(dir, "b.json"))
	if err != nil || task.ID != "b" || len(task.Train) != 2 {
		t.Errorf("LoadTask(b.json) = id %q, %d train pairs, err %v; want b, 2, nil", task.ID, len(task.Train), err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := LoadTask(missing); err == nil || !strings.Contains(err.Error(), missing) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadTask(missing) error %v, want a not-exist error naming %s", err, missing)
	}
}

func TestLoadDirBadFiles(t *testing.T) {
	dir := t.TempDir()
	arcTestWriteFiles(t, dir, map[string]string{
		"good1.json": arcTestValidTask,
		"good2.json": arcTestValidTask,
		"bad1.json":  `{"train": [{"input": [[1]]`,
		"bad2.json":  arcTestTaskJSON(`[[1, 2], [3]]`),
	})
	tasks, err := LoadDir(dir)
	if len(tasks) != 2 || tasks[0].ID != "good1" || tasks[1].ID != "good2" {
		t.Errorf("LoadDir returned %d tasks, want good1 and good2", len(tasks))
	}
	if err == nil {
		t.Fatal("LoadDir returned no error for 2 bad files")
	}
	msg := err.Error()
	for _, want := range []string{"2 of 4 ARC task files", filepath.Join(dir, "bad1.json"), "not valid JSON",
		filepath.Join(dir, "bad2.json"), "train pair 0 output: ragged grid"} {
		if !strings.Contains(msg, want) {
			t.Errorf("LoadDir error %q does not contain %q", msg, want)
		}
	}
	t.Logf("LoadDir error:\n%v", err)

	if _, err := LoadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no .json task files") {
		t.Errorf("LoadDir(empty dir) error %v, want no .json task files", err)
	}
	if _, err := LoadDir(filepath.Join(dir, "nope")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadDir(missing dir) error %v, want not-exist", err)
	}
}

func TestDataDir(t *testing.T) {
	t.Setenv(EnvDataDir, "/env/data")
	if got, err := DataDir("/flag/data"); err != nil || got != "/flag/data" {
		t.Errorf("DataDir(flag) = %q, %v; want /flag/data", got, err)
	}
	if got, err := DataDir(""); err != nil || got != "/env/data" {
		t.Errorf("DataDir with $%s = %q, %v; want /env/data", EnvDataDir, got, err)
	}
	t.Setenv(EnvDataDir, "")

	// Without a flag or $LATFORMER_DATA: ./data when it exists (nothing beside or above the working
	// directory), else an error naming both ways to get one.
	root := t.TempDir()
	for _, d := range []string{"with/data", "without", "shared/data"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(root, "with"))
	if got, err := DataDir(""); err != nil || got != DefaultDataDir {
		t.Errorf("DataDir in a directory with data/ = %q, %v; want %q", got, err, DefaultDataDir)
	}
	t.Chdir(filepath.Join(root, "without"))
	_, err := DataDir("")
	if err == nil {
		t.Fatal("DataDir found a data dir where there is none (../shared/data is no default)")
	}
	for _, want := range []string{"-data", EnvDataDir, "latformer download", "./data", "arc/training"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("DataDir error %q does not mention %q", err, want)
		}
	}
}

func TestARCSplitDir(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "arc", "training"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := ARCSplitDir(root, "training"); err != nil || got != filepath.Join(root, "arc", "training") {
		t.Errorf("ARCSplitDir(training) = %q, %v", got, err)
	}
	_, err := ARCSplitDir(root, "evaluation")
	for _, want := range []string{"latformer download --data " + root, EnvDataDir, "arc/evaluation"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ARCSplitDir(missing evaluation) error %v: want both ways to fix it, naming %q", err, want)
		}
	}
	if _, err := ARCSplitDir(root, "test"); err == nil || !strings.Contains(err.Error(), `unknown ARC split "test"`) {
		t.Errorf("ARCSplitDir(test) error %v, want unknown split", err)
	}
}

// TestTaskCanvas checks the per-task canvas: the largest grid side, covering scaled test outputs.
func TestTaskCanvas(t *testing.T) {
	g := func(r, c int) Grid { return NewGrid(r, c, 0) }
	task := Task{ID: "t", Train: []Pair{{Input: g(2, 3), Output: g(4, 6)}}, Test: []Pair{{Input: g(4, 4)}}}
	if got := TaskCanvas(task); got != 8 {
		t.Errorf("TaskCanvas = %d, want 8 (test input 4 x upscaling 2)", got)
	}
}
