// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

// The ARC Prize file formats (Kaggle's arc-agi_*_challenges.json, _solutions.json and submission.json) and
// its scoring rule, and loading a user's task files of any of the three kinds `latformer solve` reads.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/latformer/latformer/internal/atomicfile"
)

// ParseChallenges parses an ARC Prize challenges file (arc-agi_evaluation_challenges.json): a JSON object
// from task id to the task's {"train": [...], "test": [...]}, each parsed by ParseTask (the test pairs
// usually have no "output"). The tasks come back sorted by id. Bad tasks do not stop it: it returns the
// tasks that parse with an error that names every bad one (ParseTask's, `task "x": ...`); a file that is not
// a JSON object, or an empty one, is an error.
func ParseChallenges(data []byte) ([]Task, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("not a JSON object from task id to task: %w", err)
	}
	if len(top) == 0 {
		return nil, errors.New("no tasks: the JSON object is empty")
	}
	ids := sortedKeys(top)
	tasks := make([]Task, 0, len(ids))
	var errs []error
	for _, id := range ids {
		task, err := ParseTask(id, top[id])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tasks = append(tasks, task)
	}
	return tasks, errors.Join(errs...)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// LoadTaskFiles loads ARC tasks from paths, each one of: an ARC task file ({"train": ..., "test": ...}; the
// id is the file name without .json, LoadTask), a folder of them (LoadDir), or an ARC Prize challenges file
// (ParseChallenges: an object from task id to task, told apart by having no "train" key). Test pairs may
// lack their output. The tasks come back in the order of the paths (a folder's and a challenges file's
// sorted by id). Every bad file and task is reported, the others returned, in one error (errors.Join) whose
// lines name the file and the task; a task id that two paths both give is an error naming both.
func LoadTaskFiles(paths []string) ([]Task, error) {
	if len(paths) == 0 {
		return nil, errors.New("no task files given")
	}
	var tasks []Task
	var errs []error
	from := map[string]string{} // task id -> the path it came from
	for _, path := range paths {
		got, err := loadTaskPath(path)
		if err != nil {
			errs = append(errs, err)
		}
		for _, t := range got {
			if other, dup := from[t.ID]; dup {
				errs = append(errs, fmt.Errorf("task %q is in both %s and %s", t.ID, other, path))
				continue
			}
			from[t.ID] = path
			tasks = append(tasks, t)
		}
	}
	return tasks, errors.Join(errs...)
}

// loadTaskPath loads the tasks of one path of LoadTaskFiles.
func loadTaskPath(path string) ([]Task, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("loading ARC tasks: %w", err)
	}
	if info.IsDir() {
		return LoadDir(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading ARC tasks: %w", err)
	}
	if isChallenges(data) {
		tasks, err := ParseChallenges(data)
		if err != nil {
			return tasks, fmt.Errorf("loading ARC Prize challenges %s: %w", path, err)
		}
		return tasks, nil
	}
	task, err := ParseTask(strings.TrimSuffix(filepath.Base(path), ".json"), data)
	if err != nil {
		return nil, fmt.Errorf("loading ARC task %s: %w", path, err)
	}
	return []Task{task}, nil
}

// isChallenges tells a challenges file (an object of tasks) from a task file: a JSON object with neither a
// "train" nor a "test" key. Anything else (not JSON, not an object) is left to ParseTask to explain.
func isChallenges(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || top == nil {
		return false
	}
	_, train := top["train"]
	_, test := top["test"]
	return !train && !test
}

// ParseSolutions parses an ARC Prize solutions file (arc-agi_evaluation_solutions.json): a JSON object from
// task id to the list of its test outputs, in the order of the task's test inputs. Every grid is checked as
// ParseTask checks one; the errors name the task and the output (`task "x": test output 1: ragged grid:
// ...`), every bad task reported.
func ParseSolutions(data []byte) (map[string][]Grid, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("not a JSON object from task id to its test outputs: %w", err)
	}
	out := make(map[string][]Grid, len(top))
	var errs []error
	for _, id := range sortedKeys(top) {
		var list []json.RawMessage
		if err := json.Unmarshal(top[id], &list); err != nil || list == nil {
			errs = append(errs, fmt.Errorf("task %q: not a list of test output grids", id))
			continue
		}
		grids := make([]Grid, len(list))
		var bad error
		for i, raw := range list {
			if grids[i], bad = parseARCGrid(raw); bad != nil {
				bad = fmt.Errorf("task %q: test output %d: %w", id, i, bad)
				break
			}
		}
		if bad != nil {
			errs = append(errs, bad)
			continue
		}
		out[id] = grids
	}
	return out, errors.Join(errs...)
}

// Attempts are a submission's two guesses at one test output (ARC Prize: the test input counts as solved
// when either is exact).
type Attempts struct {
	Attempt1 Grid `json:"attempt_1"`
	Attempt2 Grid `json:"attempt_2"`
}

