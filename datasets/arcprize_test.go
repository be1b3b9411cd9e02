// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixtures in testdata/arcprize are tiny synthetic tasks (a circular shift right, a vertical flip, a
// shift down on 4x4 grids), not ARC data.
const prizeDir = "testdata/arcprize"

// TestLoadTaskFilesKinds loads the three kinds of task files `latformer solve` reads: a task file (its id the
// file name), a folder of them (sorted by id) and an ARC Prize challenges file (task id -> task, test
// outputs absent), together, in the order of the paths.
func TestLoadTaskFilesKinds(t *testing.T) {
	tasks, err := LoadTaskFiles([]string{filepath.Join(prizeDir, "task_shift.json"), filepath.Join(prizeDir, "tasks"), filepath.Join(prizeDir, "challenges.json")})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, task := range tasks {
		ids = append(ids, task.ID)
	}
	if got := strings.Join(ids, ","); got != "task_shift,down1,flip1,cafe0001,cafe0002" {
		t.Fatalf("ids %s", got)
	}
	if tasks[0].Test[0].Output == nil || len(tasks[0].Train) != 3 {
		t.Errorf("task file: %d train pairs, test output %v", len(tasks[0].Train), tasks[0].Test[0].Output)
	}
	ch := tasks[3]
	if len(ch.Train) != 3 || len(ch.Test) != 2 || ch.Test[0].Output != nil || ch.Test[1].Output != nil || ch.Test[1].Input.Rows() != 4 {
		t.Errorf("challenges task cafe0001: %d train, %d test, outputs %v %v", len(ch.Train), len(ch.Test), ch.Test[0].Output, ch.Test[1].Output)
	}
	// The same task from two paths is an error naming it and both paths.
	_, err = LoadTaskFiles([]string{filepath.Join(prizeDir, "tasks"), filepath.Join(prizeDir, "tasks", "flip1.json")})
	if err == nil || !strings.Contains(err.Error(), `task "flip1" is in both`) || !strings.Contains(err.Error(), "flip1.json") {
		t.Errorf("duplicate task: %v", err)
	}
	if _, err := LoadTaskFiles([]string{filepath.Join(prizeDir, "no_such.json")}); err == nil || !strings.Contains(err.Error(), "no_such.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestBadTaskFiles checks that a bad task in a challenges file, or a bad task file, is reported by task and
// problem, and the good tasks of the file are still returned.
func TestBadTaskFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := `{"train":[{"input":[[1]],"output":[[2]]}],"test":[{"input":[[1]]}]}`
	cases := []struct{ text, want string }{
		{`{"ok":` + good + `,"bad":{"train":[{"input":[[1,12]],"output":[[2]]}],"test":[]}}`, `task "bad": train pair 0 input: cell (0,1) has value 12, colors must be 0..9`},
		{`{"ok":` + good + `,"bad":{"train":[{"input":[[1,2],[3]],"output":[[2]]}],"test":[]}}`, `task "bad": train pair 0 input: ragged grid`},
		{`{"ok":` + good + `,"bad":[1,2]}`, `task "bad": task JSON is not an object`},
		{`{}`, "no tasks"},
	}
	for i, c := range cases {
		path := write("challenges.json", c.text)
		tasks, err := LoadTaskFiles([]string{path})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("case %d: error %v, want one naming %s and containing %q", i, err, path, c.want)
		}
		if i < 3 && (len(tasks) != 1 || tasks[0].ID != "ok") {
			t.Errorf("case %d: the good task was not returned: %v", i, tasks)
		}
	}
	// A task file with a bad test input, named by its file name.
	path := write("mine.json", `{"train":[{"input":[[1]],"output":[[2]]}],"test":[{"input":[[1.5]]}]}`)
	if _, err := LoadTaskFiles([]string{path}); err == nil || !strings.Contains(err.Error(), `task "mine": test pair 0 input: cell (0,0) has value 1.5, not an integer`) {
		t.Errorf("bad task file: %v", err)
	}
}

