// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

// Loading ARC tasks (Chollet, "On the Measure of Intelligence", 2019: the Abstraction and Reasoning
// Corpus) from their JSON files, and locating the data directory.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// EnvDataDir is the environment variable DataDir reads when no flag value is given: the directory that
// holds arc/training, arc/evaluation and larc/.
const EnvDataDir = "LATFORMER_DATA"

// ParseTask parses the JSON of one ARC task (Chollet 2019), as distributed in the ARC repository:
//
//	{"train": [{"input": [[...]], "output": [[...]]}, ...], "test": [{"input": ..., "output": ...}, ...]}
//
// into a Task with the given id. Every grid must be a non-empty rectangular list of rows of at most
// MaxGridSide x MaxGridSide integer colors 0..9 (integral numbers written as floats, like 1.0, are
// accepted; 1.5 is not). Train pairs need both "input" and "output"; a test pair without "output" (or with
// "output": null) is accepted as prediction-only and gets a nil Output. The train list must be non-empty;
// the test list may be empty but the key must be there. Unknown keys are ignored.
//
// Errors start with the task id and say what is wrong and where, with 0-based pair indices, e.g.
// `task "x": not valid JSON (at byte offset 17): ...`, `task "x": missing "test" key`,
// `task "x": train pair 2 output: ragged grid: row 1 has 2 cells, row 0 has 3` (grid errors wrap
// Grid.Validate's). ParseTask never panics, whatever the input.
func ParseTask(id string, data []byte) (Task, error) {
	task, err := parseARCTask(id, data)
	if err != nil {
		return Task{}, fmt.Errorf("task %q: %w", id, err)
	}
	return task, nil
}

func parseARCTask(id string, data []byte) (Task, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var syntaxErr *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntaxErr):
			return Task{}, fmt.Errorf("not valid JSON (at byte offset %d): %w", syntaxErr.Offset, err)
		case errors.As(err, &typeErr):
			return Task{}, fmt.Errorf("task JSON is not an object (at byte offset %d): %w", typeErr.Offset, err)
		default:
			return Task{}, fmt.Errorf("not valid JSON: %w", err)
		}
	}
	if top == nil {
		return Task{}, fmt.Errorf("task JSON is null, want an object with \"train\" and \"test\" keys")
	}
	task := Task{ID: id}
	var err error
	for _, split := range []string{"train", "test"} {
		raw, ok := top[split]
		if !ok {
			return Task{}, fmt.Errorf("missing %q key", split)
		}
		var pairs []Pair
		if pairs, err = parseARCPairs(split, raw); err != nil {
			return Task{}, err
		}
		if split == "train" {
			task.Train = pairs
		} else {
			task.Test = pairs
		}
	}
	if len(task.Train) == 0 {
		return Task{}, fmt.Errorf("empty train list: a task needs at least one train pair")
	}
	return task, nil
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// parseARCPairs parses the list of pairs of one split ("train" or "test").
func parseARCPairs(split string, raw json.RawMessage) ([]Pair, error) {
	if isJSONNull(raw) {
		return nil, fmt.Errorf("%q is null, want a list of pairs", split)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%q is not a list of pairs: %w", split, err)
	}
	pairs := make([]Pair, 0, len(list))
	for i, rawPair := range list {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(rawPair, &fields); err != nil || fields == nil {
			return nil, fmt.Errorf("%s pair %d is not an object with \"input\" and \"output\"", split, i)
		}
		var pair Pair
		for _, key := range []string{"input", "output"} {
			rawGrid, ok := fields[key]
			if !ok || isJSONNull(rawGrid) {
				if key == "output" && split == "test" {
					continue // Prediction-only test pair.
				}
				return nil, fmt.Errorf("%s pair %d has no %q", split, i, key)
			}
			g, err := parseARCGrid(rawGrid)
			if err != nil {
				return nil, fmt.Errorf("%s pair %d %s: %w", split, i, key, err)
			}
			if key == "input" {
				pair.Input = g
			} else {
				pair.Output = g
			}
		}
		pairs = append(pairs, pair)
	}
	return pairs, nil
}

// parseARCGrid parses a list of lists of colors and validates it with Grid.Validate.
func parseARCGrid(raw json.RawMessage) (Grid, error) {
	var rows [][]json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, fmt.Errorf("not a list of rows of colors: %w", err)
	}
	g := make(Grid, len(rows))
	for i, row := range rows {
		g[i] = make([]int, len(row))
		for j, cell := range row {
			v, err := parseARCColor(cell)
			if err != nil {
				return nil, fmt.Errorf("cell (%d,%d) %w", i, j, err)
			}
			g[i][j] = v
		}
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// parseARCColor parses one cell: an integer 0..9 (an integral float like 1.0 is accepted). The error
// completes "cell (i,j) ...".
func parseARCColor(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		if len(s) > 20 {
			s = s[:20] + "..."
		}
		return 0, fmt.Errorf("is %s, not a number: colors must be integers 0..9", s)
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		if v < 0 || v >= NumColors {
			return 0, fmt.Errorf("has value %d, colors must be 0..9", v)
		}
		return int(v), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("is %q, not a number: colors must be integers 0..9", s)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return 0, fmt.Errorf("has value %s, not an integer: colors must be integers 0..9", s)
	}
	if f < 0 || f >= NumColors {
		return 0, fmt.Errorf("has value %s, colors must be 0..9", s)
	}
	return int(f), nil
}

