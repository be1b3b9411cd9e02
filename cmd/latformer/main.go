// Command latformer trains and evaluates LatFormer (Atzeni, Sachan, Loukas, ICML 2023) on geometric
// grid tasks with GoMLX.
//
// Usage:
//
//	latformer demo   [flags]   learn rotation and translation tasks from 10 examples, show the masks
//	latformer download [flags] download and verify ARC-AGI-1 (needs internet)
//	latformer annotate [flags] categorize ARC training tasks by geometric prior, counts vs the paper
//	latformer arc    [flags]   solve annotated ARC tasks per category (Table 2), CSV results, --resume
//	latformer bench  [flags]   milliseconds per training step for the reference configuration
//
// Run "latformer <command> -h" for the flags of a command. The compute backend is GoMLX's pure-Go
// backend unless $GOMLX_BACKEND selects another (e.g. GOMLX_BACKEND=xla:cpu).
package main

import (
	"fmt"
	"os"
)

var commands = []struct {
	name, help string
	run        func(args []string) error
}{
	{"demo", "learn geometric tasks (rotation, translation, ...) from a few examples and show the learned masks", runDemo},
	{"download", "download and verify the ARC-AGI-1 tasks (needs internet)", runDownload},
	{"annotate", "annotate the ARC training tasks by geometric prior and print the per-category counts", runAnnotate},
	{"arc", "solve ARC tasks one by one (train on each task's pairs, predict its tests) and print Table 2", runARC},
	{"bench", "time the training step (forward, backward, Adam) of the reference configuration", runBench},
}

func usage() {
	fmt.Fprintf(os.Stderr, "Usage: latformer <command> [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", c.name, c.help)
	}
	fmt.Fprintf(os.Stderr, "\nRun 'latformer <command> -h' for the flags of a command.\n")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	for _, c := range commands {
		if c.name == os.Args[1] {
			if err := c.run(os.Args[2:]); err != nil {
				fmt.Fprintf(os.Stderr, "latformer %s: %v\n", c.name, err)
				os.Exit(1)
			}
			return
		}
	}
	fmt.Fprintf(os.Stderr, "latformer: unknown command %q\n\n", os.Args[1])
	usage()
	os.Exit(2)
}
