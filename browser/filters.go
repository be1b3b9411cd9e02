// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/latformer/latformer/datasets"
)

// filters are the list's filters, from the query string: split, category of the annotation, solved or
// not in one results CSV (run, 1-based), labelled or not and agreement with the definition, and a
// substring of the id.
type filters struct {
	Split    string // "" (all) or a split
	Category string // "" (all), "geometric" (the four of Table 2) or a datasets.Category
	Run      int    // 1-based index of the results CSV the Solved filter reads; 0 when there is none
	Solved   string // "", "solved", "unsolved", "not-run"
	Label    string // "", "labelled", "unlabelled", "agree", "disagree"
	Q        string // substring of the task id
}

// The accepted values of the filters, for the form and the error messages.
var (
	filterSolved = []string{"solved", "unsolved", "not-run"}
	filterLabel  = []string{"labelled", "unlabelled", "agree", "disagree"}
)

// filterCategories are the accepted category values, in the order of the page.
func filterCategories() []string {
	out := []string{"geometric"}
	for _, c := range datasets.Categories {
		out = append(out, string(c))
	}
	return append(out, string(datasets.CategoryNone))
}

// parseFilters reads the filters from a query string; an unknown value is an error that says which
// values are accepted ("all" and "" mean no filter). Parameters the page does not use are ignored.
func (s *Server) parseFilters(q url.Values) (filters, error) {
	var f filters
	get := func(key string) (string, error) {
		vs := q[key]
		if len(vs) > 1 {
			return "", fmt.Errorf("filter %q is given %d times", key, len(vs))
		}
		if len(vs) == 0 || vs[0] == "all" {
			return "", nil
		}
		return vs[0], nil
	}
	oneOf := func(key string, valid []string) (string, error) {
		v, err := get(key)
		if err != nil || v == "" {
			return v, err
		}
		if !slices.Contains(valid, v) {
			return "", fmt.Errorf("filter %s=%q: want one of all, %s", key, v, strings.Join(valid, ", "))
		}
		return v, nil
	}
	var err error
	if f.Split, err = oneOf("split", s.splits); err != nil {
		return f, err
	}
	if f.Category, err = oneOf("category", filterCategories()); err != nil {
		return f, err
	}
	if f.Solved, err = oneOf("solved", filterSolved); err != nil {
		return f, err
	}
	if f.Label, err = oneOf("label", filterLabel); err != nil {
		return f, err
	}
	if f.Q, err = get("q"); err != nil {
		return f, err
	}
	f.Q = strings.TrimSpace(f.Q)
	if f.Q != "" && !ValidTaskID(f.Q) {
		return f, fmt.Errorf("search %q: a task id holds only letters, digits, - and _ (at most 64)", f.Q)
	}
	run, err := get("run")
	if err != nil {
		return f, err
	}
	if len(s.runs) > 0 {
		f.Run = 1
	}
	if run != "" {
		n, err := strconv.Atoi(run)
		if err != nil || n < 1 || n > len(s.runs) {
			if len(s.runs) == 0 {
				return f, fmt.Errorf("filter run=%q: no results CSV was given (--results)", run)
			}
			return f, fmt.Errorf("filter run=%q: want a results file number from 1 to %d", run, len(s.runs))
		}
		f.Run = n
	}
	if f.Solved != "" && len(s.runs) == 0 {
		return f, fmt.Errorf("filter solved=%q needs a results CSV (start the server with --results)", f.Solved)
	}
	return f, nil
}

// values returns the query of f (only the filters that are set).
func (f filters) values() url.Values {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("split", f.Split)
	set("category", f.Category)
	set("solved", f.Solved)
	set("label", f.Label)
	set("q", f.Q)
	if f.Run > 1 {
		v.Set("run", strconv.Itoa(f.Run))
	}
	return v
}

// suffix returns "?query" of f, or "" when no filter is set.
func (f filters) suffix() string {
	if q := f.values().Encode(); q != "" {
		return "?" + q
	}
	return ""
}

// match reports whether a task passes the filters.
func (s *Server) match(f filters, e *taskEntry, labels map[string]Label) bool {
	if f.Split != "" && e.split != f.Split {
		return false
	}
	switch f.Category {
	case "":
	case "geometric":
		if e.ann.Category == datasets.CategoryNone {
			return false
		}
	default:
		if string(e.ann.Category) != f.Category {
			return false
		}
	}
	if f.Q != "" && !strings.Contains(strings.ToLower(e.task.ID), strings.ToLower(f.Q)) {
		return false
	}
	if f.Solved != "" {
		r, ran := s.runs[f.Run-1].results[e.task.ID]
		switch f.Solved {
		case "solved":
			if !ran || !r.Solved {
				return false
			}
		case "unsolved":
			if !ran || r.Solved {
				return false
			}
		case "not-run":
			if ran {
				return false
			}
		}
	}
	if f.Label != "" {
		l, labelled := labels[e.task.ID]
		switch f.Label {
		case "labelled":
			return labelled
		case "unlabelled":
			return !labelled
		case "agree", "disagree":
			if !labelled {
				return false
			}
			cat, _ := PersonCategory(l.Priors)
			return (cat == e.ann.Category) == (f.Label == "agree")
		}
	}
	return true
}
