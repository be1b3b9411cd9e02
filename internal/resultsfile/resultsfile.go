// Package resultsfile opens and rewrites the results CSVs of the experiments (one row per finished
// unit of work, written as it finishes, so that an interrupted run loses nothing and a resumed one
// continues it).
package resultsfile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
		return nil, nil, fmt.Errorf("%s already exists: resume continues it, force overwrites it, or choose another file", path)
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

// WriteAtomic replaces the file at path with the header and records, through a temporary file in the
// same directory and a rename: a crash leaves either the old file or the new one, never half of one.
func WriteAtomic(path string, header []string, records [][]string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	w := csv.NewWriter(tmp)
	_ = w.Write(header)
	_ = w.WriteAll(records)
	if err := errors.Join(w.Error(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
