// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

// The Language-complemented ARC (LARC, Acquaviva et al., "Communicating Natural Programs to Humans and
// Machines", NeurIPS 2022 Datasets and Benchmarks, arXiv 2106.07824, 2021): natural-language descriptions
// of the 400 ARC training tasks written by one participant and tested by others who had to build the
// output from the description alone.

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// LARC description prompts: each description is three sentences completing these fixed openings.
const (
	larcSeePrompt  = "In the input, you should see"
	larcSizePrompt = "The output grid size"
	larcDoPrompt   = "To make the output, you have to"
)

// LARCDescription is one natural-language description of an ARC task in LARC (Acquaviva et al. 2021).
// See, GridSize and Do are what the describer wrote after the three fixed prompts "In the input, you
// should see...", "The output grid size..." and "To make the output, you have to..." (prompt and leading
// dots removed; a text that does not start with its prompt is kept whole).
type LARCDescription struct {
	// ID is the description_id of description.csv.
	ID string
	// See, GridSize and Do are the three parts of the description.
	See, GridSize, Do string
	// Verified is description.csv's is_verified: the describer could build the output from their own
	// description.
	Verified bool
	// Builds is the number of attempts by other participants to build the test output from this
	// description, and SuccessfulBuilds the number that succeeded.
	Builds, SuccessfulBuilds int
}

// LARCTask gathers the LARC descriptions of one ARC task.
type LARCTask struct {
	// ARCID is the ARC task id, the file name without ".json" (e.g. "007bbfb7").
	ARCID string
	// Descriptions in the order of join.csv.
	Descriptions []LARCDescription
	// Split is the task's split in LARC's train_test_split.json: "train", "test", or "" if in neither.
	Split string
}

// Text returns the description's three phrases joined as one sentence for a text encoder, each part
// after its prompt, e.g. "In the input, you should see a 3x3 grid. The output grid size is 9x9. To make
// the output, you have to repeat the input." Empty parts are left out; a part that does not end with
// '.', '!' or '?' gets a period.
func (d LARCDescription) Text() string {
	var parts []string
	for _, p := range []struct{ prompt, text string }{{larcSeePrompt, d.See}, {larcSizePrompt, d.GridSize},
		{larcDoPrompt, d.Do}} {
		text := strings.TrimSpace(p.text)
		if text == "" {
			continue
		}
		if !strings.HasSuffix(text, ".") && !strings.HasSuffix(text, "!") && !strings.HasSuffix(text, "?") {
			text += "."
		}
		parts = append(parts, p.prompt+" "+text)
	}
	return strings.Join(parts, " ")
}

// BestDescription returns the task's best description: the verified description with the most
// successful builds (on ties, the first), or, if none is verified, the description with the most
// successful builds (on ties, the first). ok is false if the task has no description.
func (t LARCTask) BestDescription() (LARCDescription, bool) {
	best := -1
	for i, d := range t.Descriptions {
		if best < 0 {
			best = i
			continue
		}
		b := t.Descriptions[best]
		if (d.Verified && !b.Verified) || (d.Verified == b.Verified && d.SuccessfulBuilds > b.SuccessfulBuilds) {
			best = i
		}
	}
	if best < 0 {
		return LARCDescription{}, false
	}
	return t.Descriptions[best], true
}

// LARCDir returns <dataDir>/larc, the directory of the LARC summary files LoadLARC reads, or an error if
// it is not a directory.
func LARCDir(dataDir string) (string, error) {
	dir := filepath.Join(dataDir, "larc")
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("no LARC summary in the data directory %s (%w): put the samacqua/LARC summary files "+
			"(task.csv, join.csv, description.csv, build.csv, train_test_split.json) in %s, "+
			"or set $%s (or pass -data) to a directory that holds larc/", dataDir, err, dir, EnvDataDir)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("LARC: %s is not a directory", dir)
	}
	return dir, nil
}

