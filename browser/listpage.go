// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/latformer/latformer/datasets"
)

// The task list (GET /): one row per task with its category, labels and the runs' outcomes, filtered.

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
func (s *Server) filtersAndLabels(
	w http.ResponseWriter, r *http.Request,
) (f filters, labels map[string]Label, ok bool) {
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
		page.Categories = append(page.Categories, chip{Value: c, Title: categoryTitle(c), URL: "/" + g.suffix(),
			Count: counts[c], Active: f.Category == c})
	}
	for _, e := range s.order {
		if !s.match(f, e, labels) {
			continue
		}
		row := listRow{ID: e.task.ID, Split: e.split, URL: "/task/" + e.task.ID + f.suffix(),
			Thumb: "/thumb/" + e.task.ID + ".png", Category: string(e.ann.Category), Action: e.ann.Note}
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
