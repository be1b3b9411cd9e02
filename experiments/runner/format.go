// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/latformer/latformer/internal/resultsfile"
)

// ErrOldFormat is returned (wrapped) by Format.Read for a file whose header is one of Format.OldHeaders:
// its rows are read, but rows of the current format must not be appended to it (Run rewrites it first).
var ErrOldFormat = errors.New("results file in an older format")

// Format is how an experiment's rows of type R are written to a results CSV and read back.
type Format[R any] struct {
	// Header is the first line of a results file.
	Header []string
	// OldHeaders are other headers a file may have (fewer or other columns); Parse reads their rows
	// too, and Run rewrites such a file in the current format before appending to it.
	OldHeaders [][]string
	// Record is a row's CSV record, in the order of Header.
	Record func(R) []string
	// Parse reads a record of the file's header (Header or one of OldHeaders: len(record) says which),
	// with an error naming the bad column.
	Parse func(record []string) (R, error)
	// Key is the key of the unit a row belongs to (Spec.Key of that unit).
	Key func(R) string
}

// contents is what a results file holds: its rows, an error per line that did not parse (naming the file
// and the line), and whether its header is an old one (of columns columns).
type contents[R any] struct {
	rows    []R
	bad     []error
	old     bool
	columns int
}

// Read reads the rows of a results file. A line that does not parse (the cut last line of a killed run,
// a value that is not a number) is skipped: the rows of every other line are returned, with an error
// naming each bad line. A file with an old header (OldHeaders) returns its rows and an error wrapping
// ErrOldFormat. A missing file (errors.Is(err, os.ErrNotExist)) or a file of another header returns no
// rows.
func (f Format[R]) Read(path string) ([]R, error) {
	c, err := f.read(path)
	if err != nil {
		return nil, err
	}
	errs := c.bad
	if c.old {
		errs = append(errs, fmt.Errorf("%s: %w (%d columns, the current format has %d)", path, ErrOldFormat,
			c.columns, len(f.Header)))
	}
	return c.rows, errors.Join(errs...)
}

// read reads a results file line by line (see Read). An empty file has no rows.
func (f Format[R]) read(path string) (contents[R], error) {
	var c contents[R]
	file, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer file.Close()
	r := csv.NewReader(file)
	header, err := r.Read()
	switch {
	case errors.Is(err, io.EOF):
		return c, nil
	case err != nil:
		return c, fmt.Errorf("%s: reading the header: %w", path, err)
	}
	c.old, c.columns = !slices.Equal(header, f.Header), len(header)
	if c.old && !slices.ContainsFunc(f.OldHeaders, func(h []string) bool { return slices.Equal(h, header) }) {
		return c, fmt.Errorf("%s: header %q, want %q", path, header, f.Header)
	}
	r.FieldsPerRecord = len(header) // a line of another length is a *csv.ParseError
	c.rows = []R{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil { // the reader goes on at the next line
			c.bad = append(c.bad, fmt.Errorf("%s: %w", path, err))
			continue
		}
		line, _ := r.FieldPos(0)
		row, err := f.Parse(rec)
		if err != nil {
			c.bad = append(c.bad, fmt.Errorf("%s line %d: %w", path, line, err))
			continue
		}
		c.rows = append(c.rows, row)
	}
}

// rewrite replaces the file at path with the header and rows, atomically (resultsfile.WriteAtomic).
func (f Format[R]) rewrite(path string, rows []R) error {
	records := make([][]string, len(rows))
	for i, r := range rows {
		records[i] = f.Record(r)
	}
	return resultsfile.WriteAtomic(path, f.Header, records)
}
