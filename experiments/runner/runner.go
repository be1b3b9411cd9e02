// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package runner runs the units of work of an experiment (an ARC task, a task under a condition, a
// training run, a registration) on a few workers and keeps their results in a CSV file, one row per
// finished unit, written as it finishes: an interrupted run loses nothing and a resumed one continues it.
// Each experiment supplies what differs (Spec): its units and their keys, its row (Format: record and
// parse), its worker (the work of one unit, on the worker's own state) and what it checks on resumed
// rows. The contract:
//
//   - Units and keys: Spec.Units are the run's units, Spec.Key names each (the keys are distinct), and
//     Format.Key names the unit a row belongs to. A unit is done when the file holds a row of its key.
//   - The results file (Spec.Out): a new file is created with the header; an existing one is an error
//     unless Spec.Resume (append) or Spec.Force (truncate). When Out is a default name (Spec.DefaultOut),
//     a taken name is no error: the run creates Out with -2, -3, ... before its extension instead, each
//     name exclusively, so runs started in the same second never share a file (Info.Out, Outcome.Out).
//   - Resume: the rows already in the file are read (Format.Read). A line that does not parse is
//     reported (Report.Error) and dropped, the rows of the other lines kept, the file rewritten without
//     it (and in the current format if its header is one of Format.OldHeaders), and its unit runs again.
//     Spec.Check sees every row first and may refuse the file (rows of another model, other options): the
//     run then stops before any work. Rows of units outside the run stay in the file.
//   - Workers: Spec.Workers workers, each with a GoMLX backend of its own (made by Spec.NewBackend, the
//     program's choice) on which Spec.NewWorker makes its state (solver, caches), run one unit at a time
//     and are closed at the end.
//   - Order: the units not done are handed out in the order of Spec.Units, or by decreasing Spec.Cost
//     (ties in that order), so that the workers finish together rather than one starting the largest last.
//   - Rows: a finished unit's row is written and flushed before Report.Done, so a run killed afterwards
//     keeps it. A unit that fails is reported (Report.Error) and the others go on; Run returns the first
//     error at the end.
//   - Shards: with a Sharding (Spec.Sharding, e.g. from the command line's --shard) only the units of one
//     shard run (Partition, by Key and Cost), and a run file beside the results file (RunFilePath) names
//     the run (runmeta.Meta), its units and shards, and the key of every row; a resumed shard refuses a
//     file of another run or shard. Merge checks the files of a run's shards and joins them into one.
//
// The experiments share two shapes around Run: their options embed Options (the results file, the
// workers, the shard, the settings), and their Run takes a Report whose Start sees Info inside the
// experiment's own start info (Report.Convert).
//
// A unit's result must not depend on the order or the worker: the same units give the same rows with
// any number of workers, and a resumed run the rows of an uninterrupted one.
package runner

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/resultsfile"
	"github.com/latformer/latformer/internal/workpool"
)

// Worker runs units one at a time on its own state.
type Worker[U, R any] interface {
	// Do runs one unit and returns its row.
	Do(unit U) (R, error)
	// Close releases the worker's state (backends, compiled graphs) after the run.
	Close()
}

// Spec describes a run: the units, the results file and the workers. Cost, Check and the Report's
// functions may be nil.
type Spec[U, R any] struct {
	// Options are the results file (Out, Resume, Force), the workers (Workers, NewBackend) and the shard
	// (Sharding, which runs one shard of the units, Partition by Key and Cost, and writes the run file
	// beside Out, RunFilePath). Run does not read Settings: the experiment's workers do.
	Options
	Format Format[R]
	// DefaultOut says Out is a default name, not the user's: the run creates a new file at Out, else at the
	// first free of Out with -2, -3, ... before its extension (resultsfile.Create; Resume and Force unused).
	DefaultOut bool
	Units      []U
	Key        func(U) string
	// Describe names a unit in errors ("task 3c9b0459"; nil: its key).
	Describe func(U) string
	// Cost estimates a unit's work: the units are handed out largest first (nil: in order).
	Cost func(U) float64
	// Check returns an error for a row that the run must not be mixed with (inRun: the row is of one of
	// the run's units); it is called on every row of a resumed file before any work.
	Check func(row R, inRun bool) error
	// NewWorker makes a worker on its backend (Options.NewBackend).
	NewWorker func(backend compute.Backend) (Worker[U, R], error)
	Report    Report[Info, R]
}

