// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/latformer/latformer/datasets"
)

// AgreementRow is one labelled task next to the definition: what a person said and what the annotation
// says.
type AgreementRow struct {
	TaskID, Split string
	// Known is false for a label of a task that is not in the data directory (then the definition
	// columns are empty and Agree is false).
	Known bool
	// Definition is the annotation's category, DefinitionAction its first per-pair action (or its note).
	Definition       datasets.Category
	DefinitionAction string
	// Priors are the person's priors, Person the category they map to (PersonCategory) and Why why it
	// is "none".
	Priors []string
	Person datasets.Category
	Why    string
	Agree  bool
	Note   string
	Saved  time.Time
}

// Agreement returns the labelled tasks next to their definition, sorted by split and id.
func (s *Server) Agreement(labels map[string]Label) []AgreementRow {
	rows := make([]AgreementRow, 0, len(labels))
	for id, l := range labels {
		row := AgreementRow{TaskID: id, Split: l.Split, Priors: l.Priors, Note: l.Note, Saved: l.Saved}
		row.Person, row.Why = PersonCategory(l.Priors)
		if e, ok := s.tasks[id]; ok {
			row.Known, row.Split, row.Definition = true, e.split, e.ann.Category
			row.DefinitionAction = e.ann.Note
			if len(e.ann.Actions) > 0 {
				row.DefinitionAction = e.ann.Actions[0]
			}
			row.Agree = row.Person == row.Definition
		}
		rows = append(rows, row)
	}
	sort.Slice(rows, func(a, b int) bool {
		if rows[a].Split != rows[b].Split {
			return rows[a].Split > rows[b].Split // training before evaluation
		}
		return rows[a].TaskID < rows[b].TaskID
	})
	return rows
}

// exportPage is the data of the export template.
type exportPage struct {
	Rows              []exportRow
	Labelled, Agree   int
	Disagree, Unknown int
	Categories        []string
	Matrix            []matrixRow
	Path              string
}

// exportRow is an AgreementRow for the page.
type exportRow struct {
	AgreementRow
	PriorNames string
	URL        string
}

// matrixRow is a row of the confusion table: the definition's category, then one count per person
// category.
type matrixRow struct {
	Definition string
	Counts     []int
	Total      int
}

// exportCategories are the categories of the confusion table, in order.
func exportCategories() []datasets.Category {
	return append(append([]datasets.Category{}, datasets.Categories...), datasets.CategoryNone)
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	labels, err := s.labels.All()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "The labels file cannot be read: "+err.Error())
		return
	}
	page := exportPage{Path: s.labels.Path()}
	cats := exportCategories()
	index := map[datasets.Category]int{}
	for i, c := range cats {
		page.Categories = append(page.Categories, string(c))
		index[c] = i
		page.Matrix = append(page.Matrix, matrixRow{Definition: string(c), Counts: make([]int, len(cats))})
	}
	for _, row := range s.Agreement(labels) {
		names := make([]string, len(row.Priors))
		for i, k := range row.Priors {
			p, _ := PriorByKey(k)
			names[i] = p.Name
		}
		page.Rows = append(page.Rows, exportRow{AgreementRow: row, PriorNames: strings.Join(names, ", "),
			URL: "/task/" + row.TaskID})
		page.Labelled++
		switch {
		case !row.Known:
			page.Unknown++
			continue
		case row.Agree:
			page.Agree++
		default:
			page.Disagree++
		}
		m := &page.Matrix[index[row.Definition]]
		m.Counts[index[row.Person]]++
		m.Total++
	}
	s.render(w, r, "export", page)
}

// ExportHeader is the header of the CSV export (GET /export.csv), one row per labelled task.
var ExportHeader = []string{"task_id", "split", "definition_category", "definition_action", "person_priors",
	"person_category", "person_why", "agree", "note", "saved"}

func (s *Server) handleExportCSV(w http.ResponseWriter, r *http.Request) {
	labels, err := s.labels.All()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "The labels file cannot be read: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="labels-vs-definition.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	cw := csv.NewWriter(w)
	_ = cw.Write(ExportHeader)
	for _, row := range s.Agreement(labels) {
		agree := "false"
		if row.Agree {
			agree = "true"
		}
		def := string(row.Definition)
		if !row.Known {
			def, agree = "", "" // not in the data directory
		}
		_ = cw.Write([]string{row.TaskID, row.Split, def, row.DefinitionAction, strings.Join(row.Priors, ";"),
			string(row.Person), row.Why, agree, row.Note, row.Saved.UTC().Format(time.RFC3339)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		s.log.Printf("writing export.csv: %v", err)
	}
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
