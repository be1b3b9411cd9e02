// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"fmt"
	"html"
	"image"
	"sort"
	"strings"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/render"
)

// DataMissingHTML is the notebooks' message when the ARC tasks are not found (err says why): where they were
// looked for (envData is the value of $LATFORMER_DATA, "" when unset) and how to get them.
func DataMissingHTML(err error, envData string) string {
	where := "$" + datasets.EnvDataDir +
		" is not set here, so the notebook looked in the checkout's <code>data/</code> " +
		"(<code>../data</code> from its directory), where <code>latformer download</code> puts the tasks"
	if envData != "" {
		where = "$" + datasets.EnvDataDir + " is set here to <code>" + html.EscapeString(envData) +
			"</code>, and only that directory is used"
	}
	return `<div style="border-left: 6px solid #d9822b; background: #fff4e5; color: #222; ` +
		`padding: 0.5em 1em; margin: 0.3em 0">` +
		`<b>ARC data not found: the cells that need it skip themselves.</b><br>` +
		`This notebook reads the ARC-AGI-1 training tasks from <code>DIR/arc/training/*.json</code>, where DIR is ` +
		`<code>$LATFORMER_DATA</code>; ` + where + `.<br>` +
		`<small>` + html.EscapeString(err.Error()) + `</small><br>` +
		`<b>To get the data</b> (needs internet), from the repository root: <code>bin/latformer download</code> ` +
		`or <code>make download</code> (into <code>data/</code>), and run the notebook again; or start Jupyter with ` +
		`<code>LATFORMER_DATA=DIR</code> (<code>make lab DATA=DIR</code>) for data elsewhere.<br>` +
		`The annotation counts and Table 2 below need no data.</div>`
}

// PairsHTML draws the first n training pairs of a task (all when n exceeds them), each input beside its
// output, captioned with the task's id and the pair's number (from 1).
func PairsHTML(task datasets.Task, n int) (string, error) {
	var imgs []image.Image
	var caps []string
	for i, p := range task.Train[:min(n, len(task.Train))] {
		imgs = append(imgs, render.GridsRow([]render.Grid{render.Grid(p.Input), render.Grid(p.Output)}, 10))
		caps = append(caps, fmt.Sprintf("%s pair %d: input → output", task.ID, i+1))
	}
	return render.ImagesRowHTML(caps, imgs)
}

// PredictionHTML draws the first test input of task, its expected output and prediction (nil: not predicted,
// drawn empty) side by side, captioned "test input", "expected" and label, with cells of cell pixels.
func PredictionHTML(task datasets.Task, prediction datasets.Grid, label string, cell int) (string, error) {
	pred := render.Grid{{}}
	if prediction != nil {
		pred = render.Grid(prediction)
	}
	return render.ImagesRowHTML([]string{"test input", "expected", label}, []image.Image{
		render.GridImage(render.Grid(task.Test[0].Input), cell),
		render.GridImage(render.Grid(task.Test[0].Output), cell),
		render.GridImage(pred, cell)})
}

// Pickable returns the tasks of a search-started run (search) whose canvas is at most maxCanvas: first those
// for which the lattice search alone (alone: its results, nil when not run) found an element, then the
// others, each group by category and id.
func Pickable(search, alone map[string]Result, maxCanvas int) []Result {
	found := func(r Result) bool { return alone[r.ID].Action != "" }
	var list []Result
	for _, r := range search {
		if r.Canvas > 0 && r.Canvas <= maxCanvas {
			list = append(list, r)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if found(list[i]) != found(list[j]) {
			return found(list[i])
		}
		if list[i].Category != list[j].Category {
			return list[i].Category < list[j].Category
		}
		return list[i].ID < list[j].ID
	})
	return list
}

// TaskViewHTML draws a task and a run's result on it: the training pairs, the masks of the lattice search's
// four best proposals on the lattice the run used (or, for an anchor-relative rule, its element on each
// pair), and the run's prediction of the first test output next to the expected one.
func TaskViewHTML(task datasets.Task, r Result) (string, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<h4>%s (%s): %d training pairs</h4>", r.ID, CategoryTitle[r.Category], len(task.Train))
	pairs, err := PairsHTML(task, len(task.Train))
	if err != nil {
		return "", err
	}
	sb.WriteString(pairs)
	masks, err := proposalsHTML(task, r.Lattice)
	if err != nil {
		return "", err
	}
	sb.WriteString(masks)
	verdict := "not solved"
	if r.Solved {
		verdict = "solved"
	}
	fmt.Fprintf(&sb, "<p>LatFormer + lattice search (full run): %s, action %s, predicted by the %s</p>", verdict,
		html.EscapeString(r.Action), r.Source)
	var pred datasets.Grid
	if len(r.Predictions) > 0 {
		pred = r.Predictions[0]
	}
	view, err := PredictionHTML(task, pred, "predicted", 12)
	sb.WriteString(view)
	return sb.String(), err
}

