// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
)

// Annotation is the category Task (or TwoActions) gives a task, with the evidence.
type Annotation struct {
	// TaskID is the id of the task.
	TaskID string `json:"task_id"`
	// Category is the first category (in the order of datasets.Categories) whose definition the task
	// fits, or datasets.CategoryNone.
	Category datasets.Category `json:"category"`
	// Actions holds, for a geometric category, the group element g_i chosen for each pair i (the
	// lattice.Action String of T_δ ∘ B, e.g. "translate(0,27)∘rot90(0,1)x1", "transpose(0,1)",
	// "identity"; "g₁ + g₂" with two actions), in the order of the train pairs followed by the test pairs
	// that have an output. It is empty for CategoryNone.
	Actions []string `json:"actions,omitempty"`
	// Note says why a task is "none" (e.g. "solvable with g = identity", or that the search cap was
	// hit), is "two actions" for a task that TwoActions places with two actions, and is empty otherwise.
	Note string `json:"note,omitempty"`
}

// NoteTwoActions is the Note of a task that TwoActions places in a category with two actions.
const NoteTwoActions = "two actions"

// The notes of a task that is none.
const (
	noteIdentity = "solvable with g = identity for all pairs (no geometry needed)"
	noteNoFit    = "fits no geometric category"
	noteNoFitTwo = "fits no geometric category, with one or two actions"
)

// PaperCounts are the numbers of ARC training tasks per category implied by the fractions of the
// paper's Table 2 (its hand annotation), for comparison with Counts of the definition.
var PaperCounts = map[datasets.Category]int{
	datasets.CategoryTranslate: 52, datasets.CategoryRotate: 5,
	datasets.CategoryReflect: 44, datasets.CategoryScale: 11,
}

// Task decides the geometric category of an ARC task (the definition is the package doc): "none" with
// a Note if g = identity solves every pair, else the first of datasets.Categories for which Consistent's
// search finds elements and a color table, else "none". If a category's search hits MaxMerges the task
// is "none" with a Note, without trying the later categories. Deterministic.
func Task(task datasets.Task) Annotation {
	ann := Annotation{TaskID: task.ID, Category: datasets.CategoryNone}
	s := getSpace()
	if s.err != nil {
		ann.Note = "internal error: " + s.err.Error()
		return ann
	}
	pairs, err := taskPairs(task)
	if err != nil {
		ann.Note = err.Error()
		return ann
	}
	if len(pairs) == 0 {
		ann.Note = "no pair with an output"
		return ann
	}
	if identitySolves(s, pairs) {
		ann.Note = noteIdentity
		return ann
	}
	for _, cat := range datasets.Categories {
		fit, err := search1(s, cat, pairs)
		if errors.Is(err, ErrSearchCap) {
			ann.Note = fmt.Sprintf("search cap of %d table merges hit in category %q: undetermined", MaxMerges, cat)
			return ann
		}
		if fit != nil {
			ann.Category = cat
			ann.Actions = fit.Strings()
			return ann
		}
	}
	ann.Note = noteNoFit
	return ann
}

// identitySolves reports whether one table f(x, x) → y is consistent over all pairs: a per-cell
// recoloring that keeps the size, which needs no geometry.
func identitySolves(s *space, pairs []*pair) bool {
	cur := pairscan.EmptyTable1
	var t pairscan.Table1
	for _, p := range pairs {
		if ok, _ := p.Scan(p.Xp, &p.XTotal, s.rowOff[0], s.colSrc[0], &t); !ok || !pairscan.Merge(&cur, &t) {
			return false
		}
	}
	return true
}

// All annotates tasks with annotate (Task or TwoActions) on the given number of goroutines (<= 0:
// GOMAXPROCS) and returns the annotations sorted by task id (ties in input order). The result does not
// depend on workers.
func All(tasks []datasets.Task, workers int, annotate func(datasets.Task) Annotation) []Annotation {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	anns := make([]Annotation, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				anns[i] = annotate(tasks[i])
			}
		})
	}
	for i := range tasks {
		next <- i
	}
	close(next)
	wg.Wait()
	sort.SliceStable(anns, func(a, b int) bool { return anns[a].TaskID < anns[b].TaskID })
	return anns
}

// Counts counts the annotations per category (datasets.CategoryNone included).
func Counts(anns []Annotation) map[datasets.Category]int {
	counts := make(map[datasets.Category]int)
	for _, a := range anns {
		counts[a.Category]++
	}
	return counts
}
