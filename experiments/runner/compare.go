// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"errors"
	"fmt"
	"slices"
)

// Comparison says how the rows of a new results file compare with those of another (the committed one),
// unit by unit (Format.Key), by what each experiment counts as a unit's outcome (an ARC task solved or
// not, a training run's test pairs exact).
type Comparison struct {
	Same    int          // units in both files with the same outcome
	Differ  []Difference // units in both whose outcomes differ, in the new file's order
	OnlyNew []string     // units of the new file only, in its order
	OnlyOld []string     // units of the other file only, in its order
}

// Difference is a unit whose outcome differs between the two files.
type Difference struct {
	Key      string
	New, Old string // the outcomes
}

// Compare reads two results files of format f (an old header is read too) and compares the outcome of
// every unit in both (the first row of a unit in each file); an unreadable line in either is an error.
func Compare[R any](f Format[R], newPath, oldPath string, outcome func(R) string) (Comparison, error) {
	var c Comparison
	read := func(path string) ([]R, map[string]R, error) {
		rows, err := f.Read(path)
		if err != nil && !errors.Is(err, ErrOldFormat) {
			return nil, nil, err
		}
		byKey := map[string]R{}
		var order []R
		for _, r := range rows {
			if _, ok := byKey[f.Key(r)]; !ok {
				byKey[f.Key(r)] = r
				order = append(order, r)
			}
		}
		return order, byKey, nil
	}
	newRows, newByKey, err := read(newPath)
	if err != nil {
		return c, err
	}
	oldRows, oldByKey, err := read(oldPath)
	if err != nil {
		return c, err
	}
	for _, r := range newRows {
		k := f.Key(r)
		o, ok := oldByKey[k]
		switch {
		case !ok:
			c.OnlyNew = append(c.OnlyNew, k)
		case outcome(r) == outcome(o):
			c.Same++
		default:
			c.Differ = append(c.Differ, Difference{Key: k, New: outcome(r), Old: outcome(o)})
		}
	}
	for _, r := range oldRows {
		if _, ok := newByKey[f.Key(r)]; !ok {
			c.OnlyOld = append(c.OnlyOld, f.Key(r))
		}
	}
	return c, nil
}

// Lines writes the comparison for people: what was compared, how many units agree, each unit whose outcome
// differs, and the units in one file only. units names the units ("tasks"), what their outcome ("solved or
// not").
func (c Comparison) Lines(newPath, oldPath, units, what string) []string {
	both := c.Same + len(c.Differ)
	lines := []string{fmt.Sprintf("compared with %s: %d %s in both files, %d with the same outcome (%s), %d differ",
		oldPath, both, units, c.Same, what, len(c.Differ))}
	for _, d := range c.Differ {
		lines = append(lines, fmt.Sprintf("  differs: %s: %s in %s, %s in %s", d.Key, d.New, newPath, d.Old, oldPath))
	}
	if n := len(c.OnlyNew); n > 0 {
		lines = append(lines, fmt.Sprintf("  %d %s only in %s: %s", n, units, newPath, shortList(c.OnlyNew)))
	}
	if n := len(c.OnlyOld); n > 0 {
		lines = append(lines, fmt.Sprintf("  %d %s only in %s: %s", n, units, oldPath, shortList(c.OnlyOld)))
	}
	return lines
}

// shortList joins keys, the first 10 and a count of the others.
func shortList(keys []string) string {
	const most = 10
	s := fmt.Sprint(slices.Clone(keys[:min(len(keys), most)]))
	if len(keys) > most {
		s += fmt.Sprintf(" and %d more", len(keys)-most)
	}
	return s
}
