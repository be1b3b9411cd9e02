// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
)

// The fixture: a data directory with a few small tasks whose category under annotate.Task is known
// (random 5x5 grids, so that no other group fits by accident), a results CSV in the current format and
// one in the older format without predictions, and a file outside the data directory that no URL may
// ever read (canary).
const (
	idReflect   = "aaaa0001" // output = input upside down: reflect
	idRotate    = "bbbb0002" // output = input turned by 90°: rotate
	idTranslate = "cccc0003" // output = input moved one column right: translate
	idNone      = "dddd0004" // output = input with color 1 turned into 2: none
	idEval      = "eeee0005" // evaluation split, upside down: reflect
	canary      = "CANARY-secret-outside-the-data-directory"
)

type fixture struct {
	dir, data, labels string
	results, old      string
	tasks             map[string]datasets.Task
}

func gridFlip(x datasets.Grid) datasets.Grid {
	y := datasets.Grid{}
	for i := len(x) - 1; i >= 0; i-- {
		y = append(y, append([]int(nil), x[i]...))
	}
	return y
}

func gridRot(x datasets.Grid) datasets.Grid {
	n, m := len(x), len(x[0])
	y := make(datasets.Grid, m)
	for i := range m {
		y[i] = make([]int, n)
		for j := range n {
			y[i][j] = x[j][m-1-i]
		}
	}
	return y
}

func gridShift(x datasets.Grid) datasets.Grid {
	y := datasets.Grid{}
	for _, r := range x {
		y = append(y, append([]int{0}, r...))
	}
	return y
}

func gridRecolor(x datasets.Grid) datasets.Grid {
	y := x.Clone()
	for _, r := range y {
		for j := range r {
			if r[j] == 1 {
				r[j] = 2
			}
		}
	}
	return y
}

// writeTask writes a task of three train pairs and one test pair (output = f(input)) as ARC JSON.
func writeTask(t *testing.T, dir, id string, seed uint64, f func(datasets.Grid) datasets.Grid) datasets.Task {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	type pair struct {
		Input  [][]int `json:"input"`
		Output [][]int `json:"output"`
	}
	var doc struct {
		Train []pair `json:"train"`
		Test  []pair `json:"test"`
	}
	task := datasets.Task{ID: id}
	for i := range 4 {
		x := datasets.RandomGrid(rng, 5, 5)
		p := datasets.Pair{Input: x, Output: f(x)}
		if i < 3 {
			task.Train = append(task.Train, p)
			doc.Train = append(doc.Train, pair{x, p.Output})
		} else {
			task.Test = append(task.Test, p)
			doc.Test = append(doc.Test, pair{x, p.Output})
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return task
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir(), tasks: map[string]datasets.Task{}}
	fx.data = filepath.Join(fx.dir, "data")
	train, eval := filepath.Join(fx.data, "arc", "training"), filepath.Join(fx.data, "arc", "evaluation")
	for _, d := range []string{train, eval} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fx.tasks[idReflect] = writeTask(t, train, idReflect, 1, gridFlip)
	fx.tasks[idRotate] = writeTask(t, train, idRotate, 2, gridRot)
	fx.tasks[idTranslate] = writeTask(t, train, idTranslate, 3, gridShift)
	fx.tasks[idNone] = writeTask(t, train, idNone, 4, gridRecolor)
	fx.tasks[idEval] = writeTask(t, eval, idEval, 5, gridFlip)
	// Files the server must leave out: not JSON, a name that is not a task id, and a canary outside.
	for name, content := range map[string]string{
		filepath.Join(train, "ffff0006.json"):       "{not json",
		filepath.Join(train, "bad name.json"):       `{"train":[],"test":[]}`,
		filepath.Join(fx.dir, "secret.json"):        `{"train":[{"input":[[1]],"output":[[1]]}],"test":[],"x":"` + canary + `"}`,
		filepath.Join(fx.data, "arc", "passwd"):     canary,
		filepath.Join(fx.dir, "data", "secret.txt"): canary,
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Results: the reflect task solved with hard gates, the rotate task without a grid (soft gates), the
	// translate task wrong with two actions; the none task not run.
	refl, shift := fx.tasks[idReflect], fx.tasks[idTranslate]
	rows := []arc.Result{
		{Category: datasets.CategoryReflect, ID: idReflect, Solved: true, TestExact: 1, TestTotal: 1, Steps: 80, Canvas: 5,
			HardGates: true, Action: "reflect(0)", Restarts: 1, RestartsFitted: 1, TotalSteps: 80, Model: "latformer", Predictions: []datasets.Grid{refl.Test[0].Output}},
		{Category: datasets.CategoryRotate, ID: idRotate, TestTotal: 1, Steps: 500, Canvas: 5,
			Action: "rot90(0,1)x1", Restarts: 1, TotalSteps: 500, Model: "latformer", Predictions: []datasets.Grid{nil}},
		{Category: datasets.CategoryTranslate, ID: idTranslate, TestTotal: 1, Steps: 500, Canvas: 6, HardGates: true,
			Action: "translate(0,1) + identity", Restarts: 1, TotalSteps: 500, Model: "latformer", Predictions: []datasets.Grid{shift.Test[0].Input}},
	}
	fx.results = filepath.Join(fx.dir, "results.csv")
	fx.old = filepath.Join(fx.dir, "old.csv")
	writeCSV(t, fx.results, arc.Header, rows, len(arc.Header))
	writeCSV(t, fx.old, arc.Header[:17], rows[:1], 17)
	fx.labels = filepath.Join(fx.dir, "labels.json")
	return fx
}

func writeCSV(t *testing.T, path string, header []string, rows []arc.Result, cols int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	_ = w.Write(header)
	for _, r := range rows {
		_ = w.Write(r.Record()[:cols])
	}
	w.Flush()
	if err := errors.Join(w.Error(), f.Close()); err != nil {
		t.Fatal(err)
	}
}

// server returns a Server on the fixture with both results files.
func (fx *fixture) server(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{DataDir: fx.data, Results: []string{fx.results, fx.old}, Labels: fx.labels, Log: io.Discard})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// get serves a GET request and returns the status and body.
func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// postForm serves a POST of the label form and returns the recorder.
func postForm(t *testing.T, h http.Handler, target string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var rowTask = regexp.MustCompile(`<tr data-task="([^"]+)"`)

// listed returns the task ids of the rows of a list page (or the export table), sorted.
func listed(body string) []string {
	var ids []string
	for _, m := range rowTask.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	slices.Sort(ids)
	return ids
}

// noLeak fails if a body shows a stack trace or the canary.
func noLeak(t *testing.T, what, body string) {
	t.Helper()
	for _, bad := range []string{canary, "goroutine ", "panic", "runtime/debug", ".go:"} {
		if strings.Contains(body, bad) {
			t.Errorf("%s: the body contains %q", what, bad)
		}
	}
}
