package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/latformer/latformer/datasets"
)

// paperCounts are the numbers of ARC training tasks per category implied by the fractions of the
// paper's Table 2 (hand annotation).
var paperCounts = map[datasets.Category]int{
	datasets.CategoryTranslate: 52, datasets.CategoryRotate: 5, datasets.CategoryReflect: 44, datasets.CategoryScale: 11,
}

func runDownload(args []string) error {
	fs := newFlagSet("download", "latformer download [flags]",
		"Downloads ARC-AGI-1 from GitHub (needs internet), verifies every task and writes a manifest.")
	dataFlag := fs.String("data", "", "data directory to create arc/training and arc/evaluation in (default $"+datasets.EnvDataDir+", then ../shared/data)")
	url := fs.String("url", datasets.DefaultARCArchiveURL, "zip archive of the ARC-AGI-1 repository")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dir := *dataFlag
	if dir == "" {
		dir = os.Getenv(datasets.EnvDataDir)
	}
	if dir == "" {
		return fmt.Errorf("say where to put the data: --data DIR or $%s", datasets.EnvDataDir)
	}
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
	fmt.Printf("\nARC training and evaluation tasks are in %s (verified, see MANIFEST.json)\n", filepath.Join(dir, "arc"))
	return nil
}

func runAnnotate(args []string) error {
	fs := newFlagSet("annotate", "latformer annotate [flags]",
		"Annotates the ARC training tasks by geometric prior (datasets.Annotate) and prints the per-category counts.")
	dataFlag := fs.String("data", "", "data directory holding arc/training (default $"+datasets.EnvDataDir+", then ../shared/data)")
	out := fs.String("out", "", "write the annotation JSON here (the committed copy is datasets/annotations/arc_training.json)")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dataDir, err := datasets.DataDir(*dataFlag)
	if err != nil {
		return err
	}
	dir, err := datasets.ARCSplitDir(dataDir, "training")
	if err != nil {
		return err
	}
	tasks, err := datasets.LoadDir(dir)
	if err != nil {
		return err
	}
	start := time.Now()
	anns := datasets.AnnotateAll(tasks, *workers)
	counts := datasets.CategoryCounts(anns)
	fmt.Printf("annotated %d ARC training tasks in %s (definition: datasets.Annotate)\n\n", len(anns), time.Since(start).Round(time.Millisecond))
	fmt.Printf("%-22s %6s %8s\n", "category", "ours", "paper≈")
	for _, c := range datasets.Categories {
		fmt.Printf("%-22s %6d %8d\n", c, counts[c], paperCounts[c])
	}
	fmt.Printf("%-22s %6d %8s\n", datasets.CategoryNone, counts[datasets.CategoryNone], "-")
	if committed, err := datasets.DefaultAnnotations(); err == nil {
		same := 0
		for _, a := range anns {
			if c, ok := committed[a.TaskID]; ok && c.Category == a.Category {
				same++
			}
		}
		fmt.Printf("\nagrees with the committed annotation on %d/%d tasks\n", same, len(anns))
	}
	if *out != "" {
		if err := datasets.SaveAnnotations(*out, anns); err != nil {
			return err
		}
		fmt.Printf("written to %s\n", *out)
	}
	return nil
}
