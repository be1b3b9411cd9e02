// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/latformer/latformer/internal/resultsfile"
)

// MergeOutcome is what Merge did.
type MergeOutcome struct {
	Header     RunHeader // the run file header of the first file
	Files      int       // results files read
	Rows       int       // rows written: one per unit of the run that has a row
	Duplicates int       // units found in two files with the same results (written once)
	Outside    int       // rows of units outside the run (kept in a resumed file): not written
	Missing    []RunUnit // units of the run with no row in any file
}

// shardFile is a results file of a shard: its run file, header and records, one per key of the run file.
type shardFile struct {
	path    string
	run     runFile
	header  []string
	records [][]string
}

// Merge joins results files of the shards of one run (each with its run file, written by Run with a
// Sharding) into out, one row per unit in the run's order, and writes out's run file (a single shard,
// so that out can be resumed with --shard 0/1). It refuses, naming the files and the unit, and writing
// nothing: files of different runs (command, settings, code version, data, units or shard count), a
// unit with two rows that differ in a column other than a wall time (named "seconds" or ending in
// "_seconds"), a file with rows its run file does not name, and, unless allowMissing, units without a
// row (listed with their shards). An existing out is replaced only with force; out is written atomically.
func Merge(out string, ins []string, force, allowMissing bool) (MergeOutcome, error) {
	var m MergeOutcome
	if len(ins) == 0 {
		return m, errors.New("merge: no shard files given")
	}
	if _, err := os.Stat(out); err == nil && !force {
		return m, fmt.Errorf("merge: %s already exists: --force replaces it", out)
	}
	files := make([]shardFile, len(ins))
	for i, path := range ins {
		f, err := readShardFile(path)
		if err != nil {
			return m, fmt.Errorf("merge: %w", err)
		}
		if i > 0 {
			if err := sameRun(files[0], f); err != nil {
				return m, fmt.Errorf("merge: %w", err)
			}
		}
		files[i] = f
	}
	m.Header, m.Files = files[0].run.RunHeader, len(files)
	rows, err := m.collect(files)
	if err != nil {
		return m, fmt.Errorf("merge: %w", err)
	}
	var records [][]string
	var keys []string
	for _, u := range m.Header.Units {
		if r, ok := rows[u.Key]; ok {
			records, keys = append(records, r.record), append(keys, u.Key)
		} else {
			m.Missing = append(m.Missing, u)
		}
	}
	m.Rows = len(records)
	if len(m.Missing) > 0 && !allowMissing {
		return m, fmt.Errorf("merge: %d of the run's %d units have no row (%s): "+
			"run their shards again with --resume, or --allow-missing",
			len(m.Missing), len(m.Header.Units), describeMissing(m.Missing, 10))
	}
	if err := resultsfile.WriteAtomic(out, files[0].header, records); err != nil {
		return m, fmt.Errorf("merge: writing %s: %w", out, err)
	}
	merged := m.Header
	merged.Shard = Shard{0, 1}.String()
	merged.Units = slices.Clone(merged.Units)
	for i := range merged.Units {
		merged.Units[i].Shard = 0
	}
	if err := writeRunFile(out, merged, keys); err != nil {
		return m, fmt.Errorf("merge: writing %s: %w", RunFilePath(out), err)
	}
	return m, nil
}

// readShardFile reads a results file and its run file and pairs each row with its key.
func readShardFile(path string) (shardFile, error) {
	f := shardFile{path: path}
	var err error
	if f.run, err = readRunFile(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return f, fmt.Errorf("%s has no run file %s: only the files of runs with --shard can be merged", path,
				RunFilePath(path))
		}
		return f, err
	}
	file, err := os.Open(path)
	if err != nil {
		return f, err
	}
	defer file.Close()
	r := csv.NewReader(file)
	all, err := r.ReadAll()
	if err != nil {
		return f, fmt.Errorf("%s: %w (a cut line: resume the shard to repair it)", path, err)
	}
	if len(all) == 0 {
		return f, fmt.Errorf("%s: empty file", path)
	}
	f.header, f.records = all[0], all[1:]
	if len(f.records) > len(f.run.keys) {
		return f, fmt.Errorf("%s has %d rows but its run file names %d: resume the shard (--resume) to repair it",
			path, len(f.records), len(f.run.keys))
	}
	return f, nil
}

// sameRun returns an error naming both files if b is not a shard of a's run.
func sameRun(a, b shardFile) error {
	d := a.run.Meta.Diff(b.run.Meta)
	if d == "" && !slices.Equal(a.header, b.header) {
		d = fmt.Sprintf("header %q vs %q", a.header, b.header)
	}
	_, na, _ := strings.Cut(a.run.Shard, "/")
	_, nb, _ := strings.Cut(b.run.Shard, "/")
	if d == "" && na != nb {
		d = fmt.Sprintf("shard %s vs %s", a.run.Shard, b.run.Shard)
	}
	if d == "" && !slices.Equal(a.run.Units, b.run.Units) {
		d = fmt.Sprintf("units (%d vs %d, or assigned otherwise)", len(a.run.Units), len(b.run.Units))
	}
	if d != "" {
		return fmt.Errorf("%s and %s are not shards of one run: %s", a.path, b.path, d)
	}
	return nil
}

// sourcedRow is a row and where it was read.
type sourcedRow struct {
	record []string
	path   string
	line   int
}

// collect returns the row of each unit of the run found in the files, and an error naming the unit and
// both files when a unit has two rows that differ in more than their wall times.
func (m *MergeOutcome) collect(files []shardFile) (map[string]sourcedRow, error) {
	inRun := map[string]bool{}
	for _, u := range m.Header.Units {
		inRun[u.Key] = true
	}
	wall := wallTimeColumns(files[0].header)
	rows := map[string]sourcedRow{}
	for _, f := range files {
		for i, rec := range f.records {
			key, row := f.run.keys[i], sourcedRow{rec, f.path, i + 2}
			if !inRun[key] {
				m.Outside++
				continue
			}
			prev, ok := rows[key]
			if !ok {
				rows[key] = row
				continue
			}
			if col := firstDifference(prev.record, rec, wall); col >= 0 {
				return nil, fmt.Errorf("unit %s has different results in %s line %d and %s line %d: column %s %q vs %q",
					key, prev.path, prev.line, row.path, row.line, f.header[col], prev.record[col], rec[col])
			}
			m.Duplicates++
		}
	}
	return rows, nil
}

// wallTimeColumns marks the columns that hold wall times: named "seconds" or ending in "_seconds".
func wallTimeColumns(header []string) []bool {
	wall := make([]bool, len(header))
	for i, h := range header {
		wall[i] = h == "seconds" || strings.HasSuffix(h, "_seconds")
	}
	return wall
}

// firstDifference returns the first column, wall times aside, where a and b (records of one header)
// differ (-1: none).
func firstDifference(a, b []string, wall []bool) int {
	for i := range a {
		if !wall[i] && a[i] != b[i] {
			return i
		}
	}
	return -1
}

// describeMissing lists up to n missing units with their shards.
func describeMissing(units []RunUnit, n int) string {
	var parts []string
	for _, u := range units[:min(n, len(units))] {
		parts = append(parts, fmt.Sprintf("%s of shard %d", u.Key, u.Shard))
	}
	if len(units) > n {
		parts = append(parts, fmt.Sprintf("and %d more", len(units)-n))
	}
	return strings.Join(parts, ", ")
}
