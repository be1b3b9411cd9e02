// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
)

// Header is the header of the results CSV written by `latformer arc`, one row per task.
// seconds is the task's whole time (compiling included), compile_seconds the part spent building and
// compiling graphs (0 when the task reused another task's, see Solver). restarts is the number of
// training restarts run, restarts_fitted how many of them fitted the training pairs with hard gates,
// restart the one used for prediction (from 0; steps are its steps) and total_steps the steps of all;
// model is the architecture trained (latformer, or a baseline of package baselines); predictions
// the predicted test grids as JSON, a list with one grid ([[row], ...]) or null per test input (empty
// when there were none); source what made the predictions: "network" (the trained model) or "search"
// (the lattice search's top proposal: the lattice_search model, or search_fallback), lattice the lattice
// of the elements searched and of the mask experts trained: "canvas", or "grid" for the size-relative
// elements of search_lattices (both empty for a model without mask experts); network_solved whether the
// trained network's own predictions solve the task (false for the lattice_search model); search_solved
// whether the lattice search's top proposal solves it (with gate_init=search; empty when the search found
// no element or did not run), whoever predicted; network_action the element of the network's
// discretized gates (for the first test input) when the search ran, whoever predicted; soft_top the three
// elements the kept restart's soft gates make most probable (latformer.FitResult.SoftTop), " | " between them.
var Header = []string{"id", "category", "solved", "test_exact", "test_total", "size_only", "steps", "seconds",
	"canvas", "gates", "predicted_action", "compile_seconds",
	"restarts", "restarts_fitted", "restart", "total_steps", "model", "predictions", "source", "lattice",
	"network_solved", "search_solved", "network_action", "soft_top"}

// oldHeaders are the other headers ReadResults reads: the first 11, 12, 16, 17, 18, 21 or 23 columns of
// Header. A row of such a file reads as the current format with the missing columns filled in:
// compile_seconds 0; restarts 1, restarts_fitted 0, restart 0 and total_steps equal to steps (one training
// run); model latformer; no predictions; source "search" for the lattice_search model, else "network";
// lattice empty; network_solved as solved, false for lattice_search; search_solved and soft_top empty
// (parseRecord). A resumed run rewrites such a file in the current format before appending to it (runner.Run).
var oldHeaders = [][]string{Header[:11], Header[:12], Header[:16], Header[:17], Header[:18], Header[:21], Header[:23]}

// resultsFormat is how the rows of Header are written and read (runner.Format), a task's key its id.
var resultsFormat = runner.Format[Result]{Header: Header, OldHeaders: oldHeaders, Record: Result.Record,
	Parse: parseRecord, Key: func(r Result) string { return r.ID }}

// PaperTable2 holds the paper's Table 2 for reference: the solved fractions of LatFormer and of the
// best search over a hand-engineered DSL, per category.
var PaperTable2 = map[datasets.Category][2]float64{
	datasets.CategoryTranslate: {0.365, 0.673},
	datasets.CategoryRotate:    {0.800, 0.400},
	datasets.CategoryReflect:   {0.591, 0.614},
	datasets.CategoryScale:     {0.545, 0.727},
}

// PaperBaselines holds the paper's Table 2 rows of the neural baselines, keyed by the name of our
// baseline (package baselines, `latformer arc --model NAME`): the solved fraction per category. A
// category the row leaves out ("-" in the paper: the Transformer with augmentation on translations) has
// no entry. The paper has one row for each attention (absolute and relative positions, the same numbers).
var PaperBaselines = map[string]map[datasets.Category]float64{
	"cnn":             paperRow(0.019, 0, 0, 0),
	"attention_abs":   paperRow(0.019, 0, 0.023, 0),
	"attention_rel":   paperRow(0.019, 0, 0.023, 0),
	"pixelcnn":        paperRow(0.019, 0, 0, 0),
	"transformer":     paperRow(0.038, 0, 0.045, 0),
	"transformer_aug": {datasets.CategoryRotate: 0.200, datasets.CategoryReflect: 0.184, datasets.CategoryScale: 0.091},
	"dnc":             paperRow(0.038, 0, 0.045, 0),
}

// paperRow is a Table 2 row with all four categories, in the paper's column order.
func paperRow(translate, rotate, reflect, scale float64) map[datasets.Category]float64 {
	return map[datasets.Category]float64{datasets.CategoryTranslate: translate, datasets.CategoryRotate: rotate,
		datasets.CategoryReflect: reflect, datasets.CategoryScale: scale}
}

// CategoryTitle is the paper's column title of a category.
var CategoryTitle = map[datasets.Category]string{
	datasets.CategoryTranslate: "Translate", datasets.CategoryRotate: "Rotate + Translate",
	datasets.CategoryReflect: "Reflect + Translate", datasets.CategoryScale: "Scale + Translate",
	datasets.CategoryNone: "(not annotated)",
}

