// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/render"
)

// RunFile names a results file (a file of the results directory), the row it makes in a report, and the
// command that writes it (said when the file is missing).
type RunFile struct {
	Name, File, Command string
}

// LoadedRun is a results file read: its name and its rows by task id.
type LoadedRun struct {
	RunFile
	Results map[string]Result
}

// ReadRuns reads each of files from dir. A file that is missing, unreadable or empty is left out of the
// runs, with a note naming it (as DIR/FILE with DIR the last element of dir, so that a note carries no path
// of the machine) and its command; a file with lines skipped is read with a note. An older format reads whole.
func ReadRuns(dir string, files []RunFile) (runs []LoadedRun, notes []string) {
	for _, f := range files {
		res, note := ReadResultsFor(filepath.Join(dir, f.File), f.Command)
		if note != "" {
			notes = append(notes, strings.ReplaceAll(note, dir, filepath.Base(dir)))
		}
		if res != nil {
			runs = append(runs, LoadedRun{f, res})
		}
	}
	return runs, notes
}

// Table is a table and the bar chart of its numbers, as the notebooks display them.
type Table struct {
	Header []string
	Rows   [][]string
	// Labels are the chart's groups (categories), Series its bars in each group, Values[series][label] the
	// heights (NaN: no bar).
	Labels, Series []string
	Values         [][]float64
}

// HTML is the table as an HTML table.
func (r Table) HTML() string { return render.HTMLTable(r.Header, r.Rows) }

// ChartHTML is the bar chart, titled title, as an <img> element (it renders in an untrusted notebook).
func (r Table) ChartHTML(title string) string {
	return render.SVGImageHTML(render.BarChartSVG(title, r.Labels, r.Series, r.Values), "bar chart: "+title)
}

// summaryOf returns the summary of category c in summaries.
func summaryOf(summaries []CategorySummary, c datasets.Category) (CategorySummary, bool) {
	for _, s := range summaries {
		if s.Category == c {
			return s, true
		}
	}
	return CategorySummary{}, false
}

// SolvedTable compares runs per category, one column a run: each cell "solved / tasks (fraction)", empty
// where a run has no task of the category, and a last row "all" with the totals and their percentage. The
// categories are those of any run, in Summarize's order. With paper, a last column holds the paper's
// LatFormer fraction (Table 2; empty for a category the paper does not report). The chart has the solved
// fraction of each run in each of the paper's categories that a run has.
func SolvedTable(runs []LoadedRun, paper bool) Table {
	summaries := make([][]CategorySummary, len(runs))
	present := map[datasets.Category]bool{}
	for i, r := range runs {
		summaries[i] = Summarize(r.Results, nil)
		for _, s := range summaries[i] {
			present[s.Category] = true
		}
	}
	rep := Table{Header: []string{"category"}}
	for _, r := range runs {
		rep.Header = append(rep.Header, r.Name)
		rep.Series = append(rep.Series, r.Name)
		rep.Values = append(rep.Values, nil)
	}
	if paper {
		rep.Header = append(rep.Header, "paper LatFormer")
	}
	all := make([][2]int, len(runs))
	for _, c := range append(slices.Clone(datasets.Categories), datasets.CategoryNone) {
		if !present[c] {
			continue
		}
		row := []string{CategoryTitle[c]}
		_, inPaper := PaperTable2[c]
		if inPaper {
			rep.Labels = append(rep.Labels, CategoryTitle[c])
		}
		for i := range runs {
			s, ok := summaryOf(summaries[i], c)
			cell, f := "", math.NaN()
			if ok {
				cell, f = fmt.Sprintf("%d / %d (%.3f)", s.Solved, s.Tasks, s.Fraction()), s.Fraction()
				all[i][0], all[i][1] = all[i][0]+s.Solved, all[i][1]+s.Tasks
			}
			row = append(row, cell)
			if inPaper {
				rep.Values[i] = append(rep.Values[i], f)
			}
		}
		if paper {
			row = append(row, paperCell(c))
		}
		rep.Rows = append(rep.Rows, row)
	}
	row := []string{"all"}
	for _, a := range all {
		row = append(row, fmt.Sprintf("%d / %d (%.1f%%)", a[0], a[1], 100*float64(a[0])/float64(max(a[1], 1))))
	}
	if paper {
		row = append(row, "")
	}
	rep.Rows = append(rep.Rows, row)
	return rep
}

// paperCell is the paper's LatFormer fraction of category c, "" when Table 2 has none.
func paperCell(c datasets.Category) string {
	if p, ok := PaperTable2[c]; ok && p[0] > 0 {
		return fmt.Sprintf("%.3f", p[0])
	}
	return ""
}