// proposalsHTML draws the lattice search's four best proposals on task's canvas as attention masks, on
// lattice ("grid": size-relative elements, "anchored": boxes read off each input, else the canvas).
func proposalsHTML(task datasets.Task, lattice string) (string, error) {
	side := datasets.TaskCanvas(task)
	var train []latformer.Example
	for _, p := range task.Train {
		in, err := datasets.ToCanvas(p.Input, side, side)
		if err != nil {
			return "", fmt.Errorf("task %s: %w", task.ID, err)
		}
		out, err := datasets.ToCanvas(p.Output, side, side)
		if err != nil {
			return "", fmt.Errorf("task %s: %w", task.ID, err)
		}
		train = append(train, latformer.Example{Input: in, Output: out})
	}
	store, err := latformer.NewStore(nil)
	if err != nil {
		return "", err
	}
	expert := experts.ExpertFromScope(store.RootScope(), side, side)
	proposals, _, err := arcsolver.LatticeProposals(expert, train, 4, lattice == "grid")
	if lattice == "anchored" {
		proposals, _, err = arcsolver.LatticeProposalsAnchored(expert, train, 4)
	}
	if err != nil {
		proposals = nil
	}
	if len(proposals) > 0 {
		if _, ok := proposals[0].Anchored(); ok {
			return pairElementsHTML(proposals[0], train)
		}
	}
	var imgs []image.Image
	var caps []string
	for i, p := range proposals {
		m, err := p.Action.Mask([]int{side, side})
		if err != nil {
			continue // a size-relative element with no mask on the whole canvas
		}
		imgs = append(imgs, render.MaskImage(m.Rows, m.Cols, m.Data, max(2, 240/(side*side))))
		caps = append(caps, fmt.Sprintf("%d. %s", i+1, p.Action))
	}
	if len(imgs) == 0 {
		return "<p>the lattice search finds no single group element under which one color table maps every input " +
			"to its output (the tasks that have one come first in the list)</p>", nil
	}
	row, err := render.ImagesRowHTML(caps, imgs)
	return fmt.Sprintf("<p>the lattice search's %d best proposals on the %d × %d canvas, as attention masks:</p>",
		len(proposals), side, side) + row, err
}

// pairElementsHTML draws the element of an anchor-relative proposal on each training pair: the rule reads a
// box off each input (its frame), so the element, drawn as the mask M_g(x) of that input, changes from pair
// to pair while the rule stays one.
func pairElementsHTML(p arcsolver.Proposal, train []latformer.Example) (string, error) {
	rule, _ := p.Anchored()
	var sb strings.Builder
	fmt.Fprintf(&sb, "<p>one rule for every pair, <code>%s∘%s</code>; its element on each pair "+
		"(the box it crops at (R0, C0), H × W, and where the result goes), drawn as that pair's attention mask:</p>",
		html.EscapeString(rule.String()), html.EscapeString(p.Action.String()))
	var imgs []image.Image
	var caps []string
	for i, ex := range train {
		f, ok := p.FrameOf(ex.Input)
		gather, err := p.Gather(ex.Input)
		if !ok || err != nil {
			continue
		}
		n := len(gather)
		data := make([]float64, n*n)
		for cell, src := range gather {
			if src >= 0 {
				data[cell*n+int(src)] = 1
			}
		}
		imgs = append(imgs, render.MaskImage(n, n, data, max(2, 240/n)))
		caps = append(caps, fmt.Sprintf("pair %d: box (%d, %d) %d × %d → shift (%d, %d)", i+1, f.R0, f.C0, f.H,
			f.W, f.DR-f.R0, f.DC-f.C0))
	}
	row, err := render.ImagesRowHTML(caps, imgs)
	sb.WriteString(row)
	return sb.String(), err
}
