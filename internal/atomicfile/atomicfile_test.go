// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite checks a new file, a replacement, the mode, and that nothing but the file is left in its
// directory.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.csv")
	for _, data := range []string{"a,b\n1,2\n", "a,b\n3,4\n5,6\n"} {
		if err := Write(path, []byte(data), nil); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the directory, want the file alone", len(entries))
	}
}

// TestWriteAbortedKeepsOld checks that a failure after the temporary file is complete (a crash before the
// rename) leaves the old contents and no temporary file, and that the complete new contents were in the
// temporary file at that point.
func TestWriteAbortedKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "labels.json")
	if err := Write(path, []byte("old"), nil); err != nil {
		t.Fatal(err)
	}
	crash := errors.New("crash")
	err := Write(path, []byte("new contents"), func(tmp string) error {
		if got, err := os.ReadFile(tmp); err != nil || string(got) != "new contents" {
			t.Errorf("temporary file holds %q, %v before the rename", got, err)
		}
		return crash
	})
	if !errors.Is(err, crash) {
		t.Fatalf("got %v, want the hook's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after the aborted write the file holds %q, want \"old\"", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the directory after the aborted write, want 1 (temporary file left?)", len(entries))
	}
}

// TestWriteMissingDir checks the error for a directory that does not exist (nothing is created).
func TestWriteMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "f")
	if err := Write(path, []byte("x"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want a not-exist error", err)
	}
}
