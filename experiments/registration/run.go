// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package registration

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/resultsfile"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// Conditions: LatFormer's input is the window of A itself ("raw": it learns the intensity transform as
// its per-cell function f) or of T(A) ("oracle": the modality already translated, the analogue of the
// paper's rows with a modality-translation network, here a perfect one).
const (
	Raw    = "raw"
	Oracle = "oracle"
)

// Settings are LatFormer's hyperparameters for registration, before Options.Settings: only the
// translation expert (the pairs differ by a translation) with circular shifts and its gates starting at
// 1/2 (the paper's; on 3 windows of seed 1 it found more translations than the ARC default, near the
// identity, raw and oracle: docs/registration.md), no
// color augmentation (the levels are ordered intensities and f is not a color permutation: permuting them
// would ask for a different f in every copy), 300 steps and 3 restarts. Cells that enter a patch from
// outside it cannot be predicted, so no restart fits its pairs exactly and all three run; the kept one
// has the lowest final loss. The gates start at the paper's initialization (gate_init=paper): Table 5 is
// the paper's protocol.
var Settings = hparams.Settings{
	{Key: experts.ParamExperts, Value: "translation"},
	{Key: experts.ParamZeroFill, Value: false},
	{Key: experts.ParamTranslationGateInit, Value: 0.0},
	{Key: latformer.ParamAugment, Value: 1},
	{Key: latformer.ParamRestarts, Value: 3},
	{Key: latformer.ParamMaxCells, Value: 0},
	{Key: latformer.ParamSteps, Value: 300},
	{Key: arcsolver.ParamGateInit, Value: arcsolver.GateInitPaper},
}

// Options describe a registration run.
type Options struct {
	PairOptions
	Conditions []string // Raw and/or Oracle (default both)
	// Export writes the pairs for the reference script to this directory (Export) before training ("":
	// not written).
	Export string
	// Options are the results file (default runs/registration-<date>-<time>.csv), the workers and the
	// hyperparameters (after Settings).
	runner.Options
}

// Result is the registration of one pair under one condition.
type Result struct {
	ID         int
	Image      string
	Condition  string
	Modality   string
	Window     int
	DR, DC     int // true translation
	EstDR      int // estimated
	EstDC      int
	RelError   float64
	Success    bool
	Steps      int
	CellsRight float64 // fraction of the training patches' cells the model predicts right
	Seconds    float64
	Action     string
}

// Header is the first line of a results CSV.
var Header = []string{"id", "image", "condition", "modality", "window", "dr", "dc", "est_dr", "est_dc",
	"rel_error", "success", "steps", "cells_right", "seconds", "action"}

// Record is r's CSV row.
func (r Result) Record() []string {
	return []string{strconv.Itoa(r.ID), r.Image, r.Condition, r.Modality, strconv.Itoa(r.Window),
		strconv.Itoa(r.DR), strconv.Itoa(r.DC), strconv.Itoa(r.EstDR), strconv.Itoa(r.EstDC),
		strconv.FormatFloat(r.RelError, 'f', 4, 64), strconv.FormatBool(r.Success), strconv.Itoa(r.Steps),
		strconv.FormatFloat(r.CellsRight, 'f', 4, 64), strconv.FormatFloat(r.Seconds, 'f', 2, 64), r.Action}
}

// resultsFormat is how the rows of Header are written and read (runner.Format), keyed by pair and
// condition.
var resultsFormat = runner.Format[Result]{Header: Header, Record: Result.Record, Parse: parseRecord, Key: Result.key}

func (r Result) key() string { return strconv.Itoa(r.ID) + "|" + r.Condition }

// ReadResults reads a results CSV (LatFormer's rows). A line that does not parse is skipped: the rows of
// the other lines are returned with an error naming it.
func ReadResults(path string) ([]Result, error) { return resultsFormat.Read(path) }