// TestScoreSubmission scores the hand-written submission of the fixtures by the ARC Prize rule: cafe0001's
// first test input is right in attempt_2 only, its second in neither (the task scores 1/2), cafe0002's
// one test input right in attempt_1 (1): the total is (0.5 + 1) / 2 = 0.75.
func TestScoreSubmission(t *testing.T) {
	sub, err := LoadSubmission(filepath.Join(prizeDir, "submission.json"))
	if err != nil {
		t.Fatal(err)
	}
	solutions, err := LoadSolutions(filepath.Join(prizeDir, "solutions.json"))
	if err != nil {
		t.Fatal(err)
	}
	score, err := ScoreSubmission(sub, solutions)
	if err != nil {
		t.Fatal(err)
	}
	want := []TaskScore{{"cafe0001", 1, 2, 0.5}, {"cafe0002", 1, 1, 1}}
	if len(score.Tasks) != 2 || score.Tasks[0] != want[0] || score.Tasks[1] != want[1] {
		t.Errorf("task scores %+v, want %+v", score.Tasks, want)
	}
	if math.Abs(score.Total-0.75) > 1e-12 {
		t.Errorf("total %v, want 0.75", score.Total)
	}
	// Written back (atomically: no temporary file left) and read again, it scores the same.
	out := filepath.Join(t.TempDir(), "submission.json")
	if err := sub.Write(out); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("the directory holds %d files after Write, want 1", len(entries))
	}
	again, err := LoadSubmission(out)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := ScoreSubmission(again, solutions); err != nil || s.Total != score.Total {
		t.Errorf("written and read back: %v, %v", s.Total, err)
	}
}

// TestScoreBadInputs checks every bad input of the scoring: each error names the task and the problem.
func TestScoreBadInputs(t *testing.T) {
	sol := `{"a":[[[1,2]]],"b":[[[3]],[[4]]]}`
	both := func(a, b string) string { return `{"a":` + a + `,"b":` + b + `}` }
	okA, okB := `[{"attempt_1":[[1,2]],"attempt_2":[[0]]}]`, `[{"attempt_1":[[3]],"attempt_2":[[3]]},{"attempt_1":[[4]],"attempt_2":[[4]]}]`
	cases := []struct{ sub, sol, want string }{
		{`{"a":` + okA + `}`, sol, `task "b": missing from the submission`},
		{both(okA, okB)[:len(both(okA, okB))-1] + `,"c":` + okA + `}`, sol, `task "c": in the submission but not in the solutions`},
		{both(okA, `[{"attempt_1":[[3]],"attempt_2":[[3]]}]`), sol, `task "b": the submission has 1 attempts, the solutions 2 test outputs`},
		{both(okA, `[{"attempt_1":[[3],[4,5]],"attempt_2":[[3]]},{"attempt_1":[[4]],"attempt_2":[[4]]}]`), sol, `task "b": test 0 attempt_1: ragged grid`},
		{both(`[{"attempt_1":[[1,2]],"attempt_2":[[10]]}]`, okB), sol, `task "a": test 0 attempt_2: cell (0,0) has value 10, colors must be 0..9`},
		{both(`[{"attempt_1":[[1,2]]}]`, okB), sol, `task "a": test 0: no "attempt_2"`},
		{both(`{"attempt_1":[[1,2]]}`, okB), sol, `task "a": not a list`},
		{both(okA, okB), `{"a":[[[1,-2]]],"b":[[[3]],[[4]]]}`, `task "a": test output 0: cell (0,1) has value -2, colors must be 0..9`},
		{both(okA, okB), `{"a":[[[1,2]]],"b":[[[3]],[]]}`, `task "b": test output 1: empty grid`},
		{both(okA, okB), `{"a":[[[1,2]]],"b":[[3]]}`, `task "b": test output 0:`},
	}
	for i, c := range cases {
		sub, errSub := ParseSubmission([]byte(c.sub))
		solutions, errSol := ParseSolutions([]byte(c.sol))
		err := errSub
		if err == nil {
			err = errSol
		}
		if err == nil {
			_, err = ScoreSubmission(sub, solutions)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: error %v, want one containing %q", i, err, c.want)
		}
	}
	// The well-formed pair scores: a right, b right: 1.
	sub, _ := ParseSubmission([]byte(both(okA, okB)))
	solutions, _ := ParseSolutions([]byte(sol))
	if s, err := ScoreSubmission(sub, solutions); err != nil || s.Total != 1 {
		t.Errorf("good submission: %v, %v", s, err)
	}
}
