// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"time"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/hparams"
)

// startInfo is an experiment's start info: runner.Info, embedded, and the experiment's own fields.
type startInfo interface{ RunnerInfo() runner.Info }

// unitReport is what a command prints of an experiment's run: the backend and summary at the start, a
// progress bar of the units to run (desc), a line per finished unit and the warnings.
type unitReport[I startInfo, R any] struct {
	desc    string                                  // the bar's description: "solving", "training", ...
	quiet   bool                                    // --quiet: no bar
	summary func(info I) string                     // the run's line under the backend's
	line    func(row R, finished, total int) string // printed when a unit finishes
}

// runUnits runs an experiment (run, with the report r says) and removes the progress bar at the end.
func runUnits[I startInfo, R, O any](r unitReport[I, R], run func(runner.Report[I, R]) (O, error)) (O, error) {
	var bar *taskBar
	outcome, err := run(runner.Report[I, R]{
		Start: func(info I) {
			ri := info.RunnerInfo()
			bar = startRun(ri.Backend, r.summary(info), ri.Units-ri.Done, r.desc, r.quiet)
		},
		Done:  func(row R, finished, total int) { bar.done(r.line(row, finished, total), finished, total) },
		Error: func(err error) { bar.warn(err) },
	})
	bar.finish()
	return outcome, err
}

// printWall prints the last line of a run: its wall time and the results file.
func printWall(elapsed time.Duration, out string) {
	fmt.Printf("wall time %s; results written to %s\n", elapsed.Round(time.Second), out)
}

// options returns the experiment options the run flags set, with the run's settings (settingsFor) and
// backend.New making each worker's backend.
func (f *runFlags) options(settings hparams.Settings) runner.Options {
	return runner.Options{Out: f.out, Resume: f.resume, Force: f.force, Workers: f.workers, NewBackend: backend.New,
		Sharding: f.sharding, Settings: settings}
}