// Compare compares the rows of a new results file with another's (the committed one), registration by
// registration: the same outcome when both estimated the same translation (runner.Compare).
func Compare(newPath, oldPath string) (runner.Comparison, error) {
	return runner.Compare(resultsFormat, newPath, oldPath, func(r Result) string {
		ok := "fail"
		if r.Success {
			ok = "success"
		}
		return fmt.Sprintf("estimated (%d,%d), %s", r.EstDR, r.EstDC, ok)
	})
}

// parseRecord parses a record of Header.
func parseRecord(rec []string) (Result, error) {
	var r Result
	var errs []error
	atoi := func(s string) int { v, err := strconv.Atoi(s); errs = append(errs, err); return v }
	atof := func(s string) float64 { v, err := strconv.ParseFloat(s, 64); errs = append(errs, err); return v }
	r.ID, r.Image, r.Condition, r.Modality, r.Window = atoi(rec[0]), rec[1], rec[2], rec[3], atoi(rec[4])
	r.DR, r.DC, r.EstDR, r.EstDC, r.RelError = atoi(rec[5]), atoi(rec[6]), atoi(rec[7]), atoi(rec[8]), atof(rec[9])
	ok, err := strconv.ParseBool(rec[10])
	errs = append(errs, err)
	r.Success, r.Steps, r.CellsRight, r.Seconds, r.Action = ok, atoi(rec[11]), atof(rec[12]), atof(rec[13]), rec[14]
	return r, errors.Join(errs...)
}

// RunInfo describes a run about to start: the runner's Info (Units: pairs x conditions) and the options.
type RunInfo struct {
	runner.Info
	Options Options
}

// Report receives a run's progress (runner.Report): Done per row, Error when a registration fails (the
// error names the pair and condition; the run goes on) or a bad line of a resumed results file is dropped.
type Report = runner.Report[RunInfo, Result]

// Outcome is what a run produced (resumed rows included).
type Outcome struct {
	Out     string
	Results []Result
	Elapsed time.Duration
}

