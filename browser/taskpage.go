// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/lattice"
)

// The task page (GET /task/ID): the pairs, each run's predictions, masks and gates, and the label form.

type taskPage struct {
	ID, Split          string
	Category           string
	CategoryTitle      string
	Note               string
	ListURL            string
	Prev, Next         string
	Position, InFilter int
	Train, Test        []pairView
	Runs               []runView
	Label              *Label
	Groups             []priorGroup
	FormNote           string // the note in the form
	PersonCategory     string
	PersonWhy          string
	Agree              string
	Flash              string
	FormAction         string
	MaxNote            int
}

// pairView is one pair with its pictures.
type pairView struct {
	Title      string
	Input      picture
	Output     *picture // nil for a test pair without an output
	Action     string   // the annotation's action for this pair
	Preds      []predView
	InputSize  string
	OutputSize string
}

// predView is a prediction of one results CSV for a test pair.
type predView struct {
	Run     string
	Grid    *picture
	Exact   string // "exact", "wrong", "" (unknown: no expected output)
	Message string // when there is no grid
}

// runView is what one results CSV says of the task.
type runView struct {
	Name, Note    string
	Ran           bool
	Solved        bool
	Exact         string
	Model         string
	Gates         string // "hard" or "soft"
	Action        string
	Steps, Canvas int
	Seconds       float64
	Masks         []maskView
	MaskMessage   string
}

// maskView is the mask of one action read from the gates, with the action applied to the first test
// input on the canvas.
type maskView struct {
	Action  string
	Mask    *picture
	Applied *picture
	Caption string
	Error   string
}

// priorGroup is a group of checkboxes of the form.
type priorGroup struct {
	Name   string
	Priors []priorCheck
}

// priorCheck is one checkbox.
type priorCheck struct {
	Key, Name, Help string
	Checked         bool
	Geometric       bool
}

func (s *Server) handleTask(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lookup(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f, labels, ok := s.filtersAndLabels(w, r)
	if !ok {
		return
	}
	page, err := s.taskPage(e, f, labels)
	if err != nil {
		s.log.Printf("task %s: %v", e.task.ID, err)
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Task %s cannot be drawn: %v", e.task.ID, err))
		return
	}
	switch {
	case q.Get("saved") != "" && page.Label != nil:
		page.Flash = "Label saved at " + page.Label.Saved.Local().Format("15:04:05") + " to " + s.labels.Path() + "."
	case q.Get("deleted") != "":
		page.Flash = "Label removed."
	}
	s.render(w, r, "task", page)
}

// lookup validates the {id} of the URL and finds the task: 400 for an id that is not a plausible task
// id, 404 for one the data directory does not have. The id is never joined into a path.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (*taskEntry, bool) {
	id := r.PathValue("id")
	if !ValidTaskID(id) {
		s.fail(w, r, http.StatusBadRequest,
			fmt.Sprintf("%q is not a task id: an id holds only letters, digits, - and _ "+
				"(ARC ids are 8 hexadecimal digits).", id))
		return nil, false
	}
	e, ok := s.tasks[id]
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("No task %q in the data directory (%d tasks of %s).", id,
			len(s.order), strings.Join(s.splits, " and ")))
		return nil, false
	}
	return e, true
}

// taskPage builds the data of a task page.
func (s *Server) taskPage(e *taskEntry, f filters, labels map[string]Label) (*taskPage, error) {
	t := e.task
	page := &taskPage{ID: t.ID, Split: e.split, Category: string(e.ann.Category),
		CategoryTitle: arc.CategoryTitle[e.ann.Category], Note: e.ann.Note, ListURL: "/" + f.suffix(),
		FormAction: "/task/" + t.ID + "/label" + f.suffix(), MaxNote: MaxNoteRunes}
	// Position in the filtered list, previous and next.
	var ids []string
	for _, o := range s.order {
		if s.match(f, o, labels) {
			ids = append(ids, o.task.ID)
		}
	}
	if i := slices.Index(ids, t.ID); i >= 0 {
		page.Position, page.InFilter = i+1, len(ids)
		if i > 0 {
			page.Prev = "/task/" + ids[i-1] + f.suffix()
		}
		if i+1 < len(ids) {
			page.Next = "/task/" + ids[i+1] + f.suffix()
		}
	}
	// The pairs, on one cell size.
	side := 1
	for _, p := range append(append([]datasets.Pair{}, t.Train...), t.Test...) {
		side = max(side, p.Input.Rows(), p.Input.Cols(), p.Output.Rows(), p.Output.Cols())
	}
	for _, run := range s.runs {
		for _, g := range run.results[t.ID].Predictions {
			side = max(side, g.Rows(), g.Cols())
		}
	}
	cell := cellSize(side)
	pairAction := func(i int) string {
		if i < len(e.ann.Actions) {
			return e.ann.Actions[i]
		}
		return ""
	}
	for i, p := range t.Train {
		pv, err := s.pairView(fmt.Sprintf("train %d", i+1), p, cell)
		if err != nil {
			return nil, err
		}
		pv.Action = pairAction(i)
		page.Train = append(page.Train, pv)
	}
	withOutput := len(t.Train)
	for i, p := range t.Test {
		pv, err := s.pairView(fmt.Sprintf("test %d", i+1), p, cell)
		if err != nil {
			return nil, err
		}
		if p.Output != nil {
			pv.Action = pairAction(withOutput)
			withOutput++
		}
		for _, run := range s.runs {
			res, ok := run.results[t.ID]
			if !ok {
				continue
			}
			pred, err := predictionView(run, res, i, p, cell)
			if err != nil {
				return nil, err
			}
			pv.Preds = append(pv.Preds, pred)
		}
		page.Test = append(page.Test, pv)
	}
	for _, run := range s.runs {
		page.Runs = append(page.Runs, runViewOf(run, t, cell))
	}
	// The label form.
	var checked []string
	if l, ok := labels[t.ID]; ok {
		page.Label = &l
		checked = l.Priors
		page.FormNote = l.Note
		cat, why := PersonCategory(l.Priors)
		page.PersonCategory, page.PersonWhy = string(cat), why
		page.Agree = agreement(l, e.ann.Category)
	}
	for _, p := range Priors {
		if len(page.Groups) == 0 || page.Groups[len(page.Groups)-1].Name != p.Group {
			page.Groups = append(page.Groups, priorGroup{Name: p.Group})
		}
		g := &page.Groups[len(page.Groups)-1]
		g.Priors = append(g.Priors, priorCheck{Key: p.Key, Name: p.Name, Help: p.Help,
			Checked: slices.Contains(checked, p.Key), Geometric: p.Category != ""})
	}
	return page, nil
}

