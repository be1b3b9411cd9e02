// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package larc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Task ids of the committed annotation: 0520fde7 is translate, 017c7c7b rotate, 007bbfb7 none.
const (
	idTranslate = "0520fde7"
	idRotate    = "017c7c7b"
	idNone      = "007bbfb7"
	idTrain     = "1190e5a7" // in LARC's training split here
)

// writeData writes a data directory: ARC tasks (small translations, whatever the annotation says) and a
// LARC summary whose test split holds the translate, rotate and none tasks, all described, and whose
// training split holds one more task with two descriptions.
func writeData(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	arcDir := filepath.Join(data, "arc", "training")
	larcDir := filepath.Join(data, "larc")
	for _, d := range []string{arcDir, larcDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pair := func(k int) map[string]any {
		in := datasets.NewGrid(3, 3, 0)
		in[k%3][k%2] = 1 + k%5
		out := datasets.NewGrid(3, 3, 0)
		for i := range 3 {
			for j := range 3 {
				out[i][(j+1)%3] = in[i][j]
			}
		}
		return map[string]any{"input": in, "output": out}
	}
	for _, id := range []string{idTranslate, idRotate, idNone, idTrain} {
		raw, _ := json.Marshal(map[string]any{"train": []any{pair(0), pair(1), pair(2)}, "test": []any{pair(3)}})
		if err := os.WriteFile(filepath.Join(arcDir, id+".json"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"task.csv": fmt.Sprintf("task_id,task_name\n0,%s.json\n1,%s.json\n2,%s.json\n3,%s.json\n", idTranslate, idRotate, idNone, idTrain),
		"description.csv": `description_id,description_input,description_output_grid_size,description_output,is_verified
d1,"In the input, you should see...a red dot",The output grid size...is the same,"To make the output, you have to...move it right",True
d2,"In the input, you should see...a shape",The output grid size...is the same,"To make the output, you have to...rotate it",True
d3,"In the input, you should see...a grid",The output grid size...is bigger,"To make the output, you have to...tile it",True
d4,"In the input, you should see...a small grid",The output grid size...is three times bigger,"To make the output, you have to...scale it up",True
d5,"In the input, you should see...tiles",The output grid size...triples,"To make the output, you have to...grow each cell",False
`,
		"build.csv": "build_id,is_success\nb1,True\n",
		"join.csv":  "task_id,description_id,build_id\n0,d1,b1\n1,d2,\n2,d3,\n3,d4,\n3,d5,\n",
		"train_test_split.json": fmt.Sprintf(`{"train": ["%s.json"], "test": ["%s.json", "%s.json", "%s.json"]}`,
			idTrain, idTranslate, idRotate, idNone),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(larcDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// recorder is a text encoder that returns a vector per text and records what it was asked.
type recorder struct {
	name  string
	texts []string
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) Dim() int     { return 3 }
func (r *recorder) Embed(texts []string) ([][]float32, error) {
	r.texts = append(r.texts, texts...)
	out := make([][]float32, len(texts))
	for i, text := range texts {
		out[i] = []float32{float32(len(text)), 1, -1}
	}
	return out, nil
}

// TestSelectTasks checks the selection: LARC's test split, annotated geometric, described; the
// training split's descriptions as the stand-in's corpus; unknown ids are an error.
func TestSelectTasks(t *testing.T) {
	data := writeData(t)
	sel, err := SelectTasks(Options{DataDir: data, Conditions: []string{ConditionIO}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, task := range sel.Tasks {
		ids = append(ids, task.ID+":"+string(task.Category)+":"+task.Description.ID)
	}
	if want := []string{idRotate + ":rotate:d2", idTranslate + ":translate:d1"}; !slices.Equal(ids, want) {
		t.Errorf("selected %v, want %v", ids, want)
	}
	if len(sel.TrainDescriptions) != 2 || !strings.Contains(strings.Join(sel.TrainDescriptions, "|"), "scale it up") {
		t.Errorf("training descriptions %q", sel.TrainDescriptions)
	}
	if sel, err := SelectTasks(Options{DataDir: data, Conditions: []string{ConditionIO}, Category: "rotate"}); err != nil || len(sel.Tasks) != 1 {
		t.Errorf("category rotate: %d tasks, %v", len(sel.Tasks), err)
	}
	if _, err := SelectTasks(Options{DataDir: data, Conditions: []string{ConditionIO}, Tasks: []string{idNone}}); err == nil || !strings.Contains(err.Error(), idNone) {
		t.Errorf("a task outside the selection: %v", err)
	}
	for _, o := range []Options{{Conditions: []string{"text"}}, {Conditions: []string{ConditionNL}}, {Resume: true, Force: true, Conditions: []string{ConditionIO}},
		{Category: "spin", Conditions: []string{ConditionIO}}} {
		o.DataDir = data
		if _, err := SelectTasks(o); err == nil {
			t.Errorf("%+v: want an error", o)
		}
	}
}

// TestRun runs both conditions on the two tasks (short training): the encoder is asked once for the
// two descriptions, the CSV has a row per task and condition with the encoder on the nl rows, a resume
// runs nothing, a resume with another encoder is an error, and the table has the paper's rows and ours.
func TestRun(t *testing.T) {
	data := writeData(t)
	out := filepath.Join(t.TempDir(), "larc.csv")
	enc := &recorder{name: "rec"}
	o := Options{DataDir: data, NewBackend: backend.New, Encoder: enc, Steps: 20, Settings: hparams.Settings{{Key: latformer.ParamAugment, Value: 1}, {Key: latformer.ParamRestarts, Value: 1}}, Out: out}
	outcome, err := Run(o, Report{})
	if err != nil {
		t.Fatal(err)
	}
	if len(enc.texts) != 2 || !strings.Contains(enc.texts[0], "rotate it") || !strings.Contains(enc.texts[1], "move it right") {
		t.Errorf("encoded %q, want the two tasks' descriptions", enc.texts)
	}
	rows, err := ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for _, r := range rows {
		got[r.key()] = r
	}
	for _, id := range []string{idTranslate, idRotate} {
		io, nl := got[id+"|"+ConditionIO], got[id+"|"+ConditionNL]
		if io.ID == "" || nl.ID == "" || io.Encoder != "" || nl.Encoder != "rec" || nl.TestTotal != 1 || nl.Steps < 1 || nl.Steps > 20 {
			t.Errorf("task %s: rows %+v and %+v", id, io, nl)
		}
	}
	if len(rows) != 4 || len(outcome.Results) != 4 {
		t.Errorf("%d rows, %d results, want 4", len(rows), len(outcome.Results))
	}
	o.Resume = true
	again, err := Run(o, Report{Start: func(info RunInfo) {
		if info.Done != 4 || info.Units != 4 {
			t.Errorf("resume: %d of %d done, want 4 of 4", info.Done, info.Units)
		}
	}})
	if err != nil || len(again.Results) != 4 {
		t.Errorf("resume: %d results, %v", len(again.Results), err)
	}
	o.Encoder = &recorder{name: "other"}
	if _, err := Run(o, Report{}); err == nil || !strings.Contains(err.Error(), "encoder rec") {
		t.Errorf("resume with another encoder: %v", err)
	}
	var b bytes.Buffer
	WriteTable(&b, Summarize(rows, []string{ConditionIO, ConditionNL}))
	for _, want := range []string{"paper: LatFormer + NL", "ours: LatFormer + NL (rec)", "/1)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestReadResultsTruncated checks that a cut last line is reported by its number and its row dropped,
// and that a resumed run rewrites the file and runs that row again.
func TestReadResultsTruncated(t *testing.T) {
	data := writeData(t)
	out := filepath.Join(t.TempDir(), "larc.csv")
	o := Options{DataDir: data, NewBackend: backend.New, Conditions: []string{ConditionIO}, Steps: 5, Settings: hparams.Settings{{Key: latformer.ParamAugment, Value: 1}, {Key: latformer.ParamRestarts, Value: 1}}, Out: out}
	if _, err := Run(o, Report{}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(out)
	if err := os.WriteFile(out, raw[:len(raw)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadResults(out)
	if err == nil || len(rows) != 1 {
		t.Fatalf("cut file: %d rows, error %v; want 1 row and an error", len(rows), err)
	}
	o.Resume = true
	reported := false
	outcome, err := Run(o, Report{Error: func(err error) { reported = strings.Contains(err.Error(), "line 3") }})
	if err != nil || !reported || len(outcome.Results) != 2 {
		t.Errorf("resume of a cut file: %d results, reported %v, %v", len(outcome.Results), reported, err)
	}
	if rows, err := ReadResults(out); err != nil || len(rows) != 2 {
		t.Errorf("after the resume: %d rows, %v", len(rows), err)
	}
}