// Record returns the CSV record of r (see Header).
func (r Result) Record() []string {
	gates := "soft"
	if r.HardGates {
		gates = "hard"
	}
	searchSolved := ""
	if r.HasProposal {
		searchSolved = strconv.FormatBool(r.SearchSolved)
	}
	return []string{r.ID, string(r.Category), strconv.FormatBool(r.Solved), strconv.Itoa(r.TestExact),
		strconv.Itoa(r.TestTotal), strconv.Itoa(r.SizeOnly), strconv.Itoa(r.Steps),
		strconv.FormatFloat(r.Seconds, 'f', 1, 64), strconv.Itoa(r.Canvas), gates, r.Action,
		strconv.FormatFloat(r.Compile.Seconds(), 'f', 2, 64),
		strconv.Itoa(r.Restarts), strconv.Itoa(r.RestartsFitted), strconv.Itoa(r.Restart), strconv.Itoa(r.TotalSteps),
		r.Model, PredictionsJSON(r.Predictions), r.Source, r.Lattice, strconv.FormatBool(r.NetworkSolved), searchSolved,
		r.NetworkAction, strings.Join(r.SoftTop, SoftTopSeparator)}
}

// SoftTopSeparator separates the elements of the soft_top column.
const SoftTopSeparator = " | "

// PredictionsJSON is the predictions column: the grids as JSON, "" for none.
func PredictionsJSON(grids []datasets.Grid) string {
	if len(grids) == 0 {
		return ""
	}
	data, err := json.Marshal(grids)
	if err != nil { // [][]int always marshals
		panic(err)
	}
	return string(data)
}

// ErrOldResults is returned (wrapped) by ReadResults for a file with one of the shorter headers
// (oldHeaders): its rows are read all the same (the missing columns filled in), but rows of the
// current format must not be appended to it.
var ErrOldResults = runner.ErrOldFormat

