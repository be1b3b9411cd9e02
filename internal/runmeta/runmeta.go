// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package runmeta describes what makes the rows of a run comparable: the command, its hyperparameters,
// the code version and the data. Shards of one run carry the same description, and `latformer merge`
// refuses files whose descriptions differ.
package runmeta

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Meta identifies a run: two results files may be merged only if their Metas are equal.
type Meta struct {
	Command  string   `json:"command"`  // the sub-command, e.g. "arc"
	Settings []string `json:"settings"` // "flag=value" for every flag that changes results, sorted
	Code     string   `json:"code"`     // CodeVersion of the binary
	Data     string   `json:"data"`     // Fingerprint of the data files the command reads
}

// Diff names the first field in which a and b differ, with both values ("" when equal).
func (a Meta) Diff(b Meta) string {
	switch {
	case a.Command != b.Command:
		return fmt.Sprintf("command %q vs %q", a.Command, b.Command)
	case a.Code != b.Code:
		return fmt.Sprintf("code version %s vs %s", a.Code, b.Code)
	case a.Data != b.Data:
		return fmt.Sprintf("data fingerprint %s vs %s", a.Data, b.Data)
	case !slices.Equal(a.Settings, b.Settings):
		for i := range max(len(a.Settings), len(b.Settings)) {
			x, y := at(a.Settings, i), at(b.Settings, i)
			if x != y {
				return fmt.Sprintf("settings %q vs %q", x, y)
			}
		}
	}
	return ""
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

var codeVersion = sync.OnceValue(func() string {
	rev, modified := "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev != "" && !modified {
		return "git:" + rev
	}
	exe := "exe:unknown"
	if path, err := os.Executable(); err == nil {
		if sum, err := hashFile(path); err == nil {
			exe = "exe:sha256:" + sum[:16]
		}
	}
	if rev != "" {
		return "git:" + rev + "+modified," + exe
	}
	return exe
})

// CodeVersion identifies the code of this binary: the commit it was built from (the Go build info's
// vcs.revision), and the hash of the executable when the working tree had changes or the build carries
// no version control information (-buildvcs=false), so that two builds of different code never share
// a version.
func CodeVersion() string { return codeVersion() }

// Fingerprint returns a hash of the files at paths (a directory stands for every regular file under it,
// by path relative to it) and their contents: the data a command reads. A path that does not exist
// counts as absent, so that a missing directory and an empty one differ from a full one.
func Fingerprint(paths ...string) (string, error) {
	h := sha256.New()
	for _, root := range paths {
		fmt.Fprintf(h, "root %s\n", filepath.Base(root))
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			sum, err := hashFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %s\n", filepath.ToSlash(rel), sum)
			return nil
		})
		if os.IsNotExist(err) {
			fmt.Fprintf(h, "absent\n")
			continue
		}
		if err != nil {
			return "", fmt.Errorf("fingerprint of %s: %w", root, err)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// JoinSettings is the settings of a Meta as one line, for messages.
func JoinSettings(settings []string) string { return strings.Join(settings, " ") }
