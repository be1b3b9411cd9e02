// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
)

// Result is the outcome of one unit.
type Result struct {
	Experiment string
	Unit
	TaskName             string // datasets.SyntheticTask.Name, e.g. "rot90" or "translate(3,17)"
	Canvas               int
	TestExact, TestTotal int
	Accuracy             float64 // TestExact / TestTotal: the paper's per-task accuracy
	Fitted               bool    // the model predicts every training pair exactly
	Steps                int
	TrainExact           float64 // fraction of the last step's training canvases predicted exactly
	Seconds              float64
	Action               string // LatFormer: the group element its hard gates read on the first test input
}

// Header is the first line of a results CSV.
var Header = []string{"experiment", "model", "family", "task", "task_name", "num_train", "noise", "canvas",
	"test_exact", "test_total", "accuracy", "fitted", "steps", "train_exact", "seconds", "action"}

// Record is the CSV row of r.
func (r Result) Record() []string {
	return []string{r.Experiment, r.Model, string(r.Family), strconv.Itoa(r.Task), r.TaskName, strconv.Itoa(r.NumTrain),
		strconv.FormatFloat(r.Noise, 'g', -1, 64), strconv.Itoa(r.Canvas), strconv.Itoa(r.TestExact),
		strconv.Itoa(r.TestTotal), strconv.FormatFloat(r.Accuracy, 'f', 4, 64), strconv.FormatBool(r.Fitted),
		strconv.Itoa(r.Steps), strconv.FormatFloat(r.TrainExact, 'f', 4, 64),
		strconv.FormatFloat(r.Seconds, 'f', 2, 64), r.Action}
}

// resultsFormat is how the rows of Header are written and read (runner.Format), keyed by unit.
var resultsFormat = runner.Format[Result]{Header: Header, Record: Result.Record, Parse: parseRecord,
	Key: func(r Result) string { return r.Unit.key() }}

// ReadResults reads a results CSV. A line that does not parse (the cut last line of a killed run) is
// skipped: the rows of the other lines are returned with an error naming it.
func ReadResults(path string) ([]Result, error) { return resultsFormat.Read(path) }

// parseRecord parses a record of Header.
func parseRecord(rec []string) (Result, error) {
	var r Result
	var errs []error
	atoi := func(s string) int {
		v, err := strconv.Atoi(s)
		errs = append(errs, err)
		return v
	}
	atof := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		errs = append(errs, err)
		return v
	}
	r.Experiment, r.Model, r.Family = rec[0], rec[1], datasets.SyntheticFamily(rec[2])
	r.Task, r.TaskName, r.NumTrain, r.Noise, r.Canvas = atoi(rec[3]), rec[4], atoi(rec[5]), atof(rec[6]), atoi(rec[7])
	r.TestExact, r.TestTotal, r.Accuracy = atoi(rec[8]), atoi(rec[9]), atof(rec[10])
	fitted, err := strconv.ParseBool(rec[11])
	errs = append(errs, err)
	r.Fitted = fitted
	r.Steps, r.TrainExact, r.Seconds, r.Action = atoi(rec[12]), atof(rec[13]), atof(rec[14]), rec[15]
	if err := errors.Join(errs...); err != nil {
		return r, err
	}
	if r.TestTotal < 1 || r.TestExact < 0 || r.TestExact > r.TestTotal {
		return r, fmt.Errorf("test_exact %d of test_total %d", r.TestExact, r.TestTotal)
	}
	return r, nil
}

// Point is one point of a curve: the mean and the standard deviation over the tasks of a family of
// the test accuracy of a model trained on NumTrain pairs at noise level Noise.
type Point struct {
	Model    string
	Family   datasets.SyntheticFamily
	NumTrain int
	Noise    float64
	Mean     float64
	Std      float64 // population standard deviation over the tasks (the figure's shade)
	Tasks    int
	Seconds  float64 // mean seconds per unit
}