// ReadResults reads a results CSV (as written by `latformer arc`), keyed by task id (the last row of an
// id if there are several). A malformed line (e.g. the partial last line of an interrupted run) is
// skipped: the rows of the other lines are returned with an error naming it.
func ReadResults(path string) (map[string]Result, error) {
	rows, err := resultsFormat.Read(path)
	if rows == nil {
		return nil, err
	}
	byID := make(map[string]Result, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	return byID, err
}

// ReadResultsFor reads a results CSV for a table or a figure (as ReadResults) and says, in one line for the
// table's reader, what its rows leave out: "" when every row was read (a file in an older format too: its
// rows are read all the same); otherwise the path and why — not run yet (no such file; command is what
// makes it), unreadable (no rows: another header, a permission, ...), no rows yet (an empty file), or the
// lines skipped (the rows of the other lines are returned). The rows are nil when there are none, so a
// table leaves the file's column out and prints the line instead of showing nothing without a word.
func ReadResultsFor(path, command string) (map[string]Result, string) {
	rows, err := ReadResults(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Sprintf("%s: not run yet (%s writes it)", path, command)
	case rows == nil && err != nil:
		return nil, fmt.Sprintf("%s: unreadable: %v", path, err)
	case len(rows) == 0:
		return nil, fmt.Sprintf("%s: no rows yet (%s writes them)", path, command)
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	var skipped []string
	for _, e := range errs {
		if e != nil && !errors.Is(e, ErrOldResults) {
			skipped = append(skipped, e.Error())
		}
	}
	if len(skipped) > 0 {
		return rows, fmt.Sprintf("%s: %d line(s) skipped, the other %d rows read: %s",
			path, len(skipped), len(rows), strings.Join(skipped, "; "))
	}
	return rows, ""
}

// CategorySummary aggregates results of one category.
type CategorySummary struct {
	Category                datasets.Category
	Tasks, Solved, SizeOnly int
	Seconds                 float64
}

// Fraction is the solved fraction.
func (s CategorySummary) Fraction() float64 {
	if s.Tasks == 0 {
		return 0
	}
	return float64(s.Solved) / float64(s.Tasks)
}

// Summarize aggregates results per category, in the order of datasets.Categories followed by "none"
// (categories without results are left out). ids restricts the results to those tasks (nil: all).
func Summarize(results map[string]Result, ids []string) []CategorySummary {
	per := map[datasets.Category]*CategorySummary{}
	add := func(r Result) {
		s := per[r.Category]
		if s == nil {
			s = &CategorySummary{Category: r.Category}
			per[r.Category] = s
		}
		s.Tasks++
		s.Seconds += r.Seconds
		if r.Solved {
			s.Solved++
		} else if r.SizeOnly > 0 {
			s.SizeOnly++
		}
	}
	if ids == nil {
		for _, r := range results {
			add(r)
		}
	} else {
		for _, id := range ids {
			if r, ok := results[id]; ok {
				add(r)
			}
		}
	}
	var out []CategorySummary
	for _, c := range append(append([]datasets.Category{}, datasets.Categories...), datasets.CategoryNone) {
		if s := per[c]; s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// WriteTable writes the summaries in the shape of the paper's Table 2, with the paper's numbers.
func WriteTable(w io.Writer, summaries []CategorySummary) { WriteModelTable(w, summaries, "latformer") }

// WriteModelTable is WriteTable for the results of model (a --model name): for a baseline with a row
// in the paper (PaperBaselines) it adds that row as a last column, "-" where the paper has none.
func WriteModelTable(w io.Writer, summaries []CategorySummary, model string) {
	baseline, hasRow := PaperBaselines[model]
	fmt.Fprintf(w, "%-22s %6s %7s %8s %10s %12s %12s",
		"category", "tasks", "solved", "fraction", "size-only", "paper LatF.", "paper DSL")
	if hasRow {
		fmt.Fprintf(w, " %16s", "paper "+model)
	}
	fmt.Fprintln(w)
	for _, s := range summaries {
		paper := PaperTable2[s.Category]
		ref := [2]string{"-", "-"}
		if paper[0] > 0 {
			ref = [2]string{fmt.Sprintf("%.3f", paper[0]), fmt.Sprintf("%.3f", paper[1])}
		}
		fmt.Fprintf(w, "%-22s %6d %7d %8.3f %10d %12s %12s",
			CategoryTitle[s.Category], s.Tasks, s.Solved, s.Fraction(), s.SizeOnly, ref[0], ref[1])
		if hasRow {
			cell := "-"
			if v, ok := baseline[s.Category]; ok {
				cell = fmt.Sprintf("%.3f", v)
			}
			fmt.Fprintf(w, " %16s", cell)
		}
		fmt.Fprintln(w)
	}
}

// parseRecord parses one CSV record of Header or of one of oldHeaders (its length says which), with an
// error naming the bad column.
func parseRecord(rec []string) (Result, error) {
	columns := len(rec)
	if columns < len(oldHeaders[0]) || columns > len(Header) {
		return Result{}, fmt.Errorf("%d columns, want %d", len(rec), len(Header))
	}
	var firstErr error
	atoi := func(col int) int {
		v, err := strconv.Atoi(rec[col])
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %q is not an integer", Header[col], rec[col])
		}
		return v
	}
	boolean := func(col int) bool {
		v, err := strconv.ParseBool(rec[col])
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %q is not true or false", Header[col], rec[col])
		}
		return v
	}
	secs, err := strconv.ParseFloat(rec[7], 64)
	if err != nil {
		firstErr = fmt.Errorf("column %s: %q is not a number", Header[7], rec[7])
	}
	if rec[9] != "hard" && rec[9] != "soft" && firstErr == nil {
		firstErr = fmt.Errorf("column %s: %q is neither hard nor soft", Header[9], rec[9])
	}
	r := Result{Category: datasets.Category(rec[1]),
		ID: rec[0], Solved: boolean(2), TestExact: atoi(3), TestTotal: atoi(4), SizeOnly: atoi(5),
		Seconds: secs, Canvas: atoi(8), Action: rec[10]}
	r.Steps, r.HardGates = atoi(6), rec[9] == "hard"
	if columns > 11 {
		compile, err := strconv.ParseFloat(rec[11], 64)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %q is not a number", Header[11], rec[11])
		}
		r.Compile = time.Duration(compile * float64(time.Second))
	}
	r.Restarts, r.TotalSteps = 1, r.Steps
	if columns > 12 {
		r.Restarts, r.RestartsFitted, r.Restart, r.TotalSteps = atoi(12), atoi(13), atoi(14), atoi(15)
	}
	r.Model = "latformer"
	if columns > 16 {
		r.Model = rec[16]
	}
	if columns > 17 && rec[17] != "" {
		if err := json.Unmarshal([]byte(rec[17]), &r.Predictions); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: not a JSON list of grids: %v", Header[17], err)
		}
	}
	r.Source, r.NetworkSolved = SourceNetwork, r.Solved
	if r.Model == LatticeSearch {
		r.Source, r.NetworkSolved = SourceSearch, false
	}
	if columns > 20 {
		r.Source, r.Lattice, r.NetworkSolved = rec[18], rec[19], boolean(20)
		if r.Source != SourceNetwork && r.Source != SourceSearch && r.Source != "" && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %q is neither %s nor %s",
				Header[18], rec[18], SourceNetwork, SourceSearch)
		}
	}
	if columns > 21 && rec[21] != "" {
		r.HasProposal, r.SearchSolved = true, boolean(21)
	}
	if columns > 22 {
		r.NetworkAction = rec[22]
	}
	if columns > 23 && rec[23] != "" {
		r.SoftTop = strings.Split(rec[23], SoftTopSeparator)
	}
	if rec[0] == "" && firstErr == nil {
		firstErr = fmt.Errorf("empty task id")
	}
	return r, firstErr
}

// Compare compares the rows of a new results file with another's (the committed one), task by task: the
// same outcome when both solved the task or both did not (runner.Compare).
func Compare(newPath, oldPath string) (runner.Comparison, error) {
	return runner.Compare(resultsFormat, newPath, oldPath, func(r Result) string {
		if r.Solved {
			return "solved"
		}
		return "unsolved"
	})
}
