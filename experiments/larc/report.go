// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package larc

import (
	"encoding/json"
	"fmt"
	"image"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/render"
)

// ResultsHTML shows the rows of a run on task (results of other tasks are left out): a table of each
// condition's outcome (solved, steps, the action its gates read, time), then the task's first test input,
// its expected output and each condition's prediction of it. A row whose predictions do not parse is an
// error naming the task and condition.
func ResultsHTML(task Task, results []Result) (string, error) {
	caps := []string{"test input", "expected"}
	imgs := []image.Image{render.GridImage(render.Grid(task.Test[0].Input), 14),
		render.GridImage(render.Grid(task.Test[0].Output), 14)}
	var rows [][]string
	for _, r := range results {
		if r.ID != task.ID {
			continue
		}
		var preds []datasets.Grid
		if r.Predictions != "" {
			if err := json.Unmarshal([]byte(r.Predictions), &preds); err != nil {
				return "", fmt.Errorf("task %s, condition %s: predictions: %w", r.ID, r.Condition, err)
			}
		}
		name := "LatFormer"
		if r.Condition == ConditionNL {
			name = "LatFormer + NL (" + r.Encoder + ")"
		}
		if len(preds) > 0 && preds[0] != nil {
			caps, imgs = append(caps, name), append(imgs, render.GridImage(render.Grid(preds[0]), 14))
		}
		rows = append(rows, []string{name, fmt.Sprint(r.Solved), fmt.Sprint(r.Steps), r.Action,
			fmt.Sprintf("%.1f s", r.Seconds)})
	}
	pictures, err := render.ImagesRowHTML(caps, imgs)
	return render.HTMLTable(
		[]string{"model", "solved", "steps", "action read from the gates", "time"}, rows) + pictures, err
}