// Options are the options of a run that every experiment shares; each experiment's options embed them.
type Options struct {
	// Out is the results CSV; "" means a new file of the experiment's default name (numbered -2, -3, ...
	// when taken: Spec.DefaultOut). An existing file is an error unless Resume (append, skipping the units
	// already in it) or Force (overwrite).
	Out           string
	Resume, Force bool
	Workers       int // units run in parallel, one backend each (0: 1)
	// NewBackend makes each worker's compute backend (workers never share one): the program's choice,
	// e.g. backend.New; required by the experiments' Run.
	NewBackend func() (compute.Backend, error)
	// Sharding runs one shard of the units into Out, with a run file beside it (Spec.Sharding; the command
	// line's --shard); nil: all of them.
	Sharding *Sharding
	// Settings are the hyperparameters (each experiment says what comes before them).
	Settings hparams.Settings
}

// Info describes a run about to start.
type Info struct {
	Backend string // the workers' backend (backend.Describe)
	Out     string // the results file (Spec.Out, or the numbered name taken with DefaultOut)
	Units   int    // units of the run
	Done    int    // of which already in the results file
}

// RunnerInfo returns i: an experiment's start info embeds Info, and its callers reach this part of it
// through this method.
func (i Info) RunnerInfo() Info { return i }

// Report receives a run's progress: I is what Start sees (Info, or an experiment's info that embeds
// it), R a row. Any field may be nil; the calls are serialized.
type Report[I, R any] struct {
	Start func(I) // the workers are made, the units about to be handed out
	// Done is called when a unit is finished and its row written: finished of total to run.
	Done func(row R, finished, total int)
	// Error is called when a unit fails (the error names it, the run goes on) or a line of a resumed file
	// is dropped.
	Error func(err error)
}

// Convert returns the report that Spec takes for r: its Start sees the experiment's info that info makes
// from the runner's.
func (r Report[I, R]) Convert(info func(Info) I) Report[Info, R] {
	out := Report[Info, R]{Done: r.Done, Error: r.Error}
	if r.Start != nil {
		out.Start = func(i Info) { r.Start(info(i)) }
	}
	return out
}

// Outcome is what a run produced.
type Outcome[R any] struct {
	// Results are the rows of the run's units: those already in the file (in file order), then the new
	// ones in the order they finished.
	Results []R
	Out     string        // the results file, once created or opened (Info.Out)
	Elapsed time.Duration // of the units' work
}

// Run runs the units of s that the results file does not hold yet and writes a row for each as it
// finishes (see the package documentation).
func Run[U, R any](s Spec[U, R]) (Outcome[R], error) {
	var out Outcome[R]
	if s.NewBackend == nil {
		return out, errors.New("no backend: the program chooses the workers' backend (NewBackend, e.g. backend.New)")
	}
	units, header, err := s.shard()
	if err != nil {
		return out, err
	}
	inRun := map[string]bool{}
	for _, u := range units {
		inRun[s.Key(u)] = true
	}
	var fileKeys []string // of the rows in the file, in order
	if s.Resume {
		rows, err := s.resume(inRun)
		if err != nil {
			return out, err
		}
		for _, r := range rows {
			k := s.Format.Key(r)
			fileKeys = append(fileKeys, k)
			if inRun[k] {
				inRun[k] = false // done: rows of it further down the file are ignored
				out.Results = append(out.Results, r)
			}
		}
	}
	todo := slices.DeleteFunc(slices.Clone(units), func(u U) bool { return !inRun[s.Key(u)] })
	if s.Cost != nil {
		slices.SortStableFunc(todo, func(a, b U) int { return cmp.Compare(s.Cost(b), s.Cost(a)) })
	}
	var w *csv.Writer
	var closeFile func()
	if s.DefaultOut {
		w, closeFile, s.Out, err = resultsfile.Create(s.Out, s.Format.Header)
	} else {
		w, closeFile, err = resultsfile.Open(s.Out, s.Format.Header, s.Resume, s.Force)
	}
	if err != nil {
		return out, err
	}
	defer closeFile()
	out.Out = s.Out
	keysFile, err := s.openRunFile(header, fileKeys)
	if err != nil {
		return out, err
	}
	if keysFile != nil {
		defer keysFile.Close()
	}
	workers := make([]Worker[U, R], max(1, s.Workers))
	info := Info{Units: len(units), Done: len(units) - len(todo), Out: s.Out}
	for i := range workers {
		b, err := s.NewBackend()
		if err != nil {
			return out, err
		}
		if i == 0 {
			info.Backend = backend.Describe(b)
		}
		if workers[i], err = s.NewWorker(b); err != nil {
			return out, err
		}
		defer workers[i].Close()
	}
	if s.Report.Start != nil {
		s.Report.Start(info)
	}
	start := time.Now()
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
		if s.Report.Error != nil {
			s.Report.Error(err)
		}
	}
	finished := 0
	workpool.Run(len(workers), todo, func(wi int, u U) (R, error) {
		return workers[wi].Do(u)
	}, func(u U, row R, err error) {
		if err != nil {
			fail(fmt.Errorf("%s: %w", s.describe(u), err))
			return
		}
		if keysFile != nil {
			if err := appendKey(keysFile, s.Format.Key(row)); err != nil {
				fail(fmt.Errorf("writing %s: %w", RunFilePath(s.Out), err))
			}
		}
		if err := resultsfile.WriteRow(w, s.Format.Record(row)); err != nil {
			fail(fmt.Errorf("writing %s: %w", s.Out, err))
		}
		out.Results = append(out.Results, row)
		finished++
		if s.Report.Done != nil {
			s.Report.Done(row, finished, len(todo))
		}
	})
	out.Elapsed = time.Since(start)
	return out, firstErr
}

