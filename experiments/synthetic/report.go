// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"fmt"
	"image"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/render"
)

// PairsHTML draws pairs as pictures of their whole canvases (pad cells included), each input beside its
// output, captioned "label, pair N" (N from 1; "pair N" when label is empty).
func PairsHTML(pairs []datasets.CanvasPair, label string) (string, error) {
	var imgs []image.Image
	var caps []string
	for i, p := range pairs {
		in, out := p.Input, p.Output
		imgs = append(imgs, render.GridsRow([]render.Grid{render.CellsGrid(in.Rows, in.Cols, in.Cells),
			render.CellsGrid(out.Rows, out.Cols, out.Cells)}, 8))
		caps = append(caps, fmt.Sprintf("pair %d", i+1))
		if label != "" {
			caps[i] = label + ", " + caps[i]
		}
	}
	return render.ImagesRowHTML(caps, imgs)
}

// ResultsHTML shows the results of models trained on task's training pairs: the pairs, a table of each
// model's test pairs predicted exactly, steps, fit and learned action, and a bar chart of the test accuracy.
func ResultsHTML(task datasets.SyntheticTask, results []Result) (string, error) {
	pairs, err := PairsHTML(task.Train, "")
	if err != nil {
		return "", err
	}
	var rows [][]string
	var names []string
	var acc [][]float64
	for _, r := range results {
		rows = append(rows, []string{r.Model, fmt.Sprintf("%d/%d", r.TestExact, r.TestTotal), fmt.Sprint(r.Steps),
			fmt.Sprint(r.Fitted), r.Action})
		names, acc = append(names, r.Model), append(acc, []float64{r.Accuracy})
	}
	n := len(task.Train)
	chart := render.BarChartSVG(fmt.Sprintf("Test pairs predicted exactly after training on %d pair(s)", n),
		[]string{task.Name}, names, acc)
	return fmt.Sprintf("<p><b>%d training pair(s)</b> of %s:</p>", n, task.Name) + pairs +
		render.HTMLTable([]string{"model", "test exact", "steps", "fitted", "learned action"}, rows) +
		render.SVGImageHTML(chart, fmt.Sprintf("test accuracy after %d pairs", n)), nil
}
