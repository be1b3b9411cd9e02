// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Command latformer trains and evaluates LatFormer (Atzeni, Sachan, Loukas, ICML 2023) on geometric
// grid tasks with GoMLX.
//
// Usage:
//
//	latformer demo   [flags]   learn rotation and translation tasks from 10 examples, show the masks
//	latformer download [flags] download and verify ARC-AGI-1 (needs internet)
//	latformer annotate [flags] categorize ARC training tasks by geometric prior, counts vs the paper
//	latformer arc    [flags]   solve annotated ARC tasks per category (Table 2), CSV results, --resume
//	latformer solve  [flags] FILE...  solve a user's task files (ARC task JSON, a folder, an ARC Prize
//	                           challenges file), print the predictions, --submission in the ARC Prize format,
//	                           --save/--load fitted solutions
//	latformer score SUBMISSION SOLUTIONS  score an ARC Prize submission (either attempt exact) per task and in total
//	latformer sample-efficiency [flags]  Figure 5 on the synthetic tasks, CSV results, --resume
//	latformer noise  [flags]   Table 4: LatFormer with noisy one-hot inputs, CSV results, --resume
//	latformer larc   [flags]   Table 3: LARC test tasks with and without their description (T5 or a stand-in)
//	latformer registration [flags] Table 5 analogue: image registration on natural images, CSV, --resume
//	latformer merge OUT SHARD... join the results files of a run's shards (--shard I/N) into one
//	latformer compare NEW COMMITTED  how a new run's results compare with the committed ones, unit by unit
//	latformer bench  [flags]   milliseconds per training step for the reference configuration
//	latformer serve  [flags]   web page to browse and label the ARC tasks (Appendix B.3, Figure 7b)
//
// Run "latformer <command> -h" for the flags of a command. The compute backend is $GOMLX_BACKEND when
// set (e.g. GOMLX_BACKEND=xla:cpu), else XLA on CPU when this binary has XLA (not built with -tags noxla)
// and XLA's CPU plugin is installed, else GoMLX's pure-Go backend (backend.New).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

var commands = []struct {
	name, help string
	run        func(args []string) error
}{
	{"demo", "learn geometric tasks (rotation, translation, ...) from a few examples " +
		"and show the learned masks", runDemo},
	{"download", "download and verify the ARC-AGI-1 tasks (needs internet)", runDownload},
	{"annotate", "annotate the ARC training tasks by geometric prior and print the per-category counts", runAnnotate},
	{"arc", "solve ARC tasks one by one (train on each task's pairs, predict its tests) and print Table 2", runARC},
	{"solve", "solve the tasks of your own files (ARC task JSON, a folder of them, an ARC Prize challenges " +
		"file): predictions, submission.json, saved models", runSolve},
	{"score", "score an ARC Prize submission against a solutions file " +
		"(a test input counts when either attempt is exact)", runScore},
	{"sample-efficiency", "Figure 5: test accuracy against the number of training pairs on the synthetic tasks, " +
		"LatFormer vs baselines", runSampleEfficiency},
	{"noise", "Table 4: LatFormer on the synthetic tasks with noisy one-hot inputs", runNoise},
	{"larc", "Table 3: LatFormer on LARC's geometric test tasks, without and with the task's description " +
		"(T5 or a stand-in)", runLARC},
	{"registration", "Table 5 analogue: register translated image patches of two modalities " +
		"(natural images from scikit-image)", runRegistration},
	{"merge", "join the results files of the shards of one run (--shard I/N) into one, " +
		"checking that they belong together", runMerge},
	{"compare", "compare a new run's results file with the committed one, unit by unit " +
		"(solved or not, which differ)", runCompare},
	{"serve", "web page to browse the ARC tasks, their predictions and masks, " +
		"and label the priors they need", runServe},
	{"bench", "time the training step (forward, backward, Adam) of the reference configuration", runBench},
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: latformer <command> [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-17s %s\n", c.name, c.help)
	}
	fmt.Fprintf(w, "\nRun 'latformer <command> -h' for the flags of a command.\n"+
		"The backend is $GOMLX_BACKEND when set, else xla:cpu when this binary has XLA (not built with -tags "+
		"noxla) and XLA's CPU plugin is installed, else GoMLX's pure-Go backend (graph nodes in parallel, "+
		"every core on each matrix product).\n"+
		"$LATFORMER_CPUPROFILE=FILE writes a CPU profile of the command to FILE (go tool pprof).\n")
}

// usageError is a command-line mistake (unknown flag, bad value): exit status 2, after the usage.
type usageError struct {
	error
	fs *flag.FlagSet // its usage is printed after the error
}

// newFlagSet returns a flag set whose -h prints the usage line, the description and the flags on stdout.
func newFlagSet(name, usageLine, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s\n\n%s\n\nFlags:\n", usageLine, description)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args of a command without positional arguments (parseFlagsArgs, then an error for
// any positional argument).
func parseFlags(fs *flag.FlagSet, args []string) error {
	positional, err := parseFlagsArgs(fs, args)
	if err != nil {
		return err
	}
	if len(positional) > 0 {
		return usageError{fmt.Errorf("unexpected arguments: %q", positional), fs}
	}
	return nil
}

// parseFlagsArgs parses args, flags and positional arguments: -h and --help print the usage on stdout and
// return flag.ErrHelp, a bad flag returns a usageError (main prints the usage on stderr). Flags may come
// before, between or after the positional arguments (Go's flag package stops at the first argument; the
// rest is parsed again), and "--" ends the flags. It returns the positional arguments in order.
func parseFlagsArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
			fs.SetOutput(os.Stdout)
			fs.Usage()
			return nil, flag.ErrHelp
		}
	}
	fs.SetOutput(io.Discard) // the error is reported once, by main, with the usage
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, usageError{err, fs}
		}
		left := fs.Args()
		if consumed := len(rest) - len(left); consumed > 0 && rest[consumed-1] == "--" {
			return append(positional, left...), nil
		}
		if len(left) == 0 {
			return positional, nil
		}
		positional, rest = append(positional, left[0]), left[1:]
	}
}

// exitCode runs a command and maps its error to the exit status: 0 on success or help, 2 for usage
// errors (with the command's usage), 1 otherwise.
func exitCode(name string, run func([]string) error, args []string) int {
	if path := os.Getenv("LATFORMER_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "latformer %s: $LATFORMER_CPUPROFILE: %v\n", name, err)
			return 1
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	err := run(args)
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(os.Stderr, "latformer %s: %v\n", name, ue.error)
		if ue.fs != nil {
			fmt.Fprintln(os.Stderr)
			ue.fs.SetOutput(os.Stderr)
			ue.fs.Usage()
		}
		return 2
	default:
		fmt.Fprintf(os.Stderr, "latformer %s: %v\n", name, err)
		return 1
	}
}

func main() {
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "-h", "--help", "-help", "help":
		usage(os.Stdout)
		return
	}
	for _, c := range commands {
		if c.name == os.Args[1] {
			os.Exit(exitCode(c.name, c.run, os.Args[2:]))
		}
	}
	fmt.Fprintf(os.Stderr, "latformer: unknown command %q\n\n", os.Args[1])
	usage(os.Stderr)
	os.Exit(2)
}