// withDefaults returns o with its defaults filled in, and the settings LatFormer trains with (Settings,
// then o.Settings), or an error naming the bad option.
func (o Options) withDefaults(now time.Time) (Options, hparams.Settings, error) {
	if len(o.Conditions) == 0 {
		o.Conditions = []string{Raw, Oracle}
	}
	for _, c := range o.Conditions {
		if c != Raw && c != Oracle {
			return o, nil, fmt.Errorf("condition must be %s or %s, got %q", Raw, Oracle, c)
		}
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	switch {
	case o.Workers < 1:
		return o, nil, fmt.Errorf("workers must be >= 1, got %d", o.Workers)
	case o.Resume && o.Force:
		return o, nil, fmt.Errorf("resume and force contradict each other")
	case o.Out == "" && o.Resume:
		return o, nil, fmt.Errorf("resume needs the results file to continue (Out)")
	case o.Out == "":
		o.Out = filepath.Join("runs", "registration-"+now.Format("20060102-150405")+".csv")
	}
	settings := Settings.With(o.Settings...)
	if err := arcsolver.CheckSettings(latformer.LatFormerArchitecture(), settings); err != nil {
		return o, nil, err
	}
	var err error
	o.PairOptions, err = o.PairOptions.withDefaults()
	return o, settings, err
}

// job is the registration of a pair under a condition.
type job struct {
	pair Pair
	cond string
}

func (j job) key() string { return strconv.Itoa(j.pair.ID) + "|" + j.cond }

// Run registers every pair under every condition with a fresh LatFormer each, one CSV row per
// registration as it finishes (runner.Run: Resume skips the rows already in o.Out and refuses a file
// whose pairs differ from these).
func Run(o Options, report Report) (Outcome, error) {
	defaultOut := o.Out == ""
	o, settings, err := o.withDefaults(time.Now())
	if err != nil {
		return Outcome{}, err
	}
	pairs, err := MakePairs(o.PairOptions)
	if err != nil {
		return Outcome{}, err
	}
	if o.Export != "" {
		if err := Export(o.Export, pairs); err != nil {
			return Outcome{}, err
		}
	}
	var jobs []job
	for _, p := range pairs {
		for _, c := range o.Conditions {
			jobs = append(jobs, job{p, c})
		}
	}
	run, err := runner.Run(runner.Spec[job, Result]{
		Format: resultsFormat, Options: o.Options, DefaultOut: defaultOut,
		Units: jobs, Key: job.key,
		Describe: func(j job) string { return fmt.Sprintf("pair %d (%s)", j.pair.ID, j.cond) },
		Check: func(r Result, _ bool) error {
			if r.ID < len(pairs) && (pairs[r.ID].DR != r.DR || pairs[r.ID].DC != r.DC || pairs[r.ID].Image != r.Image) {
				return fmt.Errorf("pair %d of other options (image %s, shift %d,%d)", r.ID, r.Image, r.DR, r.DC)
			}
			return nil
		},
		NewWorker: func(b compute.Backend) (runner.Worker[job, Result], error) {
			solver, err := arcsolver.New(b, settings, arcsolver.Options{Reuse: true})
			if err != nil {
				return nil, err
			}
			return worker{solver, o.Patch}, nil
		},
		Report: report.Convert(func(info runner.Info) RunInfo {
			o.Out = info.Out
			return RunInfo{Info: info, Options: o}
		}),
	})
	return Outcome{Out: cmp.Or(run.Out, o.Out), Results: run.Results, Elapsed: run.Elapsed}, err
}

// worker registers pairs with its solver (its own backend) on patches of side patch.
type worker struct {
	solver *arcsolver.Solver
	patch  int
}

func (w worker) Do(j job) (Result, error) { return register(w.solver, j.pair, j.cond, w.patch) }

func (w worker) Close() { w.solver.Close() }

// register solves the patches of one pair with a fresh LatFormer (arcsolver.Solver: the patches are its
// training pairs and its test inputs) and reads the translation from the solution's element.
func register(solver *arcsolver.Solver, p Pair, cond string, s int) (Result, error) {
	start := time.Now()
	ins, outs := p.Patches(s, cond == Oracle)
	examples := make([]latformer.Example, len(ins))
	for i := range ins {
		examples[i] = latformer.Example{Input: ins[i], Output: outs[i]}
	}
	sol, err := solver.Solve(examples, examples, nil)
	if err != nil {
		return Result{}, err
	}
	right, total := 0, 0
	for i, pr := range sol.Predictions {
		for c := range outs[i].Cells {
			if pr != nil && pr.Cells[c] == outs[i].Cells[c] {
				right++
			}
			total++
		}
	}
	dr, dc, err := Displacement(sol.Action, s)
	if err != nil {
		return Result{}, err
	}
	w := len(p.A)
	r := Result{ID: p.ID, Image: p.Image, Condition: cond, Modality: p.Modality, Window: w, DR: p.DR, DC: p.DC,
		EstDR: dr, EstDC: dc, Steps: sol.Fit.Steps, CellsRight: float64(right) / float64(total),
		Action: fmt.Sprint(sol.Action)}
	r.RelError = RelativeError(p.DR, p.DC, dr, dc, w)
	r.Success = r.RelError < SuccessThreshold
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Displacement reads the translation an action applies on an s x s canvas: where it moves one cell (the
// center, or for a zero-fill shift that drops the center, the first cell in row order it keeps), as a
// signed offset in [-s/2, s/2) per axis (a circular translation by s-1 is a shift by -1).
func Displacement(a lattice.Action, s int) (dr, dc int, err error) {
	if a == nil {
		return 0, 0, fmt.Errorf("the model has no gates to read a translation from")
	}
	signed := func(d int) int {
		d = ((d % s) + s) % s
		if d >= s/2 {
			d -= s
		}
		return d
	}
	c := datasets.Canvas{Rows: s, Cols: s, Cells: make([]int32, s*s)}
	center := (s/2)*s + s/2
	for i := -1; i < s*s; i++ {
		from := i
		if i < 0 {
			from = center
		}
		clear(c.Cells)
		c.Cells[from] = 1
		moved, err := datasets.ApplyAction(a, c)
		if err != nil {
			return 0, 0, err
		}
		if to := slices.Index(moved.Cells, 1); to >= 0 {
			return signed(to/s - from/s), signed(to%s - from%s), nil
		}
	}
	return 0, 0, fmt.Errorf("%v moves every cell off the canvas", a)
}

// Summary is the success rate of one condition.
type Summary struct {
	Condition        string
	Pairs, Successes int
	MeanSeconds      float64
	MeanCellsRight   float64
}

// Summarize returns the success rate per condition, in the order Raw, Oracle.
func Summarize(results []Result) []Summary {
	var out []Summary
	for _, cond := range []string{Raw, Oracle} {
		s := Summary{Condition: cond}
		for _, r := range results {
			if r.Condition != cond {
				continue
			}
			s.Pairs++
			if r.Success {
				s.Successes++
			}
			s.MeanSeconds += r.Seconds
			s.MeanCellsRight += r.CellsRight
		}
		if s.Pairs > 0 {
			s.MeanSeconds /= float64(s.Pairs)
			s.MeanCellsRight /= float64(s.Pairs)
			out = append(out, s)
		}
	}
	return out
}

// ReferenceMethods are the methods of the reference script, in the order of the table.
var ReferenceMethods = []string{"phase_correlation", "sift"}

// ReadReference reads the CSV of scripts/registration_reference.py (id, condition, method, est_dr,
// est_dc, rel_error, success) into successes and registrations per "condition|method".
func ReadReference(path string) (map[string][2]int, error) {
	records, err := resultsfile.Read(path, []string{"id", "condition", "method", "est_dr", "est_dc", "rel_error",
		"success"})
	if err != nil {
		return nil, fmt.Errorf("%w (not a file of scripts/registration_reference.py?)", err)
	}
	out := map[string][2]int{}
	for i, rec := range records {
		if len(rec) != 7 {
			return nil, fmt.Errorf("%s line %d: %d fields, want 7", path, i+2, len(rec))
		}
		k := rec[1] + "|" + rec[2]
		c := out[k]
		c[1]++
		if rec[6] == "True" || rec[6] == "true" || rec[6] == "1" {
			c[0]++
		}
		out[k] = c
	}
	return out, nil
}

// ConditionTitle describes the conditions in tables.
var ConditionTitle = map[string]string{
	Raw:    "A → B (no modality translation)",
	Oracle: "T(A) → B (a perfect modality translation)",
}

// WriteTable writes the success rates (%) per condition: the reference methods (refs, from
// ReadReference; empty: not shown) and LatFormer.
func WriteTable(w io.Writer, results []Result, refs map[string][2]int) {
	header := "| input → target | pairs |"
	sep := "|---|---|"
	if len(refs) > 0 {
		for _, m := range ReferenceMethods {
			header += " " + m + " |"
			sep += "---|"
		}
	}
	fmt.Fprintf(w, "%s LatFormer | LatFormer cells right | s per pair |\n%s---|---|---|\n", header, sep)
	for _, s := range Summarize(results) {
		row := fmt.Sprintf("| %s | %d |", ConditionTitle[s.Condition], s.Pairs)
		if len(refs) > 0 {
			for _, m := range ReferenceMethods {
				if c := refs[s.Condition+"|"+m]; c[1] > 0 {
					row += fmt.Sprintf(" %.1f%% (%d/%d) |", 100*float64(c[0])/float64(c[1]), c[0], c[1])
				} else {
					row += " — |"
				}
			}
		}
		fmt.Fprintf(w, "%s **%.1f%%** (%d/%d) | %.3f | %.1f |\n", row, 100*float64(s.Successes)/float64(s.Pairs),
			s.Successes, s.Pairs, s.MeanCellsRight, s.MeanSeconds)
	}
}