// LoadTask reads and parses one ARC task file (see ParseTask). The task id is the file's base name
// without the ".json" extension. Errors (unreadable file, or any ParseTask error) include the path.
func LoadTask(path string) (Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Task{}, fmt.Errorf("loading ARC task: %w", err)
	}
	id := strings.TrimSuffix(filepath.Base(path), ".json")
	task, err := ParseTask(id, data)
	if err != nil {
		return Task{}, fmt.Errorf("loading ARC task %s: %w", path, err)
	}
	return task, nil
}

// LoadDir loads every *.json file of dir (not recursing into subdirectories) as an ARC task, sorted by
// id; for the ARC training split that is 400 tasks. Bad files do not stop it: it returns all the tasks
// that loaded together with an error that lists every bad file and why (an errors.Join of one error per
// file), so that nothing is silently lost. It also returns an error if dir cannot be read or holds no
// .json file.
func LoadDir(dir string) ([]Task, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("loading ARC tasks: %w", err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("loading ARC tasks: no .json task files in %s", dir)
	}
	sort.Strings(names) // Sorted names are sorted ids: all end in ".json".
	tasks := make([]Task, 0, len(names))
	var errs []error
	for _, name := range names {
		task, err := LoadTask(filepath.Join(dir, name))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tasks = append(tasks, task)
	}
	if len(errs) > 0 {
		return tasks, fmt.Errorf("%d of %d ARC task files in %s are bad:\n%w", len(errs), len(names), dir,
			errors.Join(errs...))
	}
	return tasks, nil
}

// LoadTasks loads the ARC tasks of dir with the given ids (with or without the ".json" extension), in
// the order given. It returns the tasks that loaded with an error that names every id that is missing
// from dir (or is not a plain file name) and every file that does not parse.
func LoadTasks(dir string, ids []string) ([]Task, error) {
	tasks := make([]Task, 0, len(ids))
	var missing []string
	var errs []error
	for _, id := range ids {
		id = strings.TrimSuffix(id, ".json")
		if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`) {
			errs = append(errs, fmt.Errorf("invalid ARC task id %q", id))
			continue
		}
		task, err := LoadTask(filepath.Join(dir, id+".json"))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tasks = append(tasks, task)
	}
	if len(missing) > 0 {
		errs = append([]error{fmt.Errorf("%d ARC tasks not found in %s: %s", len(missing), dir,
			strings.Join(missing, ", "))}, errs...)
	}
	return tasks, errors.Join(errs...)
}

// DefaultDataDir is the data directory DataDir falls back to, relative to the working directory: the
// directory `latformer download` fills when neither a flag nor $LATFORMER_DATA names another.
const DefaultDataDir = "data"

// DataDir resolves the data directory (the one holding arc/ and larc/): flagValue if non-empty, else
// $LATFORMER_DATA (EnvDataDir) if set, else DefaultDataDir (./data) when it exists. The flag and
// environment values are returned as given, without checking that they exist (the download command
// creates them). The error, when none is found, says both ways to provide one: `latformer download`
// (which fills ./data) or $LATFORMER_DATA (or the -data flag) naming a directory that holds arc/training.
func DataDir(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if env := os.Getenv(EnvDataDir); env != "" {
		return env, nil
	}
	if info, err := os.Stat(DefaultDataDir); err == nil && info.IsDir() {
		return DefaultDataDir, nil
	}
	return "", fmt.Errorf("no data directory: run `latformer download` to fill ./%s with ARC (needs internet), "+
		"or set $%s (or pass -data) to a directory that holds arc/training", DefaultDataDir, EnvDataDir)
}

// ARCSplitDir returns <dataDir>/arc/<split>, the directory of the ARC split "training" or "evaluation"
// (400 tasks each in ARC-AGI-1). It returns an error for any other split, or when the directory is
// missing, naming both ways to fix it: `latformer download` or $LATFORMER_DATA naming another directory.
func ARCSplitDir(dataDir, split string) (string, error) {
	if split != "training" && split != "evaluation" {
		return "", fmt.Errorf("unknown ARC split %q, want \"training\" or \"evaluation\"", split)
	}
	dir := filepath.Join(dataDir, "arc", split)
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("no ARC %s split in the data directory %s (%w): "+
			"run `latformer download --data %s` to fetch ARC (needs internet), "+
			"or set $%s (or pass -data) to a directory that holds arc/%s",
			split, dataDir, err, dataDir, EnvDataDir, split)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("ARC %s split: %s is not a directory", split, dir)
	}
	return dir, nil
}

// TaskCanvas returns the canvas side a task is solved on (experiments/arc, the lattice search): the
// largest side among its training grids (inputs and outputs), its test inputs, and the test outputs'
// expected sides (the test input's sides times the largest output/input size ratio seen in training, for
// scaling tasks), capped at 30. Test
// outputs themselves are unknown to the learner. A square canvas keeps the rotation expert available.
func TaskCanvas(task Task) int {
	side := 1
	ratio := 1.0
	for _, p := range task.Train {
		side = max(side, p.Input.Rows(), p.Input.Cols(), p.Output.Rows(), p.Output.Cols())
		if p.Input.Rows() > 0 && p.Input.Cols() > 0 {
			ratio = max(ratio, float64(p.Output.Rows())/float64(p.Input.Rows()),
				float64(p.Output.Cols())/float64(p.Input.Cols()))
		}
	}
	for _, p := range task.Test {
		side = max(side, p.Input.Rows(), p.Input.Cols())
		side = max(side, int(math.Ceil(ratio*float64(max(p.Input.Rows(), p.Input.Cols())))))
	}
	return min(side, MaxGridSide)
}