// Submission is an ARC Prize submission (submission.json): for each task id, one Attempts per test input,
// in the order of the task's test inputs.
type Submission map[string][]Attempts

// ParseSubmission parses a submission file, checking every attempt as ParseTask checks a grid (non-empty,
// rectangular, colors 0..9). The errors name the task, the test input and the attempt (`task "x": test 0
// attempt_2: cell (0,1) has value 12, colors must be 0..9`), every bad task reported.
func ParseSubmission(data []byte) (Submission, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("not a JSON object from task id to its attempts: %w", err)
	}
	sub := make(Submission, len(top))
	var errs []error
	for _, id := range sortedKeys(top) {
		attempts, err := parseAttempts(top[id])
		if err != nil {
			errs = append(errs, fmt.Errorf("task %q: %w", id, err))
			continue
		}
		sub[id] = attempts
	}
	return sub, errors.Join(errs...)
}

// parseAttempts parses one task's list of {"attempt_1": grid, "attempt_2": grid}.
func parseAttempts(raw json.RawMessage) ([]Attempts, error) {
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return nil, errors.New(`not a list with one {"attempt_1": grid, "attempt_2": grid} per test input`)
	}
	out := make([]Attempts, len(list))
	for i, fields := range list {
		for _, key := range []string{"attempt_1", "attempt_2"} {
			rawGrid, ok := fields[key]
			if !ok || isJSONNull(rawGrid) {
				return nil, fmt.Errorf("test %d: no %q", i, key)
			}
			g, err := parseARCGrid(rawGrid)
			if err != nil {
				return nil, fmt.Errorf("test %d %s: %w", i, key, err)
			}
			if key == "attempt_1" {
				out[i].Attempt1 = g
			} else {
				out[i].Attempt2 = g
			}
		}
	}
	return out, nil
}

// LoadSubmission reads and parses a submission file (ParseSubmission); errors name the file.
func LoadSubmission(path string) (Submission, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("submission: %w", err)
	}
	sub, err := ParseSubmission(data)
	if err != nil {
		return sub, fmt.Errorf("submission %s: %w", path, err)
	}
	return sub, nil
}

// LoadSolutions reads and parses a solutions file (ParseSolutions); errors name the file.
func LoadSolutions(path string) (map[string][]Grid, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("solutions: %w", err)
	}
	sol, err := ParseSolutions(data)
	if err != nil {
		return sol, fmt.Errorf("solutions %s: %w", path, err)
	}
	return sol, nil
}

// Write writes the submission to path as JSON (task ids sorted) atomically (internal/atomicfile): an
// interrupted write leaves the old file or the new one, never half of one.
func (s Submission) Write(path string) error {
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	return atomicfile.Write(path, data, nil)
}

// TaskScore is one task's score under the ARC Prize rule: Exact of its Tests test inputs have an exact
// attempt (either of the two), and Score = Exact / Tests.
type TaskScore struct {
	ID           string
	Exact, Tests int
	Score        float64
}

// Score is a submission's score: per task (sorted by id) and Total, the sum of the task scores divided by
// the number of tasks (the ARC Prize rule: a task with two test inputs, one right, scores 0.5).
type Score struct {
	Tasks []TaskScore
	Total float64
}

// ScoreSubmission scores sub against the solutions (task id -> test outputs) by the ARC Prize rule: a test
// input counts when attempt_1 or attempt_2 equals its output. Every task of the solutions must be in the
// submission with one Attempts per test output, and the submission must hold no other task; each problem
// is an error naming the task (all of them, joined), and no score is returned then.
func ScoreSubmission(sub Submission, solutions map[string][]Grid) (Score, error) {
	var errs []error
	for _, id := range sortedKeys(sub) {
		if _, ok := solutions[id]; !ok {
			errs = append(errs, fmt.Errorf("task %q: in the submission but not in the solutions", id))
		}
	}
	var score Score
	for _, id := range sortedKeys(solutions) {
		want := solutions[id]
		attempts, ok := sub[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("task %q: missing from the submission", id))
			continue
		case len(attempts) != len(want):
			errs = append(errs, fmt.Errorf("task %q: the submission has %d attempts, the solutions %d test outputs", id,
				len(attempts), len(want)))
			continue
		case len(want) == 0:
			errs = append(errs, fmt.Errorf("task %q: no test outputs in the solutions", id))
			continue
		}
		ts := TaskScore{ID: id, Tests: len(want)}
		for i, w := range want {
			if attempts[i].Attempt1.Equal(w) || attempts[i].Attempt2.Equal(w) {
				ts.Exact++
			}
		}
		ts.Score = float64(ts.Exact) / float64(ts.Tests)
		score.Tasks = append(score.Tasks, ts)
		score.Total += ts.Score
	}
	if len(errs) > 0 {
		return Score{}, errors.Join(errs...)
	}
	if len(score.Tasks) == 0 {
		return Score{}, errors.New("no tasks in the solutions")
	}
	score.Total /= float64(len(score.Tasks))
	return score, nil
}
