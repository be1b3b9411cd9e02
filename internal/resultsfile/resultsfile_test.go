// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package resultsfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOpenReadWrite checks the file's life: created with its header, never overwritten without resume or
// force, appended to with resume, truncated with force, rewritten atomically, and read back with its
// header checked.
func TestOpenReadWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "r.csv")
	header := []string{"a", "b"}
	write := func(resume, force bool, rows ...[]string) error {
		w, closeFn, err := Open(path, header, resume, force)
		if err != nil {
			return err
		}
		defer closeFn()
		for _, r := range rows {
			w.Write(r)
		}
		w.Flush()
		return w.Error()
	}
	if err := write(false, false, []string{"1", "2"}); err != nil {
		t.Fatal(err)
	}
	if err := write(false, false); err == nil || !strings.Contains(err.Error(), "resume") {
		t.Errorf("second create: got %v, want an error saying resume or force", err)
	}
	if err := write(true, false, []string{"3", "4"}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, header)
	if err != nil || !slices.EqualFunc(got, [][]string{{"1", "2"}, {"3", "4"}}, slices.Equal) {
		t.Errorf("after resume: %v, %v; want both rows once, under one header", got, err)
	}
	if err := write(false, true, []string{"5"}); err != nil {
		t.Fatal(err)
	}
	if got, err = Read(path, header); err != nil || len(got) != 1 || got[0][0] != "5" {
		t.Errorf("after force: %v, %v; want the one new row", got, err)
	}
	if err := WriteAtomic(path, header, [][]string{{"x", "y"}}); err != nil {
		t.Fatal(err)
	}
	if got, err = Read(path, header); err != nil || len(got) != 1 || got[0][1] != "y" {
		t.Errorf("after WriteAtomic: %v, %v", got, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary file left)", len(entries))
	}
	if _, err := Read(path, []string{"other"}); err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("wrong header: got %v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "none.csv"), header); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want os.ErrNotExist", err)
	}
}

// TestCreateNumbers checks that Create takes the name it is given when it is free, else the first free
// numbered one (-2, -3, ... before the extension), never a file that exists, and that files created at
// the same time from one name are distinct, each with its header.
func TestCreateNumbers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs", "solve-20261205-120000.csv")
	header := []string{"a", "b"}
	var got []string
	for range 3 {
		_, closeFn, name, err := Create(path, header)
		if err != nil {
			t.Fatal(err)
		}
		closeFn()
		got = append(got, filepath.Base(name))
	}
	want := []string{"solve-20261205-120000.csv", "solve-20261205-120000-2.csv", "solve-20261205-120000-3.csv"}
	if !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}

	// 8 at once from one name: 8 files.
	names := make(chan string, 8)
	for range 8 {
		go func() {
			w, closeFn, name, err := Create(filepath.Join(dir, "same.csv"), header)
			if err != nil {
				t.Error(err)
				names <- ""
				return
			}
			w.Write([]string{name, "x"})
			w.Flush()
			closeFn()
			names <- name
		}()
	}
	seen := map[string]bool{}
	for range 8 {
		seen[<-names] = true
	}
	if len(seen) != 8 {
		t.Errorf("8 files created at once from one name got %d names: %v", len(seen), seen)
	}
	for name := range seen {
		rows, err := Read(name, header)
		if err != nil || len(rows) != 1 || rows[0][0] != name {
			t.Errorf("%s: %v, %v; want its header and its one row", name, rows, err)
		}
	}
}
