// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// The annotations file, and the committed annotations of the ARC training tasks.

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"

	"github.com/latformer/latformer/datasets"
)

// fileEntry is the value of one task id in an annotations file.
type fileEntry struct {
	Category datasets.Category `json:"category"`
	Actions  []string          `json:"actions,omitempty"`
	Note     string            `json:"note,omitempty"`
}

// Save writes anns to path as an indented JSON object from task id to {"category", "actions", "note"},
// keys sorted (a stable, diff-friendly order). It returns an error for an empty or duplicate task id.
func Save(path string, anns []Annotation) error {
	m := make(map[string]fileEntry, len(anns))
	for _, a := range anns {
		if a.TaskID == "" {
			return fmt.Errorf("saving annotations to %s: annotation with an empty task id", path)
		}
		if _, dup := m[a.TaskID]; dup {
			return fmt.Errorf("saving annotations to %s: duplicate task id %q", path, a.TaskID)
		}
		m[a.TaskID] = fileEntry{Category: a.Category, Actions: a.Actions, Note: a.Note}
	}
	data, err := json.MarshalIndent(m, "", "  ") // Maps are encoded with sorted keys.
	if err != nil {
		return fmt.Errorf("saving annotations to %s: %w", path, err)
	}
	data = append(data, '\n')
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("saving annotations: %w", err)
	}
	return nil
}

// Load reads a file written by Save into a map from task id to annotation.
func Load(path string) (map[string]Annotation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading annotations: %w", err)
	}
	anns, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("loading annotations from %s: %w", path, err)
	}
	return anns, nil
}

// parse decodes an annotations file; it rejects an unknown category.
func parse(data []byte) (map[string]Annotation, error) {
	var m map[string]fileEntry
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	valid := map[datasets.Category]bool{datasets.CategoryNone: true}
	for _, c := range datasets.Categories {
		valid[c] = true
	}
	anns := make(map[string]Annotation, len(m))
	for id, e := range m {
		if !valid[e.Category] {
			return nil, fmt.Errorf("task %q: unknown category %q", id, e.Category)
		}
		anns[id] = Annotation{TaskID: id, Category: e.Category, Actions: e.Actions, Note: e.Note}
	}
	return anns, nil
}

//go:embed annotations/arc_training.json
var defaultJSON []byte

//go:embed annotations/arc_training_two_actions.json
var twoActionsJSON []byte

// Default returns the committed annotations of the 400 ARC training tasks by Task, embedded from
// datasets/annotate/annotations/arc_training.json (written by `latformer annotate --out`).
func Default() (map[string]Annotation, error) {
	anns, err := parse(defaultJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded annotations/arc_training.json: %w", err)
	}
	return anns, nil
}

// DefaultTwoActions returns the committed annotations of the 400 ARC training tasks by TwoActions
// (Default's categories, plus the tasks that fit with two actions, Note "two actions"), embedded from
// datasets/annotate/annotations/arc_training_two_actions.json (written by
// `latformer annotate --two-actions --out`).
func DefaultTwoActions() (map[string]Annotation, error) {
	anns, err := parse(twoActionsJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded annotations/arc_training_two_actions.json: %w", err)
	}
	return anns, nil
}

//go:embed annotations/arc_evaluation.json
var evaluationJSON []byte

// Evaluation returns the committed annotations of the ARC evaluation tasks in our data (381 of the 400; 19
// are held out) by Task, embedded from datasets/annotate/annotations/arc_evaluation.json (written by
// `latformer annotate --split evaluation --out`). They label the tasks of the evaluation run by category;
// like the training split's, they read the test outputs, so they label tasks and never solve one.
func Evaluation() (map[string]Annotation, error) {
	anns, err := parse(evaluationJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded annotations/arc_evaluation.json: %w", err)
	}
	return anns, nil
}
