package browser

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/lattice"
)

// templateFuncs are the helpers of the page templates.
var templateFuncs = template.FuncMap{
	"saved": savedTime,
	"wbr":   breakAfterCompose,
}

// breakAfterCompose escapes an action string and lets the browser break the line after each "∘".
func breakAfterCompose(s string) template.HTML {
	parts := strings.Split(s, lattice.ComposeSeparator)
	for i, p := range parts {
		parts[i] = template.HTMLEscapeString(p)
	}
	return template.HTML(strings.Join(parts, lattice.ComposeSeparator+"<wbr>"))
}

// ---------------------------------------------------------------------------------------------------
// The task list.

// listPage is the data of the list template.
type listPage struct {
	Filters    filters
	Splits     []string
	Categories []chip
	Runs       []runHead
	Rows       []listRow
	Total      int
	Labels     int
	Path       string
	// The option lists of the form.
	SolvedValues, LabelValues []string
}

// chip is a link of the category bar.
type chip struct {
	Value, Title, URL string
	Count             int
	Active            bool
}

// runHead names a results CSV.
type runHead struct {
	Index      int // 1-based
	Name, Note string
	Tasks      int
	Solved     int
}

// listRow is one task of the list.
type listRow struct {
	ID, Split, URL, Thumb string
	Category              string
	Action                string // the annotation's first action, or its note
	Cells                 []runCell
	Label                 *Label
	PriorNames            []string
	Agree                 string // "agree", "disagree" or ""
}

// runCell is a task's outcome in one results CSV.
type runCell struct {
	Ran, Solved bool
	Exact       string // "1/1"
	Action      string
	Soft        bool // the action was read from soft gates
}

// filtersAndLabels parses the request's filters and reads the labels, answering the request with the
// error page (400 for a bad filter, 500 for an unreadable labels file) and ok false when it cannot.
func (s *Server) filtersAndLabels(w http.ResponseWriter, r *http.Request) (f filters, labels map[string]Label, ok bool) {
	f, err := s.parseFilters(r.URL.Query())
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "Bad filter: "+err.Error()+".")
		return f, nil, false
	}
	if labels, err = s.labels.All(); err != nil {
		s.log.Printf("reading labels: %v", err)
		s.fail(w, r, http.StatusInternalServerError, "The labels file cannot be read: "+err.Error())
		return f, nil, false
	}
	return f, labels, true
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	f, labels, ok := s.filtersAndLabels(w, r)
	if !ok {
		return
	}
	page := listPage{Filters: f, Splits: s.splits, Total: len(s.order), Labels: len(labels), Path: s.labels.Path(),
		SolvedValues: filterSolved, LabelValues: filterLabel}
	for i, run := range s.runs {
		h := runHead{Index: i + 1, Name: run.name, Note: run.note}
		for id, res := range run.results {
			if _, ok := s.tasks[id]; ok {
				h.Tasks++
				if res.Solved {
					h.Solved++
				}
			}
		}
		page.Runs = append(page.Runs, h)
	}
	// The category bar: counts under the other filters.
	counts := map[string]int{}
	noCat := f
	noCat.Category = ""
	for _, e := range s.order {
		if s.match(noCat, e, labels) {
			counts[""]++
			counts[string(e.ann.Category)]++
			if e.ann.Category != datasets.CategoryNone {
				counts["geometric"]++
			}
		}
	}
	for _, c := range append([]string{""}, filterCategories()...) {
		g := f
		g.Category = c
		page.Categories = append(page.Categories, chip{Value: c, Title: categoryTitle(c), URL: "/" + g.suffix(), Count: counts[c], Active: f.Category == c})
	}
	for _, e := range s.order {
		if !s.match(f, e, labels) {
			continue
		}
		row := listRow{ID: e.task.ID, Split: e.split, URL: "/task/" + e.task.ID + f.suffix(), Thumb: "/thumb/" + e.task.ID + ".png",
			Category: string(e.ann.Category), Action: e.ann.Note}
		if len(e.ann.Actions) > 0 {
			row.Action = e.ann.Actions[0]
			if n := distinct(e.ann.Actions); n > 1 {
				row.Action += fmt.Sprintf(" (+%d more)", n-1)
			}
		}
		for _, run := range s.runs {
			res, ok := run.results[e.task.ID]
			c := runCell{Ran: ok}
			if ok {
				c.Solved, c.Exact, c.Action = res.Solved, fmt.Sprintf("%d/%d", res.TestExact, res.TestTotal), res.Action
				c.Soft = !res.HardGates && res.Action != ""
			}
			row.Cells = append(row.Cells, c)
		}
		if l, ok := labels[e.task.ID]; ok {
			row.Label = &l
			for _, k := range l.Priors {
				p, _ := PriorByKey(k)
				row.PriorNames = append(row.PriorNames, p.Name)
			}
			row.Agree = agreement(l, e.ann.Category)
		}
		page.Rows = append(page.Rows, row)
	}
	s.render(w, r, "list", page)
}

// distinct counts the distinct strings of a list.
func distinct(v []string) int {
	seen := map[string]bool{}
	for _, s := range v {
		seen[s] = true
	}
	return len(seen)
}

// agreement compares a label with the definition's category.
func agreement(l Label, def datasets.Category) string {
	if cat, _ := PersonCategory(l.Priors); cat == def {
		return "agree"
	}
	return "disagree"
}

// categoryTitle is the name of a category filter on the page.
func categoryTitle(c string) string {
	switch c {
	case "":
		return "All"
	case "geometric":
		return "Table 2 (all four)"
	case string(datasets.CategoryNone):
		return "None"
	}
	return strings.ToUpper(c[:1]) + c[1:]
}