// LoadLARC loads the LARC summary of dir (Acquaviva et al. 2021) joined to ARC task ids: task.csv
// (task_id, task_name), join.csv (task_id, description_id, build_id; one row per build, an empty
// build_id for a description nobody built), description.csv (description_id, description_input,
// description_output_grid_size, description_output, is_verified), build.csv (build_id, is_success) and
// train_test_split.json ({"train": [names], "test": [names]}). Columns are found by header name; other
// columns are ignored. The result is keyed by ARC id ("007bbfb7"); every task of task.csv or of the split
// is there, with no descriptions if LARC has none.
//
// Errors name the file and, for CSV files, the line: a missing file or column, a malformed CSV record, a
// bad boolean, a duplicate id, a join row naming an unknown task, description or build, or a task in both
// splits.
func LoadLARC(dir string) (map[string]*LARCTask, error) {
	taskRows, err := readLARCCSV(dir, "task.csv", "task_id", "task_name")
	if err != nil {
		return nil, err
	}
	descRows, err := readLARCCSV(dir, "description.csv", "description_id", "description_input",
		"description_output_grid_size", "description_output", "is_verified")
	if err != nil {
		return nil, err
	}
	buildRows, err := readLARCCSV(dir, "build.csv", "build_id", "is_success")
	if err != nil {
		return nil, err
	}
	joinRows, err := readLARCCSV(dir, "join.csv", "task_id", "description_id", "build_id")
	if err != nil {
		return nil, err
	}

	tasks, byTaskID, err := larcTasks(taskRows)
	if err != nil {
		return nil, err
	}
	descs, err := larcDescriptions(descRows)
	if err != nil {
		return nil, err
	}
	builds, err := larcBuilds(buildRows)
	if err != nil {
		return nil, err
	}
	if err := joinLARC(joinRows, byTaskID, descs, builds); err != nil {
		return nil, err
	}
	if err := loadLARCSplit(dir, tasks); err != nil {
		return nil, err
	}
	return tasks, nil
}

// loadLARCSplit sets the Split of the tasks from train_test_split.json, adding the tasks it names that
// task.csv lacks.
func loadLARCSplit(dir string, tasks map[string]*LARCTask) error {
	p := filepath.Join(dir, "train_test_split.json")
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("LARC: %w", err)
	}
	var split map[string][]string
	if err := json.Unmarshal(data, &split); err != nil {
		return fmt.Errorf("LARC %s: want {\"train\": [task names], \"test\": [task names]}: %w", p, err)
	}
	for _, name := range []string{"train", "test"} {
		for _, taskName := range split[name] {
			arcID := strings.TrimSuffix(taskName, ".json")
			if arcID == "" {
				return fmt.Errorf("LARC %s: empty task name in %q", p, name)
			}
			t, ok := tasks[arcID]
			if !ok {
				t = &LARCTask{ARCID: arcID}
				tasks[arcID] = t
			}
			if t.Split != "" && t.Split != name {
				return fmt.Errorf("LARC %s: task %s is in both %q and %q", p, taskName, t.Split, name)
			}
			t.Split = name
		}
	}
	return nil
}

// trimLARCPrompt removes the fixed prompt and the dots and spaces after it; text without the prompt
// is only trimmed of spaces.
func trimLARCPrompt(text, prompt string) string {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, prompt); ok {
		return strings.TrimSpace(strings.TrimLeft(rest, ". \t\r\n…"))
	}
	return text
}

func parseLARCBool(s string) (bool, error) {
	switch strings.TrimSpace(s) {
	case "True", "true", "TRUE", "1":
		return true, nil
	case "False", "false", "FALSE", "0", "":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean", s)
}

// larcRecord is one CSV record: the requested columns and where it was read.
type larcRecord struct {
	file   string
	line   int
	fields []string
}

func (r larcRecord) errorf(format string, args ...any) error {
	return fmt.Errorf("LARC %s:%d: %s", r.file, r.line, fmt.Sprintf(format, args...))
}

// readLARCCSV reads dir/name and returns, for each record, the columns named (the first column of
// that name in the header), with the line the record starts on.
func readLARCCSV(dir, name string, columns ...string) ([]larcRecord, error) {
	p := filepath.Join(dir, name)
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("LARC: %w", err)
	}
	defer func() { _ = f.Close() }()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("LARC %s: empty file, want a header with %s", p, strings.Join(columns, ", "))
		}
		return nil, fmt.Errorf("LARC %s: %w", p, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff") // A UTF-8 byte order mark.
	}
	index := make([]int, len(columns))
	for i, c := range columns {
		index[i] = -1
		for j, h := range header {
			if strings.TrimSpace(h) == c {
				index[i] = j
				break
			}
		}
		if index[i] < 0 {
			return nil, fmt.Errorf("LARC %s:1: no column %q in header %q", p, c, strings.Join(header, ","))
		}
	}
	var records []larcRecord
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// csv.ParseError already says "record on line N".
			return nil, fmt.Errorf("LARC %s: %w", p, err)
		}
		line, _ := r.FieldPos(0)
		fields := make([]string, len(columns))
		for i, j := range index {
			fields[i] = rec[j]
		}
		records = append(records, larcRecord{file: p, line: line, fields: fields})
	}
	return records, nil
}

// larcTasks reads task.csv's rows: the tasks keyed by ARC id and by LARC's task_id.
func larcTasks(rows []larcRecord) (tasks, byTaskID map[string]*LARCTask, err error) {
	tasks, byTaskID = map[string]*LARCTask{}, map[string]*LARCTask{}
	for _, r := range rows {
		taskID, name := r.fields[0], r.fields[1]
		arcID := strings.TrimSuffix(name, ".json")
		if taskID == "" || arcID == "" {
			return nil, nil, r.errorf("empty task_id or task_name")
		}
		if _, dup := byTaskID[taskID]; dup {
			return nil, nil, r.errorf("duplicate task_id %s", taskID)
		}
		if _, dup := tasks[arcID]; dup {
			return nil, nil, r.errorf("duplicate task_name %s", name)
		}
		t := &LARCTask{ARCID: arcID}
		tasks[arcID], byTaskID[taskID] = t, t
	}
	return tasks, byTaskID, nil
}

// larcDescriptions reads description.csv's rows, keyed by description_id, with the prompts LARC put in
// front of each field trimmed.
func larcDescriptions(rows []larcRecord) (map[string]*LARCDescription, error) {
	descs := map[string]*LARCDescription{}
	for _, r := range rows {
		id := r.fields[0]
		if id == "" {
			return nil, r.errorf("empty description_id")
		}
		if _, dup := descs[id]; dup {
			return nil, r.errorf("duplicate description_id %s", id)
		}
		verified, err := parseLARCBool(r.fields[4])
		if err != nil {
			return nil, r.errorf("is_verified: %v", err)
		}
		descs[id] = &LARCDescription{
			ID:       id,
			See:      trimLARCPrompt(r.fields[1], larcSeePrompt),
			GridSize: trimLARCPrompt(r.fields[2], larcSizePrompt),
			Do:       trimLARCPrompt(r.fields[3], larcDoPrompt),
			Verified: verified,
		}
	}
	return descs, nil
}

// larcBuilds reads build.csv's rows: is_success per build_id.
func larcBuilds(rows []larcRecord) (map[string]bool, error) {
	builds := map[string]bool{}
	for _, r := range rows {
		id := r.fields[0]
		if id == "" {
			return nil, r.errorf("empty build_id")
		}
		if _, dup := builds[id]; dup {
			return nil, r.errorf("duplicate build_id %s", id)
		}
		ok, err := parseLARCBool(r.fields[1])
		if err != nil {
			return nil, r.errorf("is_success: %v", err)
		}
		builds[id] = ok
	}
	return builds, nil
}

// joinLARC reads join.csv's rows: it gives each task its descriptions, in order of first appearance, and
// counts each description's builds and successful builds.
func joinLARC(
	rows []larcRecord, byTaskID map[string]*LARCTask, descs map[string]*LARCDescription, builds map[string]bool,
) error {
	descTask := map[string]*LARCTask{}
	seenBuild := map[string]bool{}
	var order []*LARCTask
	taskDescs := map[*LARCTask][]string{}
	for _, r := range rows {
		taskID, descID, buildID := r.fields[0], r.fields[1], r.fields[2]
		t, ok := byTaskID[taskID]
		if !ok {
			return r.errorf("task_id %q is not in task.csv", taskID)
		}
		d, ok := descs[descID]
		if !ok {
			return r.errorf("description_id %q is not in description.csv", descID)
		}
		if prev, ok := descTask[descID]; !ok {
			descTask[descID] = t
			if len(taskDescs[t]) == 0 {
				order = append(order, t)
			}
			taskDescs[t] = append(taskDescs[t], descID)
		} else if prev != t {
			return r.errorf("description %s belongs to tasks %s and %s", descID, prev.ARCID, t.ARCID)
		}
		if buildID == "" {
			continue
		}
		success, ok := builds[buildID]
		if !ok {
			return r.errorf("build_id %q is not in build.csv", buildID)
		}
		if seenBuild[buildID] {
			return r.errorf("build_id %q appears twice", buildID)
		}
		seenBuild[buildID] = true
		d.Builds++
		if success {
			d.SuccessfulBuilds++
		}
	}
	for _, t := range order {
		for _, id := range taskDescs[t] {
			t.Descriptions = append(t.Descriptions, *descs[id])
		}
	}
	return nil
}