// Summarize groups the results by model, family, size and noise level, in the order of models and
// families given (others after, sorted), then size and noise.
func Summarize(results []Result, models []string, families []datasets.SyntheticFamily) []Point {
	type key struct {
		model  string
		family datasets.SyntheticFamily
		n      int
		w      float64
	}
	groups := map[key][]Result{}
	var keys []key
	for _, r := range results {
		k := key{r.Model, r.Family, r.NumTrain, r.Noise}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	rank := func(list []string, s string) int {
		if i := slices.Index(list, s); i >= 0 {
			return i
		}
		return len(list)
	}
	fams := make([]string, len(families))
	for i, f := range families {
		fams[i] = string(f)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := rank(models, a.model) - rank(models, b.model); c != 0 {
			return c
		}
		if c := strings.Compare(a.model, b.model); c != 0 {
			return c
		}
		if c := rank(fams, string(a.family)) - rank(fams, string(b.family)); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.family), string(b.family)); c != 0 {
			return c
		}
		if a.n != b.n {
			return a.n - b.n
		}
		return cmp.Compare(a.w, b.w)
	})
	out := make([]Point, len(keys))
	for i, k := range keys {
		rs := groups[k]
		p := Point{Model: k.model, Family: k.family, NumTrain: k.n, Noise: k.w, Tasks: len(rs)}
		for _, r := range rs {
			p.Mean += r.Accuracy
			p.Seconds += r.Seconds
		}
		p.Mean /= float64(len(rs))
		p.Seconds /= float64(len(rs))
		for _, r := range rs {
			p.Std += (r.Accuracy - p.Mean) * (r.Accuracy - p.Mean)
		}
		p.Std = math.Sqrt(p.Std / float64(len(rs)))
		out[i] = p
	}
	return out
}

// ExamplesToReach returns the number of training pairs at which the mean accuracy of model on family
// (noise 0) first reaches target, interpolating linearly in log2(size) between the measured sizes
// (the curve is taken to cross the target between the last size below it and the first size at or
// above it), and whether it does within the measured sizes.
func ExamplesToReach(points []Point, model string, family datasets.SyntheticFamily, target float64) (float64, bool) {
	var curve []Point
	for _, p := range points {
		if p.Model == model && p.Family == family && p.Noise == 0 {
			curve = append(curve, p)
		}
	}
	slices.SortFunc(curve, func(a, b Point) int { return a.NumTrain - b.NumTrain })
	for i, p := range curve {
		if p.Mean < target {
			continue
		}
		if i == 0 {
			return float64(p.NumTrain), true
		}
		q := curve[i-1]
		lq, lp := math.Log2(float64(q.NumTrain)), math.Log2(float64(p.NumTrain))
		frac := (target - q.Mean) / (p.Mean - q.Mean)
		return math.Exp2(lq + frac*(lp-lq)), true
	}
	return 0, false
}

// WriteTable writes the points as a Markdown table: one row per model and family, one column per size
// (sample efficiency) or noise level (noise), "mean ± std" in each cell.
func WriteTable(w io.Writer, points []Point, experiment string) {
	col := func(p Point) string {
		if experiment == Noise {
			return fmt.Sprintf("w=%g", p.Noise)
		}
		return strconv.Itoa(p.NumTrain)
	}
	var cols []string
	type rowKey struct {
		model  string
		family datasets.SyntheticFamily
	}
	var rows []rowKey
	cells := map[rowKey]map[string]string{}
	for _, p := range points {
		if c := col(p); !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		k := rowKey{p.Model, p.Family}
		if cells[k] == nil {
			cells[k] = map[string]string{}
			rows = append(rows, k)
		}
		cells[k][col(p)] = fmt.Sprintf("%.2f ± %.2f", p.Mean, p.Std)
	}
	if experiment != Noise {
		slices.SortFunc(cols, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	} else {
		slices.Sort(cols)
	}
	fmt.Fprintf(w, "| model | family | %s |\n|---|---|%s\n",
		strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, k := range rows {
		vals := make([]string, len(cols))
		for i, c := range cols {
			if vals[i] = cells[k][c]; vals[i] == "" {
				vals[i] = "—"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", k.model, k.family, strings.Join(vals, " | "))
	}
}

// PaperTable4 is the paper's Table 4: LatFormer's mean accuracy per family at each noise level w.
var PaperTable4 = map[float64]map[datasets.SyntheticFamily]float64{
	0.2: {datasets.FamilyTranslation: 0.91, datasets.FamilyRotation: 1.00, datasets.FamilyReflection: 1.00,
		datasets.FamilyScaling: 1.00},
	0.4: {datasets.FamilyTranslation: 0.89, datasets.FamilyRotation: 0.96, datasets.FamilyReflection: 0.96,
		datasets.FamilyScaling: 0.92},
	0.6: {datasets.FamilyTranslation: 0.62, datasets.FamilyRotation: 0.69, datasets.FamilyReflection: 0.68,
		datasets.FamilyScaling: 0.65},
}

// Compare compares the rows of a new results file with another's (the committed one), training run by
// training run: the same outcome when both predicted the same number of test pairs exactly
// (runner.Compare).
func Compare(newPath, oldPath string) (runner.Comparison, error) {
	return runner.Compare(resultsFormat, newPath, oldPath, func(r Result) string {
		return fmt.Sprintf("%d/%d test pairs exact", r.TestExact, r.TestTotal)
	})
}