// ---------------------------------------------------------------------------------------------------
// The task page.

// taskPage is the data of the task template.
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
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a task id: an id holds only letters, digits, - and _ (ARC ids are 8 hexadecimal digits).", id))
		return nil, false
	}
	e, ok := s.tasks[id]
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("No task %q in the data directory (%d tasks of %s).", id, len(s.order), strings.Join(s.splits, " and ")))
		return nil, false
	}
	return e, true
}

// taskPage builds the data of a task page.
func (s *Server) taskPage(e *taskEntry, f filters, labels map[string]Label) (*taskPage, error) {
	t := e.task
	page := &taskPage{ID: t.ID, Split: e.split, Category: string(e.ann.Category), CategoryTitle: arc.CategoryTitle[e.ann.Category],
		Note: e.ann.Note, ListURL: "/" + f.suffix(), FormAction: "/task/" + t.ID + "/label" + f.suffix(), MaxNote: MaxNoteRunes}
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
		g.Priors = append(g.Priors, priorCheck{Key: p.Key, Name: p.Name, Help: p.Help, Checked: slices.Contains(checked, p.Key), Geometric: p.Category != ""})
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
	v.Solved, v.Exact, v.Model, v.Action = res.Solved, fmt.Sprintf("%d/%d", res.TestExact, res.TestTotal), res.Model, res.Action
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
		canvas = arc.TaskCanvas(t)
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
			m.Caption = fmt.Sprintf("The model's mask (hard gates: exactly the mask of %s on the %dx%d canvas, %d cells).", part, canvas, canvas, canvas*canvas)
		} else {
			m.Caption = fmt.Sprintf("The mask of %s, the action the soft gates round to, on the %dx%d canvas; the model's own mask is soft and differs.", part, canvas, canvas)
		}
		if len(t.Test) > 0 {
			if c, err := datasets.ToCanvas(t.Test[0].Input, canvas, canvas); err == nil {
				if moved, err := datasets.ApplyAction(a, c); err == nil {
					if pic, err := canvasPicture(moved, cell, fmt.Sprintf("%s applied to test input 1 on the canvas", part)); err == nil {
						m.Applied = &pic
					}
				}
			}
		}
		v.Masks = append(v.Masks, m)
	}
	return v
}

// ---------------------------------------------------------------------------------------------------
// Saving a label.

// maxFormBytes bounds the body of a label form.
const maxFormBytes = 64 << 10

func (s *Server) handleLabel(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lookup(w, r)
	if !ok {
		return
	}
	f, err := s.parseFilters(r.URL.Query())
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "Bad filter: "+err.Error()+".")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("The label form must be posted as application/x-www-form-urlencoded, not %q.", ct))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("The form cannot be read (at most %d KiB): %v.", maxFormBytes>>10, err))
		return
	}
	form := r.PostForm
	for k := range form {
		if k != "priors" && k != "note" && k != "action" {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("Unexpected form field %q (the form has priors, note and action).", k))
			return
		}
	}
	if len(form["note"]) > 1 || len(form["action"]) > 1 {
		s.fail(w, r, http.StatusBadRequest, "The note and the action must be given once.")
		return
	}
	back := url.Values{}
	for k, v := range f.values() {
		back[k] = v
	}
	switch form.Get("action") {
	case "save":
		l := Label{TaskID: e.task.ID, Split: e.split, Priors: form["priors"], Note: form.Get("note")}
		if _, err := CheckLabel(l); err != nil {
			s.fail(w, r, http.StatusBadRequest, "The label was not saved: "+err.Error()+". Go back to correct it.")
			return
		}
		if err := s.labels.Put(l); err != nil {
			s.log.Printf("saving the label of %s: %v", e.task.ID, err)
			s.fail(w, r, http.StatusInternalServerError, "The label could not be saved: "+err.Error())
			return
		}
		back.Set("saved", "1")
	case "delete":
		if err := s.labels.Delete(e.task.ID); err != nil {
			s.log.Printf("removing the label of %s: %v", e.task.ID, err)
			s.fail(w, r, http.StatusInternalServerError, "The label could not be removed: "+err.Error())
			return
		}
		back.Set("deleted", "1")
	case "":
		s.fail(w, r, http.StatusBadRequest, "The form has no action: want action=save or action=delete.")
		return
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("Unknown action %q: want save or delete.", form.Get("action")))
		return
	}
	http.Redirect(w, r, "/task/"+e.task.ID+"?"+back.Encode(), http.StatusSeeOther)
}

// ---------------------------------------------------------------------------------------------------
// Thumbnails and the labels file.

func (s *Server) handleThumb(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	id, ok := strings.CutSuffix(file, ".png")
	if !ok || !ValidTaskID(id) {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a thumbnail name: want <task id>.png.", file))
		return
	}
	e, ok := s.tasks[id]
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("No task %q in the data directory.", id))
		return
	}
	data, cached := s.thumbs.Load(id)
	if !cached {
		png, err := thumbnail(e.task)
		if err != nil {
			s.log.Printf("thumbnail of %s: %v", id, err)
			s.fail(w, r, http.StatusInternalServerError, "The thumbnail cannot be drawn.")
			return
		}
		data, _ = s.thumbs.LoadOrStore(id, png)
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data.([]byte))
}

func (s *Server) handleLabelsJSON(w http.ResponseWriter, r *http.Request) {
	labels, err := s.labels.All()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "The labels file cannot be read: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="labels.json"`)
	if err := writeJSON(w, labelsFile{Format: LabelsFormat, Labels: labels}); err != nil {
		s.log.Printf("writing labels.json: %v", err)
	}
}

// savedTime formats a label's time for the page.
func savedTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }
