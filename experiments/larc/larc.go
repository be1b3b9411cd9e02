// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package larc is the LARC experiment of the paper (Section 5.3, Table 3): LatFormer on the geometric
// tasks of LARC's test split (Acquaviva et al. 2021), trained per task on the input-output pairs alone
// ("io") and with the embedding of the task's natural-language description fed to the mask experts'
// gates and to the FFN ("nl", LatFormer + NL).
//
// Tasks: the tasks of LARC's train/test split "test" that the committed annotation puts in a geometric
// category (annotate.Default) and that have a description; the description used is the
// task's best (datasets.LARCTask.BestDescription: verified, most successful builds). The text encoder is
// any textenc.Encoder: T5 (package t5) with its weights, or the offline stand-in textenc.BagOfWords
// fitted on the descriptions of LARC's training split. Both conditions train with the same settings
// and seeds through experiments/arc's Solver; the results CSV has one row per task and condition,
// written as they finish (Resume continues a cut run).
package larc

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/textenc"
)

// The conditions of Table 3's LatFormer rows.
const (
	ConditionIO = "io" // LatFormer: the input-output pairs only
	ConditionNL = "nl" // LatFormer + NL: and the description's embedding
)

// PaperTable3 holds the paper's Table 3 (solved fractions per category: translate, rotate, reflect,
// scale): the program-synthesis rows of Acquaviva et al. and LatFormer's two rows.
var PaperTable3 = []struct {
	Name   string
	Values [4]float64
}{
	{"LARC (IO)", [4]float64{0.17, 0.00, 0.42, 1.00}},
	{"LARC (IO + NL)", [4]float64{0.17, 0.00, 0.42, 1.00}},
	{"LARC (IO + NL pseudo)", [4]float64{0.25, 0.00, 0.42, 1.00}},
	{"LatFormer", [4]float64{0.33, 1.00, 0.50, 1.00}},
	{"LatFormer + NL", [4]float64{0.33, 1.00, 0.58, 1.00}},
}

// PaperSettings come before Options.Settings: Table 3 is the paper's protocol, the gates learning from the
// paper's initialization rather than starting at the lattice search's proposals (arcsolver.ParamGateInit),
// so that the text's conditioning is what the description row adds.
var PaperSettings = hparams.Settings{{Key: arcsolver.ParamGateInit, Value: arcsolver.GateInitPaper}}

// Options select the tasks and conditions of a run. The zero value of a field is its default.
type Options struct {
	DataDir string // holds arc/training and larc/; "" means datasets.DataDir("")
	// Conditions to run: ConditionIO and/or ConditionNL (default both).
	Conditions []string
	// Encoder embeds the descriptions (required with ConditionNL); wrap it in textenc.Cached to encode
	// each description once across runs.
	Encoder  textenc.Encoder
	Category string   // "all" (default) or one category
	Tasks    []string // explicit task ids among the selected ones (nil: all)
	Limit    int      // at most this many tasks, in id order (0: all); the quick mode
	Steps    int      // max training steps per task (0: the train_steps hyperparameter)
	// Options are the results file (default runs/larc-<date>-<time>.csv), the workers and the
	// hyperparameters (after PaperSettings).
	runner.Options
}

func (o Options) withDefaults(now time.Time) (Options, error) {
	if len(o.Conditions) == 0 {
		o.Conditions = []string{ConditionIO, ConditionNL}
	}
	for _, c := range o.Conditions {
		if c != ConditionIO && c != ConditionNL {
			return o, fmt.Errorf("condition must be %s or %s, got %q", ConditionIO, ConditionNL, c)
		}
		if c == ConditionNL && o.Encoder == nil {
			return o, fmt.Errorf("condition %s needs a text encoder", ConditionNL)
		}
	}
	if o.Category == "" {
		o.Category = "all"
	}
	valid := o.Category == "all"
	for _, c := range datasets.Categories {
		valid = valid || string(c) == o.Category
	}
	switch {
	case !valid:
		return o, fmt.Errorf("category must be one of all, translate, rotate, reflect, scale; got %q", o.Category)
	case o.Workers < 0 || o.Steps < 0 || o.Limit < 0:
		return o, fmt.Errorf("workers, steps and limit must be >= 0")
	case o.Resume && o.Force:
		return o, fmt.Errorf("resume and force contradict each other: " +
			"resume appends to the results file, force overwrites it")
	}
	o.Workers = max(o.Workers, 1)
	if o.Out == "" {
		if o.Resume {
			return o, fmt.Errorf("resume needs the results file to continue (Out)")
		}
		o.Out = filepath.Join("runs", "larc-"+now.Format("20060102-150405")+".csv")
	}
	if o.Steps > 0 {
		o.Settings = o.Settings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	}
	// Table 3 is the paper's protocol: the gates learn from the paper's initialization (before the
	// caller's settings, which may choose otherwise).
	o.Settings = PaperSettings.With(o.Settings...)
	if err := arcsolver.CheckSettings(latformer.LatFormerArchitecture(), o.Settings); err != nil {
		return o, err
	}
	return o, nil
}

// Task is a selected task with its category and description.
type Task struct {
	datasets.Task
	Category    datasets.Category
	Description datasets.LARCDescription
}

// Selection is what SelectTasks found: the tasks, and the descriptions of LARC's training split (the
// corpus a BagOfWords stand-in is fitted on).
type Selection struct {
	Tasks []Task
	// TrainDescriptions are the texts of every description of the training split's tasks.
	TrainDescriptions []string
}

// SelectTasks loads the LARC summary and the ARC training tasks of the test split's geometric subset.
func SelectTasks(o Options) (Selection, error) {
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return Selection{}, err
	}
	return selectTasks(o)
}

func selectTasks(o Options) (Selection, error) {
	dataDir, err := datasets.DataDir(o.DataDir)
	if err != nil {
		return Selection{}, err
	}
	larcDir, err := datasets.LARCDir(dataDir)
	if err != nil {
		return Selection{}, err
	}
	larcTasks, err := datasets.LoadLARC(larcDir)
	if err != nil {
		return Selection{}, err
	}
	annotations, err := annotate.Default()
	if err != nil {
		return Selection{}, err
	}
	var sel Selection
	wanted := map[string]bool{}
	for _, id := range o.Tasks {
		wanted[strings.TrimSuffix(strings.TrimSpace(id), ".json")] = true
	}
	var ids []string
	descs := map[string]datasets.LARCDescription{}
	for id, lt := range larcTasks {
		if lt.Split == "train" {
			for _, d := range lt.Descriptions {
				sel.TrainDescriptions = append(sel.TrainDescriptions, d.Text())
			}
		}
		cat := annotations[id].Category
		if lt.Split != "test" || cat == "" || cat == datasets.CategoryNone ||
			(o.Category != "all" && string(cat) != o.Category) {
			continue
		}
		if len(wanted) > 0 && !wanted[id] {
			continue
		}
		d, ok := lt.BestDescription()
		if !ok {
			continue
		}
		ids = append(ids, id)
		descs[id] = d
	}
	sort.Strings(sel.TrainDescriptions) // map order must not change a fitted encoder
	for id := range wanted {
		if _, ok := descs[id]; !ok {
			return Selection{}, fmt.Errorf("task %s is not a described geometric task of LARC's test split", id)
		}
	}
	sort.Strings(ids)
	if o.Limit > 0 && len(ids) > o.Limit {
		ids = ids[:o.Limit]
	}
	splitDir, err := datasets.ARCSplitDir(dataDir, "training")
	if err != nil {
		return Selection{}, err
	}
	tasks, err := datasets.LoadTasks(splitDir, ids)
	if err != nil {
		return Selection{}, err
	}
	for _, t := range tasks {
		sel.Tasks = append(sel.Tasks, Task{Task: t, Category: annotations[t.ID].Category, Description: descs[t.ID]})
	}
	return sel, nil
}

// Header is the results CSV's header: a row per task and condition; encoder names the text encoder of
// the nl rows; description_id is LARC's id of the description used; predictions the predicted test
// grids as JSON (experiments/arc's column).
var Header = []string{"id", "category", "condition", "encoder", "solved", "test_exact", "test_total", "steps",
	"seconds", "canvas", "predicted_action", "description_id", "predictions"}

// Result is one row.
type Result struct {
	ID            string
	Category      datasets.Category
	Condition     string
	Encoder       string
	Solved        bool
	TestExact     int
	TestTotal     int
	Steps         int
	Seconds       float64
	Canvas        int
	Action        string
	DescriptionID string
	Predictions   string // JSON, as written
}

func (r Result) key() string { return r.ID + "|" + r.Condition }

// Record is r's CSV record.
func (r Result) Record() []string {
	return []string{r.ID, string(r.Category), r.Condition, r.Encoder, strconv.FormatBool(r.Solved),
		strconv.Itoa(r.TestExact), strconv.Itoa(r.TestTotal), strconv.Itoa(r.Steps),
		strconv.FormatFloat(r.Seconds, 'f', 1, 64), strconv.Itoa(r.Canvas), r.Action, r.DescriptionID, r.Predictions}
}

// resultsFormat is how the rows of Header are written and read (runner.Format), keyed by task and
// condition.
var resultsFormat = runner.Format[Result]{Header: Header, Record: Result.Record, Parse: parseRecord, Key: Result.key}

// ReadResults reads a results CSV. A line that does not parse (the cut last line of an interrupted run)
// is skipped: the rows of the other lines are returned with an error naming it; a missing file or a
// wrong header returns no rows.
func ReadResults(path string) ([]Result, error) { return resultsFormat.Read(path) }

// Compare compares the rows of a new results file with another's (the committed one), task and condition
// by task and condition: the same outcome when both solved it or both did not (runner.Compare).
func Compare(newPath, oldPath string) (runner.Comparison, error) {
	return runner.Compare(resultsFormat, newPath, oldPath, func(r Result) string {
		if r.Solved {
			return "solved"
		}
		return "unsolved"
	})
}

// parseRecord parses a record of Header.
func parseRecord(rec []string) (Result, error) {
	var errs []error
	atoi := func(s string) int {
		v, err := strconv.Atoi(s)
		errs = append(errs, err)
		return v
	}
	solved, err := strconv.ParseBool(rec[4])
	errs = append(errs, err)
	secs, err := strconv.ParseFloat(rec[8], 64)
	errs = append(errs, err)
	r := Result{ID: rec[0], Category: datasets.Category(rec[1]), Condition: rec[2], Encoder: rec[3], Solved: solved,
		TestExact: atoi(rec[5]), TestTotal: atoi(rec[6]), Steps: atoi(rec[7]), Seconds: secs, Canvas: atoi(rec[9]),
		Action: rec[10], DescriptionID: rec[11], Predictions: rec[12]}
	if r.Condition != ConditionIO && r.Condition != ConditionNL {
		errs = append(errs, fmt.Errorf("condition %q", r.Condition))
	}
	return r, errors.Join(errs...)
}

// RunInfo describes a run about to start: the runner's Info (Units: task x condition) and the options.
type RunInfo struct {
	runner.Info
	Options Options
	Tasks   int // selected tasks
}

// Report receives a run's progress (runner.Report): Done per row, Error when a unit fails (the error
// names the task and condition; the run goes on) or a bad line of a resumed results file is dropped.
type Report = runner.Report[RunInfo, Result]

// Outcome is a run's results: every row of the selected tasks and conditions, resumed ones included.
type Outcome struct {
	Out       string
	Options   Options
	Selection Selection
	Results   []Result
	Elapsed   time.Duration
}

// unit is a task under a condition.
type unit struct {
	task      Task
	condition string
}

func (u unit) key() string { return u.task.ID + "|" + u.condition }

// Run embeds the selected tasks' descriptions (ConditionNL), then trains LatFormer on every task and
// condition and writes a row as each finishes (runner.Run: Resume skips the rows already in o.Out, and
// refuses nl rows of another encoder). The units are handed out largest canvas first, so that the
// workers finish together.
func Run(o Options, report Report) (Outcome, error) {
	defaultOut := o.Out == ""
	o, err := o.withDefaults(time.Now())
	if err != nil {
		return Outcome{}, err
	}
	sel, err := selectTasks(o)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Out: o.Out, Options: o, Selection: sel}
	cond, encoderName, err := embed(o, sel)
	if err != nil {
		return out, err
	}
	var units []unit
	for _, t := range sel.Tasks {
		for _, c := range o.Conditions {
			units = append(units, unit{t, c})
		}
	}
	run, err := runner.Run(runner.Spec[unit, Result]{
		Format: resultsFormat, Options: o.Options, DefaultOut: defaultOut,
		Units: units, Key: unit.key,
		Describe: func(u unit) string { return fmt.Sprintf("task %s (%s)", u.task.ID, u.condition) },
		Cost:     func(u unit) float64 { return float64(datasets.TaskCanvas(u.task.Task)) },
		Check: func(r Result, inRun bool) error {
			if inRun && r.Condition == ConditionNL && r.Encoder != encoderName {
				return fmt.Errorf("%s rows of encoder %s, this run uses %s", ConditionNL, r.Encoder, encoderName)
			}
			return nil
		},
		NewWorker: func(b compute.Backend) (runner.Worker[unit, Result], error) {
			w, err := newWorker(b, o, cond, encoderName)
			if err != nil {
				return nil, err
			}
			return w, nil
		},
		Report: report.Convert(func(info runner.Info) RunInfo {
			o.Out = info.Out
			return RunInfo{Info: info, Options: o, Tasks: len(sel.Tasks)}
		}),
	})
	out.Results, out.Elapsed = run.Results, run.Elapsed
	out.Out = cmp.Or(run.Out, out.Out)
	out.Options.Out = out.Out
	return out, err
}

// embed returns the embedding of each selected task's description by task id, and the encoder's name
// (none without ConditionNL).
func embed(o Options, sel Selection) (map[string][]float32, string, error) {
	if !slices.Contains(o.Conditions, ConditionNL) {
		return nil, "", nil
	}
	texts := make([]string, len(sel.Tasks))
	for i, t := range sel.Tasks {
		texts[i] = t.Description.Text()
	}
	vecs, err := o.Encoder.Embed(texts)
	if err != nil {
		return nil, "", fmt.Errorf("embedding the descriptions with %s: %w", o.Encoder.Name(), err)
	}
	cond := map[string][]float32{}
	for i, t := range sel.Tasks {
		cond[t.ID] = vecs[i]
	}
	return cond, o.Encoder.Name(), nil
}

// worker trains units on its own backend, with a Solver per condition (their graphs differ by the
// conditioning input).
type worker struct {
	solvers     map[string]*arc.Solver
	cond        map[string][]float32 // the descriptions' embeddings by task id
	encoderName string
}

func newWorker(b compute.Backend, o Options, cond map[string][]float32, encoderName string) (*worker, error) {
	w := &worker{solvers: map[string]*arc.Solver{}, cond: cond, encoderName: encoderName}
	for _, c := range o.Conditions {
		s, err := arc.NewSolver(b, arc.Options{Settings: o.Settings})
		if err != nil {
			w.Close()
			return nil, err
		}
		w.solvers[c] = s
	}
	return w, nil
}

func (w *worker) Do(u unit) (Result, error) {
	var c []float32
	if u.condition == ConditionNL {
		c = w.cond[u.task.ID]
	}
	res, err := w.solvers[u.condition].Solve(u.task.Task, c, nil)
	if err != nil {
		return Result{}, err
	}
	row := Result{ID: u.task.ID, Category: u.task.Category, Condition: u.condition, Solved: res.Solved,
		TestExact: res.TestExact, TestTotal: res.TestTotal, Steps: res.TotalSteps, Seconds: res.Seconds,
		Canvas: res.Canvas, Action: res.Action, DescriptionID: u.task.Description.ID,
		Predictions: arc.PredictionsJSON(res.Predictions)}
	if u.condition == ConditionNL {
		row.Encoder = w.encoderName
	}
	return row, nil
}

func (w *worker) Close() {
	for _, s := range w.solvers {
		s.Close()
	}
}

// Summary is a condition's solved counts per category.
type Summary struct {
	Condition string
	Encoder   string
	Solved    map[datasets.Category]int
	Tasks     map[datasets.Category]int
}

// Summarize counts the results per condition (in the order of conditions) and category.
func Summarize(results []Result, conditions []string) []Summary {
	var out []Summary
	for _, c := range conditions {
		s := Summary{Condition: c, Solved: map[datasets.Category]int{}, Tasks: map[datasets.Category]int{}}
		for _, r := range results {
			if r.Condition != c {
				continue
			}
			s.Tasks[r.Category]++
			if r.Solved {
				s.Solved[r.Category]++
			}
			if r.Encoder != "" {
				s.Encoder = r.Encoder
			}
		}
		out = append(out, s)
	}
	return out
}

// WriteTable prints Table 3: the paper's rows, then ours (solved/tasks and the fraction per category).
func WriteTable(w io.Writer, summaries []Summary) {
	fmt.Fprintf(w, "%-34s", "")
	for _, c := range datasets.Categories {
		fmt.Fprintf(w, " %18s", arc.CategoryTitle[c])
	}
	fmt.Fprintln(w)
	for _, row := range PaperTable3 {
		fmt.Fprintf(w, "%-34s", "paper: "+row.Name)
		for _, v := range row.Values {
			fmt.Fprintf(w, " %18.2f", v)
		}
		fmt.Fprintln(w)
	}
	for _, s := range summaries {
		name := "ours: LatFormer"
		if s.Condition == ConditionNL {
			name = "ours: LatFormer + NL (" + s.Encoder + ")"
		}
		fmt.Fprintf(w, "%-34s", name)
		for _, c := range datasets.Categories {
			if s.Tasks[c] == 0 {
				fmt.Fprintf(w, " %18s", "-")
				continue
			}
			fmt.Fprintf(w, " %18s",
				fmt.Sprintf("%.2f (%d/%d)", float64(s.Solved[c])/float64(s.Tasks[c]), s.Solved[c], s.Tasks[c]))
		}
		fmt.Fprintln(w)
	}
}
