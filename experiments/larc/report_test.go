// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package larc

import (
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// TestResultsHTML checks the live cell's view: a table row for each condition of the task (another task's
// row left out), a picture for each prediction beside the test input and expected output, and an error
// naming the task for predictions that do not parse.
func TestResultsHTML(t *testing.T) {
	task := Task{Task: datasets.Task{ID: "abcd1234", Test: []datasets.Pair{{Input: datasets.Grid{{1, 2}}, Output: datasets.Grid{{2, 1}}}}}}
	results := []Result{
		{ID: "abcd1234", Condition: ConditionIO, Solved: true, Steps: 60, Action: "reflect(1)", Seconds: 1.25, Predictions: "[[[2,1]]]"},
		{ID: "abcd1234", Condition: ConditionNL, Encoder: "lsa", Steps: 70, Predictions: ""},
		{ID: "other000", Condition: ConditionIO, Steps: 99},
	}
	html, err := ResultsHTML(task, results)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">LatFormer<", ">LatFormer + NL (lsa)<", ">reflect(1)<", ">1.2 s<", ">70<"} {
		if !strings.Contains(html, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	if strings.Contains(html, ">99<") || strings.Count(html, "<tr>") != 3 {
		t.Errorf("want the header and the task's two rows, got %d rows", strings.Count(html, "<tr>"))
	}
	if n := strings.Count(html, "<img"); n != 3 {
		t.Errorf("%d images, want test input, expected and the one prediction", n)
	}
	results[0].Predictions = "[[oops"
	if _, err := ResultsHTML(task, results); err == nil || !strings.Contains(err.Error(), "abcd1234") {
		t.Errorf("bad predictions: error %v, want one naming the task", err)
	}
}
