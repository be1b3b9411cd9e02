// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/bench"
	"github.com/latformer/latformer/latformer"
)

// runBench is `latformer bench`: its flags, then package bench times.
func runBench(args []string) error {
	fs, f := benchFlagSet()
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o, err := f.options()
	if err != nil {
		return err
	}
	return bench.Run(o)
}

// benchFlags are the flags of `latformer bench`: bench.Options, and the lists and settings it reads.
type benchFlags struct {
	bench.Options
	sides, refCanvases   *[]int    // --canvas, --reference-canvas
	backends, attentions *[]string // --backends, --attention
	settings             string    // --set
}

// benchFlagSet returns the flag set of `latformer bench` and its flags.
func benchFlagSet() (*flag.FlagSet, *benchFlags) {
	fs := newFlagSet("bench", "latformer bench [flags]",
		"Times the training step (forward, backward, Adam) of the reference configuration and prints one\n"+
			"\"bench canvas=N attention=full|factored ... "+
			"step_ms=X\" line per canvas and attention path (X: the median),\n"+
			"then a \"bench stats\" line with the median, the minimum and the cores other processes used meanwhile.\n"+
			"With --reference it times the PyTorch reference step over as many steps and prints the ratios\n"+
			"median/median and min/min, and a warning when either side's timing was contended.")
	f := &benchFlags{}
	f.sides = intsFlag(fs, "canvas", []int{10, 20, 30}, "comma-separated canvas `sides` to time")
	fs.IntVar(&f.Batch, "batch", 16, "batch size")
	fs.IntVar(&f.Dim, "d", 32, "model dimension d")
	fs.IntVar(&f.FFN, "dff", 128, "FFN hidden width d_ff (the PyTorch reference uses 4 d)")
	fs.IntVar(&f.Steps, "steps", 20,
		"timed steps per canvas and path, and for each PyTorch reference; median and minimum are reported")
	fs.IntVar(&f.Warm, "warmup", 3,
		"untimed Go steps before the timed ones (the first compiles the graph; the PyTorch references warm up 3 steps)")
	fs.StringVar(&f.Reference, "reference", "", "path of the PyTorch reference script "+
		"(shared/bench/latformer_ref.py) to run side by side at --reference-canvas; empty: skip")
	fs.StringVar(&f.Python, "python", "/usr/bin/python3",
		"Python interpreter for --reference (one row labelled pytorch; --torch gives several)")
	fs.StringVar(&f.Torches, "torch", "", `PyTorch rows for --reference, "label=interpreter [args];...": `+
		`each runs both reference scripts with that interpreter and those extra arguments (e.g. `+
		`"pytorch2=.venv-bench/bin/python;pytorch2-compile=.venv-bench/bin/python --compile;`+
		`pytorch1.13=/usr/bin/python3"); empty: one row "pytorch" with --python`)
	fs.StringVar(&f.Importer, "importer", "", "the importer row's program "+
		"(make bench builds bench/importer into bin/latformer-importer): the full step as a program that imports "+
		"the library gets it (GoMLX's own backend default, its own module), timed at each --canvas interleaved "+
		"with the other sides; empty: skip")
	fs.StringVar(&f.FactoredRef, "factored-reference", "",
		"path of the PyTorch mask-only factored step (bench/latformer_factored_ref.py), "+
			"run with --reference; empty: skip")
	f.refCanvases = intsFlag(fs, "reference-canvas", []int{30}, "comma-separated canvas `sides` "+
		"of the PyTorch reference steps and of the ratios (each must be among --canvas to get ratios)")
	f.backends = stringsFlag(fs, "backends", []string{backend.Config()}, "comma-separated backend "+
		"`configurations` to time in turn (\"go\", \"xla:cpu\", ...; \"default\" is backend.DefaultGo, "+
		backend.DefaultGo+", whose options hold a comma); default: $GOMLX_BACKEND, else the latformer command's "+
		"own choice")
	fs.IntVar(&f.TopOps, "top-ops", 8, "after each Go-backend side, a \"bench top-ops\" line naming the ops "+
		"that took most of its CPU time, from a CPU profile of its timed steps (0: none; off with --cpuprofile)")
	fs.StringVar(&f.settings, "set", "", `extra hyperparameters, "key=value;..."`)
	fs.StringVar(&f.CPUProfile, "cpuprofile", "",
		"write a CPU profile of the timed steps (all canvases and paths) to this file (go tool pprof)")
	f.attentions = stringsFlag(fs, "attention", []string{"full", "factored"}, "comma-separated attention `paths` "+
		"to time: \"full\" (the paper's masked attention) and \"factored\" (mask-only, per lattice axis; "+
		"latformer_attention=mask_only)")
	return fs, f
}

// options returns the bench options the flags give, checked, with --set read against LatFormer's
// hyperparameters on top of the reference configuration's.
func (f *benchFlags) options() (bench.Options, error) {
	o := f.Options
	o.Sides, o.Attentions, o.RefCanvases = *f.sides, *f.attentions, *f.refCanvases
	for _, cfg := range *f.backends {
		if cfg == "default" {
			cfg = backend.DefaultGo
		}
		o.Backends = append(o.Backends, cfg)
	}
	if err := o.Check(); err != nil {
		return o, err
	}
	var err error
	base := bench.ReferenceSettings(o.Dim, o.FFN)
	o.Settings, err = parseSettings(f.settings, latformer.Params(), base)
	return o, err
}