// pairView draws a pair.
func (s *Server) pairView(title string, p datasets.Pair, cell int) (pairView, error) {
	in, err := gridPicture(p.Input, cell, title+" input")
	if err != nil {
		return pairView{}, err
	}
	pv := pairView{Title: title, Input: in, InputSize: fmt.Sprintf("%dx%d", p.Input.Rows(), p.Input.Cols())}
	if p.Output != nil {
		out, err := gridPicture(p.Output, cell, title+" output")
		if err != nil {
			return pairView{}, err
		}
		pv.Output = &out
		pv.OutputSize = fmt.Sprintf("%dx%d", p.Output.Rows(), p.Output.Cols())
	}
	return pv, nil
}

// predictionView draws the prediction of one results CSV for test pair i.
func predictionView(run *resultsRun, res arc.Result, i int, p datasets.Pair, cell int) (predView, error) {
	pv := predView{Run: run.name}
	switch {
	case len(res.Predictions) == 0:
		pv.Message = "prediction not recorded"
		return pv, nil
	case i >= len(res.Predictions):
		pv.Message = fmt.Sprintf("no prediction for test %d (the file has %d)", i+1, len(res.Predictions))
		return pv, nil
	case res.Predictions[i] == nil:
		pv.Message = "no well-formed grid predicted"
		pv.Exact = "wrong"
		return pv, nil
	}
	g := res.Predictions[i]
	if err := g.Validate(); err != nil {
		pv.Message = "the predicted grid is not a valid grid: " + err.Error()
		return pv, nil
	}
	pic, err := gridPicture(g, cell, fmt.Sprintf("prediction of %s for test %d", run.name, i+1))
	if err != nil {
		return pv, err
	}
	pv.Grid = &pic
	if p.Output != nil {
		pv.Exact = "wrong"
		if g.Equal(p.Output) {
			pv.Exact = "exact"
		}
	}
	return pv, nil
}

// runViewOf summarizes one results CSV for a task, with the mask of the action read from the gates.
func runViewOf(run *resultsRun, t datasets.Task, cell int) runView {
	res, ok := run.results[t.ID]
	v := runView{Name: run.name, Note: run.note, Ran: ok}
	if !ok {
		return v
	}
	v.Solved, v.Exact, v.Model, v.Action = res.Solved, fmt.Sprintf("%d/%d", res.TestExact, res.TestTotal),
		res.Model, res.Action
	v.Steps, v.Canvas, v.Seconds = res.Steps, res.Canvas, res.Seconds
	v.Gates = "soft"
	if res.HardGates {
		v.Gates = "hard"
	}
	if res.Action == "" {
		v.MaskMessage = fmt.Sprintf("model %s has no mask experts: no action, no mask", res.Model)
		return v
	}
	canvas := res.Canvas
	if canvas <= 0 {
		canvas = datasets.TaskCanvas(t)
	}
	v.Canvas = canvas
	dims := []int{canvas, canvas}
	for _, part := range strings.Split(res.Action, " + ") {
		m := maskView{Action: part}
		a, err := lattice.ParseAction(part)
		if err != nil {
			m.Error = err.Error()
			v.Masks = append(v.Masks, m)
			continue
		}
		pic, err := maskPicture(a, dims)
		if err != nil {
			m.Error = fmt.Sprintf("no mask of %s on the %dx%d canvas: %v", part, canvas, canvas, err)
			v.Masks = append(v.Masks, m)
			continue
		}
		m.Mask = &pic
		if res.HardGates {
			m.Caption = fmt.Sprintf(
				"The model's mask (hard gates: exactly the mask of %s on the %dx%d canvas, %d cells).",
				part, canvas, canvas, canvas*canvas)
		} else {
			m.Caption = fmt.Sprintf("The mask of %s, the action the soft gates round to, on the %dx%d canvas; the "+
				"model's own mask is soft and differs.", part, canvas, canvas)
		}
		if len(t.Test) > 0 {
			if c, err := datasets.ToCanvas(t.Test[0].Input, canvas, canvas); err == nil {
				if moved, err := datasets.ApplyAction(a, c); err == nil {
					if pic, err := canvasPicture(moved, cell,
						fmt.Sprintf("%s applied to test input 1 on the canvas", part)); err == nil {
						m.Applied = &pic
					}
				}
			}
		}
		v.Masks = append(v.Masks, m)
	}
	return v
}
