// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package atomicfile replaces a file's contents so that a crash leaves either the old file or the new one,
// never part of one: results CSVs, the text-embedding cache and the browser's labels file all go through it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces the file at path with data (mode 0644): a temporary file in the same directory, written
// and synced, renamed over path, then the directory synced so that the rename itself is durable. On any
// error the temporary file is removed and the old file is left as it was.
//
// beforeRename, when not nil, is called with the temporary file's name once it is complete and before the
// rename; an error from it aborts the write like any other (tests use it to stand for a crash there).
func Write(path string, data []byte, beforeRename func(tmp string) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if beforeRename != nil {
		if err := beforeRename(tmp.Name()); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
