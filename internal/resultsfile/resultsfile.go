// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package resultsfile opens and rewrites the results CSVs of the experiments (one row per finished
// unit of work, written as it finishes, so that an interrupted run loses nothing and a resumed one
// continues it).
package resultsfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latformer/latformer/internal/atomicfile"
)

// Open opens the results file at path for writing rows: appended to with resume, truncated with force,
// and otherwise created, never overwriting an existing file (the error says what to do). A new or empty
// file gets the header first. The returned function closes the file.
func Open(path string, header []string, resume, force bool) (*csv.Writer, func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	switch {
	case force:
		flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	case !resume:
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, nil, fmt.Errorf("%s already exists: resume continues it, force overwrites it, "+
			"or choose another file", path)
	}
	if err != nil {
		return nil, nil, err
	}
	w := csv.NewWriter(f)
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		_ = w.Write(header)
		w.Flush()
	}
	return w, func() { f.Close() }, w.Error()
}

// maxNumbered bounds the numbered names Create tries after the first.
const maxNumbered = 1000

// Create creates a new results file with the header at path or, when path is taken, at the first free
// of path with -2, -3, ... before its extension, and returns the writer, the function that closes the
// file and the path it created. Each name is created exclusively (O_EXCL), so runs that start together
// (the same default name, to the second) never share a file.
func Create(path string, header []string) (*csv.Writer, func(), string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, "", err
	}
	ext := filepath.Ext(path)
	name := path
	for n := 2; ; n++ {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) && n <= maxNumbered {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), n, ext)
			continue
		}
		if err != nil {
			return nil, nil, "", err
		}
		w := csv.NewWriter(f)
		_ = w.Write(header)
		w.Flush()
		return w, func() { f.Close() }, name, w.Error()
	}
}

// WriteAtomic replaces the file at path with the header and records (atomicfile.Write: a crash leaves
// either the old file or the new one, never half of one).
func WriteAtomic(path string, header []string, records [][]string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(header)
	_ = w.WriteAll(records)
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), nil)
}

// Read reads a results CSV whose first line must be header and returns the records after it (rows may
// have any number of fields; the callers check them). A missing file gives an error satisfying
// errors.Is(err, os.ErrNotExist).
func Read(path string, header []string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(records) == 0 || !slices.Equal(records[0], header) {
		got := []string(nil)
		if len(records) > 0 {
			got = records[0]
		}
		return nil, fmt.Errorf("%s: header %q, want %q", path, got, header)
	}
	return records[1:], nil
}

// WriteRow writes one record and flushes it to the file at once, so that a run killed afterwards keeps
// it; it returns the writer's error, if any.
func WriteRow(w *csv.Writer, record []string) error {
	if err := w.Write(record); err != nil {
		return err
	}
	w.Flush()
	return w.Error()
}
