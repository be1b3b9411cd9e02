package main

import (
	"encoding/csv"
	"errors"
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
)

func runARC(args []string) error {
	fs := newFlagSet("arc", "latformer arc [flags]",
		"Solves ARC tasks one by one: a fresh LatFormer is trained on each task's training pairs and predicts its\ntest outputs (Appendix B.2). Prints one line per finished task and Table 2; writes one CSV row per task.")
	dataFlag := fs.String("data", "", "data directory holding arc/<split>/*.json (default $"+datasets.EnvDataDir+", then ../shared/data)")
	split := fs.String("split", "training", "ARC split: training or evaluation")
	category := fs.String("category", "all", "tasks of one annotated category: all, translate, rotate, reflect, scale")
	tasksFlag := fs.String("tasks", "", "comma-separated task ids (overrides --category selection; their category is taken from the annotation)")
	limit := fs.Int("limit", 0, "solve at most this many tasks (0: all selected), in id order; for quick runs")
	workers := fs.Int("workers", 1, "tasks solved in parallel")
	steps := fs.Int("steps", 0, "max training steps per task (0: the train_steps hyperparameter, default 500)")
	canvas := fs.Int("canvas", 0, "canvas side (0: per task, the largest grid side of its training pairs and test inputs; 30: the paper's)")
	out := fs.String("out", "", "results CSV, one row per task, written as tasks finish (default: a new file runs/arc-<split>-<category>-<date>-<time>.csv); an existing file is never overwritten without --resume or --force")
	resume := fs.Bool("resume", false, "append to --out, skipping the tasks already in it (after an interruption)")
	force := fs.Bool("force", false, "overwrite --out if it exists")
	settings := fs.String("set", "", `hyperparameters, "key=value;key=value"`)
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *split != "training" && *split != "evaluation" {
		return fmt.Errorf("--split must be training or evaluation, got %q", *split)
	}
	if *workers < 1 {
		return fmt.Errorf("--workers must be >= 1, got %d", *workers)
	}
	if *resume && *force {
		return usageError{fmt.Errorf("--resume and --force contradict each other: --resume appends to --out, --force overwrites it"), fs}
	}
	if *out == "" {
		if *resume {
			return usageError{fmt.Errorf("--resume needs --out, the results file to continue"), fs}
		}
		*out = filepath.Join("runs", fmt.Sprintf("arc-%s-%s-%s.csv", *split, *category, time.Now().Format("20060102-150405")))
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
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	switch {
	case *force:
		flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	case !*resume:
		flags |= os.O_EXCL // never overwrite a results file by accident
	}
	f, err := os.OpenFile(*out, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s already exists: --resume continues it, --force overwrites it, or choose another --out", *out)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	if st, _ := f.Stat(); st.Size() == 0 {
		_ = w.Write(latformer.ResultsHeader)
		w.Flush()
	}
	// One backend per worker, so that concurrent tasks never share the pure-Go backend's worker pool.
	// NewBackend schedules the pure-Go backend's graph nodes sequentially (see latformer.DefaultGoBackend:
	// its node-parallel executor deadlocks); each matrix product still uses every core.
	cfg := latformer.BackendConfig()
	var backends []compute.Backend
	for range *workers {
		b, err := latformer.NewBackendWithConfig(cfg)
		if err != nil {
			return err
		}
		backends = append(backends, b)
	}
	fmt.Printf("backend: %s\n", latformer.BackendDescription(cfg, backends[0]))
	fmt.Printf("%d tasks selected (%s, category %s), %d already done, %d to solve with %d worker(s); results in %s\n",
		len(tasks), *split, *category, len(tasks)-len(todo), len(todo), *workers, *out)

	bar := newTaskBar(len(todo), "solving", *quiet)
	start := time.Now()
	var mu sync.Mutex
	solved, finished := 0, 0
	var firstErr error
	jobs := make(chan datasets.Task)
	var wg sync.WaitGroup
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
					finished++
					bar.println(os.Stdout, taskLine(row, finished, len(todo)))
				}
				bar.add(fmt.Sprintf("solved %d", solved))
				mu.Unlock()
			}
		}()
	}
	for _, t := range todo {
		jobs <- t
	}
	close(jobs)
	wg.Wait()
	bar.finish()
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
	fmt.Printf("wall time %s; results written to %s\n", time.Since(start).Round(time.Second), *out)
	return firstErr
}

// taskLine is the plain line printed for each finished task: id, category, solved, steps, seconds, action.
func taskLine(r latformer.ARCResult, finished, total int) string {
	solved := "unsolved"
	if r.Solved {
		solved = "SOLVED"
	}
	gates := "soft gates"
	if r.HardGates {
		gates = "hard gates"
	}
	return fmt.Sprintf("[%d/%d] %s %-9s %-8s test %d/%d  steps %d  %.1fs  canvas %d  %s: %s",
		finished, total, r.ID, r.Category, solved, r.TestExact, r.TestTotal, r.Steps, r.Seconds, r.Canvas, gates, r.Action)
}