// shard returns the units of this process's shard of the run and the header of its run file (nil when
// the run is not sharded), after checking that the keys are distinct and, on resume, that the file's
// run file (if any) is of this run and shard.
func (s Spec[U, R]) shard() ([]U, *RunHeader, error) {
	keys := make([]string, len(s.Units))
	seen := map[string]bool{}
	for i, u := range s.Units {
		keys[i] = s.Key(u)
		if seen[keys[i]] {
			return nil, nil, fmt.Errorf("two units with the key %q", keys[i])
		}
		seen[keys[i]] = true
	}
	sh := s.Sharding
	if sh == nil {
		return s.Units, nil, nil
	}
	var costs []float64
	if s.Cost != nil {
		costs = make([]float64, len(s.Units))
		for i, u := range s.Units {
			costs[i] = s.Cost(u)
		}
	}
	assigned := Partition(keys, costs, sh.Shard.Count)
	h := &RunHeader{Meta: sh.Meta, Shard: sh.Shard.String(), Units: make([]RunUnit, len(keys))}
	var units []U
	for i, u := range s.Units {
		h.Units[i] = RunUnit{Key: keys[i], Shard: assigned[i]}
		if assigned[i] == sh.Shard.Index {
			units = append(units, u)
		}
	}
	if s.Resume {
		if err := checkRunFile(s.Out, *h); err != nil {
			return nil, nil, fmt.Errorf("resume: %w", err)
		}
	}
	return units, h, nil
}

// openRunFile writes the run file of a sharded run (h, and the keys of the rows already in the results
// file) and returns it open for appending the keys of new rows; nil when the run is not sharded.
func (s Spec[U, R]) openRunFile(h *RunHeader, keys []string) (*os.File, error) {
	if h == nil {
		return nil, nil
	}
	if err := writeRunFile(s.Out, *h, keys); err != nil {
		return nil, fmt.Errorf("writing %s: %w", RunFilePath(s.Out), err)
	}
	return os.OpenFile(RunFilePath(s.Out), os.O_WRONLY|os.O_APPEND, 0)
}

func (s Spec[U, R]) describe(u U) string {
	if s.Describe == nil {
		return s.Key(u)
	}
	return s.Describe(u)
}

// resume reads the rows of the results file (none if it does not exist), checks them, and rewrites the
// file without its bad lines and in the current format when it needs to.
func (s Spec[U, R]) resume(inRun map[string]bool) ([]R, error) {
	c, err := s.Format.read(s.Out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if s.Check != nil {
		for _, r := range c.rows {
			if err := s.Check(r, inRun[s.Format.Key(r)]); err != nil {
				return nil, fmt.Errorf("resume: %s: %w: write another file", s.Out, err)
			}
		}
	}
	if len(c.bad) > 0 || c.old {
		if err := s.Format.rewrite(s.Out, c.rows); err != nil {
			return nil, fmt.Errorf("resume: rewriting %s: %w", s.Out, err)
		}
	}
	for _, e := range c.bad {
		if s.Report.Error != nil {
			s.Report.Error(fmt.Errorf("%w (the line is dropped and its unit run again)", e))
		}
	}
	return c.rows, nil
}
