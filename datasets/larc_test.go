// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// larcTestFiles is a tiny LARC directory: task 0 (aaaa) has three descriptions, task 1 (bbbb) one
// unverified, task 2 (cccc) none; dddd is only in the split file. Description d1 has multi-line quoted
// fields with commas and quotes, and description.csv repeats the num_actions column as the real one does.
var larcTestFiles = map[string]string{
	"task.csv": `task_id,task_name,number_of_examples
0,aaaa.json,3
1,bbbb.json,2
2,cccc.json,4
`,
	"description.csv": `description_id,user_id,description_input,description_output_grid_size,description_output,is_verified,confidence,num_actions,num_actions
d1,u1,"In the input, you should see...a 3x3 grid,
with ""two"" colors",The output grid size...is 9x9,"To make the output, you have to...tile
the input",False,,3.0,3.0
d2,u2,"In the input, you should see... a red square",The output grid size...stays the same,"To make the output, you have to...paint it blue.",True,7,1.0,1.0
d3,u3,"In the input, you should see...dots",The output grid size...is the same,"To make the output, you have to...connect them",True,10,2.0,2.0
d4,u4,a grid,,"To make the output, you have to...",False,,0,0
`,
	"build.csv": `build_id,user_id,is_success,num_attempts
b1,x,True,1
b2,x,True,2
b3,x,False,3
b4,x,True,1
b5,x,False,3
b6,x,True,1
`,
	"join.csv": `task_id,description_id,build_id
0,d1,b1
0,d1,b2
0,d1,b3
0,d2,b4
0,d2,b5
0,d3,b6
0,d3,
1,d4,
`,
	"train_test_split.json": `{"train": ["aaaa.json", "cccc.json"], "test": ["bbbb.json", "dddd.json"], "note": []}`,
}