// Determined returns, sorted, the tasks that the lattice search alone solves (alone: its results): the
// tasks whose training pairs determine the group element.
func Determined(alone map[string]Result) []string {
	var ids []string
	for id, r := range alone {
		if r.Solved {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// WriteDetermined writes, for each of runs, how many of the determined tasks (see Determined) it solves,
// on how many of them its hard gates fitted the training pairs, and the ids it misses.
func WriteDetermined(w io.Writer, determined []string, runs []LoadedRun) {
	fmt.Fprintf(w, "%d tasks determined by their training pairs\n", len(determined))
	for _, r := range runs {
		missed := []string{}
		hard := 0
		for _, id := range determined {
			res := r.Results[id]
			if !res.Solved {
				missed = append(missed, id)
			}
			if res.RestartsFitted > 0 && res.HardGates {
				hard++
			}
		}
		fmt.Fprintf(w, "  %-28s solves %d of them (its hard gates fit %d); misses %v\n", r.Name,
			len(determined)-len(missed), hard, missed)
	}
}

// WriteSources writes where the predictions of a search-started run come from: how many tasks the network
// predicted and the search's proposal predicted (Result.Source; an untrained task counts in neither), how
// many of each were solved, and how many
// the network's own prediction solves (Result.NetworkSolved).
func WriteSources(w io.Writer, run LoadedRun) {
	count := map[string]*[2]int{SourceNetwork: {}, SourceSearch: {}}
	netAlone := 0
	for _, r := range run.Results {
		if c := count[r.Source]; c != nil {
			c[0]++
			if r.Solved {
				c[1]++
			}
		}
		if r.NetworkSolved {
			netAlone++
		}
	}
	fmt.Fprintf(w, "%s: the network predicted %d tasks (%d solved), the search's proposal %d (%d solved); "+
		"the network alone would solve %d\n",
		run.Name, count[SourceNetwork][0], count[SourceNetwork][1],
		count[SourceSearch][0], count[SourceSearch][1], netAlone)
}

// BaselineTable is Table 2's baseline rows: on the tasks the baselines ran (those of the first of runs),
// latformer's results (its run) and each baseline's, per category, as "solved/run (fraction)" where the
// fraction is of the category's annotated tasks (totals), and a last column with the paper's numbers for the
// four categories (PaperTable2, PaperBaselines; "-" where the paper has none). names lists the baselines in
// their order; one without a run (runs are matched by Name) gets a row "not run" and no bars. It also returns
// the number of tasks the table counts.
func BaselineTable(latf LoadedRun, runs []LoadedRun, names []string, totals map[datasets.Category]int) (Table, int) {
	var ids []string
	if len(runs) > 0 {
		for id := range runs[0].Results {
			ids = append(ids, id)
		}
		sort.Strings(ids)
	}
	t := Table{Header: []string{"model"}}
	for _, c := range datasets.Categories {
		t.Header = append(t.Header, CategoryTitle[c])
		t.Labels = append(t.Labels, CategoryTitle[c])
	}
	t.Header = append(t.Header, "paper (Table 2)")
	addRow := func(name string, res map[string]Result, paper map[datasets.Category]float64) {
		row := []string{name}
		var vals []float64
		var ref []string
		summaries := Summarize(res, ids)
		for _, c := range datasets.Categories {
			text, f := "-", math.NaN() // not run on this category: no bar
			if s, ok := summaryOf(summaries, c); ok && totals[c] > 0 {
				f = float64(s.Solved) / float64(totals[c])
				text = fmt.Sprintf("%d/%d (%.3f)", s.Solved, s.Tasks, f)
			}
			cell := "-"
			if v, ok := paper[c]; ok {
				cell = fmt.Sprintf("%.3f", v)
			}
			row, vals, ref = append(row, text), append(vals, f), append(ref, cell)
		}
		t.Rows = append(t.Rows, append(row, strings.Join(ref, " / ")))
		t.Series, t.Values = append(t.Series, name), append(t.Values, vals)
	}
	paperLatf := map[datasets.Category]float64{}
	for c, p := range PaperTable2 {
		paperLatf[c] = p[0]
	}
	addRow(latf.Name, latf.Results, paperLatf)
	for _, name := range names {
		i := slices.IndexFunc(runs, func(r LoadedRun) bool { return r.Name == name })
		if i < 0 {
			t.Rows = append(t.Rows, append([]string{name, "not run"}, make([]string, len(datasets.Categories))...))
			continue
		}
		addRow(name, runs[i].Results, PaperBaselines[name])
	}
	return t, len(ids)
}
