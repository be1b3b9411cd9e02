package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gomlx/compute"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/latformer"
	"github.com/schollz/progressbar/v3"
)

func runARC(args []string) error {
	fs := flag.NewFlagSet("arc", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory holding arc/<split>/*.json (default $"+datasets.EnvDataDir+", then ../shared/data)")
	split := fs.String("split", "training", "ARC split: training or evaluation")
	category := fs.String("category", "all", "tasks of one annotated category: all, translate, rotate, reflect, scale")
	tasksFlag := fs.String("tasks", "", "comma-separated task ids (overrides --category selection; their category is taken from the annotation)")
	limit := fs.Int("limit", 0, "solve at most this many tasks (0: all selected), in id order; for quick runs")
	workers := fs.Int("workers", 1, "tasks solved in parallel")
	steps := fs.Int("steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	canvas := fs.Int("canvas", 0, "canvas side (0: per task, the largest grid side of its training pairs and test inputs; 30: the paper's)")
	out := fs.String("out", "results/arc_training.csv", "results CSV, one row per task, appended as tasks finish")
	resume := fs.Bool("resume", false, "skip the tasks already in --out (after an interruption)")
	settings := fs.String("set", "", `hyperparameters, "key=value;key=value"`)
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *split != "training" && *split != "evaluation" {
		return fmt.Errorf("--split must be training or evaluation, got %q", *split)
	}
	if *workers < 1 {
		return fmt.Errorf("--workers must be >= 1, got %d", *workers)
	}
	if *canvas < 0 || *canvas > datasets.MaxGridSide {
		return fmt.Errorf("--canvas must be in 0..%d, got %d", datasets.MaxGridSide, *canvas)
	}
	cats := map[string]bool{"all": true}
	for _, c := range datasets.Categories {
		cats[string(c)] = true
	}
	if !cats[*category] {
		return fmt.Errorf("--category must be one of all, translate, rotate, reflect, scale; got %q", *category)
	}
	set := *settings
	if *steps > 0 {
		set = strings.Trim(set+fmt.Sprintf(";train_steps=%d", *steps), ";")
	}
	if _, err := latformer.NewStore(set); err != nil {
		return err
	}
	dataDir, err := datasets.DataDir(*dataFlag)
	if err != nil {
		return err
	}
	splitDir, err := datasets.ARCSplitDir(dataDir, *split)
	if err != nil {
		return err
	}
	annotations, err := datasets.DefaultAnnotations()
	if err != nil {
		return err
	}
	// Select the tasks.
	var ids []string
	if *tasksFlag != "" {
		for _, id := range strings.Split(*tasksFlag, ",") {
			ids = append(ids, strings.TrimSuffix(strings.TrimSpace(id), ".json"))
		}
	} else {
		for id, a := range annotations {
			if a.Category == datasets.CategoryNone {
				continue
			}
			if *category == "all" || string(a.Category) == *category {
				ids = append(ids, id)
			}
		}
		if *split != "training" {
			return fmt.Errorf("the committed annotation covers the training split only: pass --tasks for %s", *split)
		}
	}
	sort.Strings(ids)
	if *limit > 0 && len(ids) > *limit {
		ids = ids[:*limit]
	}
	tasks, err := datasets.LoadTasks(splitDir, ids)
	if err != nil {
		return err
	}
	// Resume: skip finished tasks.
	done := map[string]latformer.ARCResult{}
	if *resume {
		if rows, err := latformer.ReadResults(*out); err == nil {
			done = rows
		} else if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(os.Stderr, "warning: %v (tasks after the bad line will be solved again)\n", err)
			done = rows
		}
	}
	var todo []datasets.Task
	for _, t := range tasks {
		if _, ok := done[t.ID]; !ok {
			todo = append(todo, t)
		}
	}
	// Open the CSV for appending (header if new).
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if !*resume {
		if err := os.Remove(*out); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	if st, _ := f.Stat(); st.Size() == 0 {
		_ = w.Write(latformer.ResultsHeader)
		w.Flush()
	}
	backend, err := latformer.NewBackend()
	if err != nil {
		return err
	}
	fmt.Printf("backend: %s; %d tasks selected (%s, category %s), %d already done, %d to solve with %d worker(s)\n",
		latformer.BackendConfig(), len(tasks), *split, *category, len(tasks)-len(todo), len(todo), *workers)

	var bar *progressbar.ProgressBar
	if !*quiet && len(todo) > 0 {
		bar = progressbar.NewOptions(len(todo), progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetDescription("solving"))
	}
	start := time.Now()
	var mu sync.Mutex
	solved := 0
	var firstErr error
	jobs := make(chan datasets.Task)
	var wg sync.WaitGroup
	// One backend per worker. On the pure-Go backend ops run sequentially inside each execution (the
	// matrix products and element-wise ops still use the cores): with node-level parallelism on, the
	// backend's worker pool can deadlock, every running task waiting for a slot for its own sub-tasks.
	// We saw it in long multi-worker runs and, with one execution, on the graphs of the grid-lattice
	// expert; a run of hours must not hang.
	backends := []compute.Backend{backend}
	if cfg := latformer.BackendConfig(); *workers > 1 || cfg == "go" {
		if cfg == "go" {
			cfg = "go:ops_sequential"
		}
		backends = nil
		for range *workers {
			b, err := latformer.NewBackendWithConfig(cfg)
			if err != nil {
				return err
			}
			backends = append(backends, b)
		}
	}
	for wi := range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for task := range jobs {
				res, err := latformer.SolveTask(backends[wi], task, set, *canvas, nil, nil)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					fmt.Fprintf(os.Stderr, "\ntask %s: %v\n", task.ID, err)
				} else {
					row := latformer.ARCResult{Category: annotations[task.ID].Category, TaskResult: res}
					if row.Category == "" {
						row.Category = datasets.CategoryNone
					}
					_ = w.Write(row.Record())
					w.Flush() // nothing lost if interrupted
					done[task.ID] = row
					if res.Solved {
						solved++
					}
				}
				if bar != nil {
					bar.Describe(fmt.Sprintf("solved %d", solved))
					_ = bar.Add(1)
				}
				mu.Unlock()
			}
		}()
	}
	for _, t := range todo {
		jobs <- t
	}
	close(jobs)
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(os.Stderr)
	}
	if err := w.Error(); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	selected := make([]string, len(tasks))
	for i, t := range tasks {
		selected[i] = t.ID
	}
	fmt.Println()
	latformer.WriteTable(os.Stdout, latformer.Summarize(done, selected))
	var sizeOnly []string
	for _, id := range selected {
		if r, ok := done[id]; ok && !r.Solved && r.SizeOnly > 0 {
			sizeOnly = append(sizeOnly, id)
		}
	}
	if len(sizeOnly) > 0 {
		fmt.Printf("failing only because of the output size (all cells of the expected grid right): %s\n", strings.Join(sizeOnly, ", "))
	}
	fmt.Printf("wall time %s; results in %s\n", time.Since(start).Round(time.Second), *out)
	return firstErr
}