func larcTestDir(t *testing.T, replace map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range larcTestFiles {
		if c, ok := replace[name]; ok {
			if c == "" {
				continue
			}
			content = c
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadLARCSynthetic(t *testing.T) {
	tasks, err := LoadLARC(larcTestDir(t, nil))
	if err != nil {
		t.Fatalf("LoadLARC: %v", err)
	}
	if len(tasks) != 4 {
		t.Fatalf("got %d tasks, want 4 (aaaa, bbbb, cccc from task.csv, dddd from the split)", len(tasks))
	}
	for id, want := range map[string]struct {
		split string
		descs int
	}{"aaaa": {"train", 3}, "bbbb": {"test", 1}, "cccc": {"train", 0}, "dddd": {"test", 0}} {
		task := tasks[id]
		if task == nil || task.ARCID != id || task.Split != want.split || len(task.Descriptions) != want.descs {
			t.Errorf("task %s = %+v, want split %q and %d descriptions", id, task, want.split, want.descs)
		}
	}
	a := tasks["aaaa"]
	want := []LARCDescription{
		{ID: "d1", See: "a 3x3 grid,\nwith \"two\" colors", GridSize: "is 9x9", Do: "tile\nthe input", Verified: false, Builds: 3, SuccessfulBuilds: 2},
		{ID: "d2", See: "a red square", GridSize: "stays the same", Do: "paint it blue.", Verified: true, Builds: 2, SuccessfulBuilds: 1},
		{ID: "d3", See: "dots", GridSize: "is the same", Do: "connect them", Verified: true, Builds: 1, SuccessfulBuilds: 1},
	}
	for i, w := range want {
		if a.Descriptions[i] != w {
			t.Errorf("aaaa description %d = %+v, want %+v", i, a.Descriptions[i], w)
		}
	}
	// Verified beats more successful builds; among verified ones with 1 success each, the first wins.
	if best, ok := a.BestDescription(); !ok || best.ID != "d2" {
		t.Errorf("aaaa best description %q, %v; want d2", best.ID, ok)
	}
	if got, want := a.Descriptions[1].Text(), "In the input, you should see a red square. The output grid size stays the same. To make the output, you have to paint it blue."; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	// A text without its prompt is kept whole; an empty part is left out.
	b := tasks["bbbb"]
	best, ok := b.BestDescription()
	if !ok || best.ID != "d4" || best.See != "a grid" || best.GridSize != "" || best.Do != "" || best.Builds != 0 {
		t.Errorf("bbbb best = %+v, %v; want d4 with See \"a grid\" and nothing else", best, ok)
	}
	if got, want := best.Text(), "In the input, you should see a grid."; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	if _, ok := tasks["cccc"].BestDescription(); ok {
		t.Error("cccc has no description but BestDescription returned ok")
	}
}

func TestLARCBestDescription(t *testing.T) {
	d := func(id string, verified bool, success int) LARCDescription {
		return LARCDescription{ID: id, Verified: verified, SuccessfulBuilds: success, Builds: success + 1}
	}
	cases := []struct {
		name  string
		descs []LARCDescription
		want  string
	}{
		{"verified with most successes", []LARCDescription{d("a", true, 1), d("b", false, 5), d("c", true, 2), d("d", true, 0)}, "c"},
		{"tie among verified: first", []LARCDescription{d("a", false, 3), d("b", true, 2), d("c", true, 2)}, "b"},
		{"none verified: most successes", []LARCDescription{d("a", false, 0), d("b", false, 4), d("c", false, 4)}, "b"},
		{"single unverified without builds", []LARCDescription{d("a", false, 0)}, "a"},
		{"none", nil, ""},
	}
	for _, c := range cases {
		best, ok := LARCTask{ARCID: "x", Descriptions: c.descs}.BestDescription()
		if ok != (c.want != "") || best.ID != c.want {
			t.Errorf("%s: best %q, ok %v; want %q", c.name, best.ID, ok, c.want)
		}
	}
}

func TestLoadLARCErrors(t *testing.T) {
	cases := []struct {
		name    string
		replace map[string]string
		want    []string
	}{
		{"missing file", map[string]string{"build.csv": ""}, []string{"build.csv", "no such file"}},
		{"missing split file", map[string]string{"train_test_split.json": ""}, []string{"train_test_split.json"}},
		{"missing column", map[string]string{"task.csv": "task_id,name\n0,aaaa.json\n"}, []string{"task.csv:1", `no column "task_name"`}},
		{"empty file", map[string]string{"join.csv": " "}, []string{"join.csv"}},
		{"unknown description", map[string]string{"join.csv": "task_id,description_id,build_id\n0,d1,b1\n0,zz,\n"}, []string{"join.csv:3", `description_id "zz" is not in description.csv`}},
		{"unknown task", map[string]string{"join.csv": "task_id,description_id,build_id\n7,d1,b1\n"}, []string{"join.csv:2", `task_id "7" is not in task.csv`}},
		{"unknown build", map[string]string{"join.csv": "task_id,description_id,build_id\n0,d1,b9\n"}, []string{"join.csv:2", `build_id "b9" is not in build.csv`}},
		{"bad boolean", map[string]string{"build.csv": "build_id,is_success\nb1,True\nb2,maybe\n"}, []string{"build.csv:3", "is_success", `"maybe" is not a boolean`}},
		{"wrong field count", map[string]string{"task.csv": "task_id,task_name\n0,aaaa.json\n1,bbbb.json,extra\n"}, []string{"task.csv", "line 3", "wrong number of fields"}},
		{"bad quote", map[string]string{"task.csv": "task_id,task_name\n0,\"aaaa.json\n"}, []string{"task.csv", "line 2"}},
		{"line after a multi-line record", map[string]string{"description.csv": "description_id,description_input,description_output_grid_size,description_output,is_verified\nd1,\"a\nb\nc\",b,c,True\nd2,a,b,c,yes\n"}, []string{"description.csv:5", "is_verified", `"yes" is not a boolean`}},
		{"duplicate description", map[string]string{"description.csv": "description_id,description_input,description_output_grid_size,description_output,is_verified\nd1,a,b,c,True\nd1,a,b,c,True\n"}, []string{"description.csv:3", "duplicate description_id d1"}},
		{"task in both splits", map[string]string{"train_test_split.json": `{"train": ["aaaa.json"], "test": ["aaaa.json"]}`}, []string{"train_test_split.json", "aaaa.json is in both"}},
		{"split not JSON", map[string]string{"train_test_split.json": `{"train": "aaaa"}`}, []string{"train_test_split.json"}},
	}
	for _, c := range cases {
		_, err := LoadLARC(larcTestDir(t, c.replace))
		if err == nil {
			t.Errorf("%s: LoadLARC succeeded", c.name)
			continue
		}
		t.Logf("%s: %v", c.name, err)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
}

func TestLARCDir(t *testing.T) {
	root := t.TempDir()
	if _, err := LARCDir(root); err == nil {
		t.Error("LARCDir found a missing larc directory")
	}
	if err := os.Mkdir(filepath.Join(root, "larc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := LARCDir(root); err != nil || got != filepath.Join(root, "larc") {
		t.Errorf("LARCDir = %q, %v", got, err)
	}
}

func TestLoadLARCReal(t *testing.T) {
	dataDir, err := DataDir("")
	if err != nil {
		t.Skipf("no data directory: %v", err)
	}
	dir, err := LARCDir(dataDir)
	if err != nil {
		t.Skipf("no LARC directory: %v", err)
	}
	tasks, err := LoadLARC(dir)
	if err != nil {
		t.Fatalf("LoadLARC(%s): %v", dir, err)
	}
	var described, withVerified, withSuccess, descs, verified, builds, successes int
	splits := map[string]int{}
	for _, task := range tasks {
		splits[task.Split]++
		if len(task.Descriptions) > 0 {
			described++
		}
		hasVerified, hasSuccess := false, false
		for _, d := range task.Descriptions {
			descs++
			builds += d.Builds
			successes += d.SuccessfulBuilds
			if d.Verified {
				verified++
				hasVerified = true
			}
			if d.SuccessfulBuilds > 0 {
				hasSuccess = true
			}
			if d.See == "" && d.GridSize == "" && d.Do == "" {
				t.Errorf("task %s description %s is empty", task.ARCID, d.ID)
			}
		}
		if hasVerified {
			withVerified++
		}
		if hasSuccess {
			withSuccess++
		}
	}
	t.Logf("LARC (%s): %d tasks, %d with descriptions, %d with a verified description, %d (%.1f%%) with a successful build; "+
		"%d descriptions (%d verified), %d builds (%d successful); split: %d train, %d test, %d neither",
		dir, len(tasks), described, withVerified, withSuccess, 100*float64(withSuccess)/float64(len(tasks)),
		descs, verified, builds, successes, splits["train"], splits["test"], splits[""])
	// The LARC summary: 400 training tasks, all described; the paper reports 88% of tasks communicated
	// successfully, this summary has a successful build for 364 (91%).
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"tasks", len(tasks), 400}, {"described tasks", described, 400}, {"tasks with a verified description", withVerified, 399},
		{"tasks with a successful build", withSuccess, 364}, {"descriptions", descs, 1659}, {"verified descriptions", verified, 1143},
		{"builds", builds, 1709}, {"successful builds", successes, 880}, {"train split", splits["train"], 200}, {"test split", splits["test"], 200},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}

	task := tasks["007bbfb7"]
	if task == nil {
		t.Fatal("no LARC task 007bbfb7")
	}
	best, ok := task.BestDescription()
	if !ok || !best.Verified || best.Do == "" || !strings.HasPrefix(best.Text(), "In the input, you should see ") {
		t.Errorf("007bbfb7 best description %+v, %v: want a verified one with text", best, ok)
	}
	t.Logf("007bbfb7 (%s split, %d descriptions) best: %q", task.Split, len(task.Descriptions), best.Text())

	// Every LARC task is an ARC training task, when those are here.
	if arcDir, err := ARCSplitDir(dataDir, "training"); err == nil {
		for id := range tasks {
			if _, err := os.Stat(filepath.Join(arcDir, id+".json")); err != nil {
				t.Errorf("LARC task %s is not in ARC training: %v", id, err)
			}
		}
	}
}
