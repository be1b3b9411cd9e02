// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// TestResultsHTML checks the slider's view: one picture a pair with its caption, one table row a model with
// its exact count, and the chart.
func TestResultsHTML(t *testing.T) {
	task, err := datasets.SyntheticTaskAt(datasets.FamilyRotation, 0, datasets.SyntheticOptions{NumTrain: 3, NumTest: 1, Canvas: 6})
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{{Unit: Unit{Model: ModelLatFormer}, TestExact: 19, TestTotal: 20, Accuracy: 0.95, Steps: 150, Fitted: true, Action: "rot90"},
		{Unit: Unit{Model: "transformer"}, TestExact: 0, TestTotal: 20, Steps: 150}}
	html, err := ResultsHTML(task, results)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<b>3 training pair(s)</b>", "pair 3", ">19/20<", ">0/20<", ">rot90<", "test accuracy after 3 pairs"} {
		if !strings.Contains(html, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	if n := strings.Count(html, "<img"); n != 3+1 {
		t.Errorf("%d images, want 3 pairs and the chart", n)
	}
	pairs, err := PairsHTML(task.Train[:2], "rotation rot90")
	if err != nil || strings.Count(pairs, "<img") != 2 || !strings.Contains(pairs, "rotation rot90, pair 2") {
		t.Errorf("PairsHTML: %v %.300s", err, pairs)
	}
}
