// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
)

func runDownload(args []string) error {
	fs := newFlagSet("download", "latformer download [flags]",
		"Downloads ARC-AGI-1 from GitHub (needs internet), verifies every task and writes a manifest.")
	dataFlag := fs.String("data", "", "data directory to create arc/training and arc/evaluation in "+
		"(default $"+datasets.EnvDataDir+", else ./data)")
	url := fs.String("url", datasets.DefaultARCArchiveURL, "zip archive of the ARC-AGI-1 repository")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dir := cmp.Or(*dataFlag, os.Getenv(datasets.EnvDataDir), datasets.DefaultDataDir)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	last := time.Now()
	err := datasets.DownloadARC(ctx, dir, datasets.DownloadOptions{URL: *url, Progress: func(read, total int64) {
		if time.Since(last) > time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "\rdownloaded %.1f MB", float64(read)/1e6)
		}
	}})
	if err != nil {
		return err
	}
	fmt.Printf("\nARC training and evaluation tasks are in %s (verified, see MANIFEST.json)\n",
		filepath.Join(dir, "arc"))
	return nil
}

func runAnnotate(args []string) error {
	fs := newFlagSet("annotate", "latformer annotate [flags]",
		"Annotates the ARC training (or evaluation) tasks by geometric prior (package datasets/annotate) "+
			"and prints the per-category counts.")
	dataFlag := fs.String("data", "",
		"data directory holding arc/<split> (default $"+datasets.EnvDataDir+", else ./data)")
	split := fs.String("split", "training",
		"ARC split to annotate: training (Table 2's categories) or evaluation (the labels of the evaluation run)")
	out := fs.String("out", "",
		"write the annotation JSON here (the committed copies are in datasets/annotate/annotations/)")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores)")
	twoActions := fs.Bool("two-actions", false,
		"annotate with one or two actions, y = f(g1·x, g2·x, x) (the committed arc_training_two_actions.json)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dataDir, err := datasets.DataDir(*dataFlag)
	if err != nil {
		return err
	}
	if *split != "training" && *split != "evaluation" {
		return fmt.Errorf("--split must be training or evaluation, got %q", *split)
	}
	if *split == "evaluation" && *twoActions {
		return fmt.Errorf("--two-actions annotates the training split only")
	}
	dir, err := datasets.ARCSplitDir(dataDir, *split)
	if err != nil {
		return err
	}
	tasks, err := datasets.LoadDir(dir)
	if err != nil {
		return err
	}
	fn, name, committed := annotate.Task, "annotate.Task", annotate.Default
	if *twoActions {
		fn, name, committed = annotate.TwoActions, "annotate.TwoActions", annotate.DefaultTwoActions
	}
	if *split == "evaluation" {
		committed = annotate.Evaluation
	}
	start := time.Now()
	anns := annotate.All(tasks, *workers, fn)
	fmt.Printf("annotated %d ARC %s tasks in %s (definition: %s)\n\n", len(anns), *split,
		time.Since(start).Round(time.Millisecond), name)
	printAnnotationCounts(anns, *split == "training", *twoActions)
	if committed, err := committed(); err == nil {
		printAgreement(anns, committed)
	}
	if *out != "" {
		if err := annotate.Save(*out, anns); err != nil {
			return err
		}
		fmt.Printf("written to %s\n", *out)
	}
	return nil
}

// printAgreement prints on how many tasks anns agree with the committed annotation.
func printAgreement(anns []annotate.Annotation, committed map[string]annotate.Annotation) {
	same := 0
	for _, a := range anns {
		if c, ok := committed[a.TaskID]; ok && c.Category == a.Category {
			same++
		}
	}
	fmt.Printf("\nagrees with the committed annotation on %d/%d tasks\n", same, len(anns))
}

// printAnnotationCounts prints the tasks per category of anns, beside the paper's counts (of the training
// split), and with twoActions how many of each need two actions.
func printAnnotationCounts(anns []annotate.Annotation, training, twoActions bool) {
	counts := annotate.Counts(anns)
	fmt.Printf("%-22s %6s %8s\n", "category", "ours", "paper≈")
	for _, c := range datasets.Categories {
		paper := "-" // the paper counts the training split
		if training {
			paper = fmt.Sprint(annotate.PaperCounts[c])
		}
		fmt.Printf("%-22s %6d %8s\n", c, counts[c], paper)
	}
	fmt.Printf("%-22s %6d %8s\n", datasets.CategoryNone, counts[datasets.CategoryNone], "-")
	if twoActions {
		two := map[datasets.Category]int{}
		for _, a := range anns {
			if a.Note == annotate.NoteTwoActions {
				two[a.Category]++
			}
		}
		fmt.Printf("\nof which with two actions: translate %d, rotate %d, reflect %d, scale %d\n",
			two[datasets.CategoryTranslate], two[datasets.CategoryRotate], two[datasets.CategoryReflect],
			two[datasets.CategoryScale])
	}
}
