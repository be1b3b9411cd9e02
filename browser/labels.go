// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/latformer/latformer/internal/atomicfile"
)

// LabelsFormat is the value of the "format" field of a labels file.
const LabelsFormat = "latformer-arc-labels/1"

// MaxNoteRunes is the longest note a label may carry.
const MaxNoteRunes = 2000

// Label is a person's label of one ARC task: the priors it needs and a free note.
type Label struct {
	// TaskID is the ARC task id, Split its split ("training" or "evaluation").
	TaskID string `json:"task_id"`
	Split  string `json:"split"`
	// Priors are keys of Priors, in the order of Priors.
	Priors []string `json:"priors"`
	// Note is free text (at most MaxNoteRunes characters, line breaks as "\n").
	Note string `json:"note,omitempty"`
	// Saved is when the label was saved (UTC).
	Saved time.Time `json:"saved"`
}

// labelsFile is the JSON document of a labels file:
//
//	{
//	  "format": "latformer-arc-labels/1",
//	  "labels": {
//	    "68b16354": {"task_id": "68b16354", "split": "training", "priors": ["reflection"],
//	                 "note": "upside down", "saved": "2026-11-23T22:40:00Z"}
//	  }
//	}
//
// encoding/json writes the map sorted by task id, so that the file diffs well.
type labelsFile struct {
	Format string           `json:"format"`
	Labels map[string]Label `json:"labels"`
}

// LabelStore keeps the labels in a JSON file. Every Put and Delete reads the file's current content,
// changes one task's label and writes the whole file atomically (a temporary file in the same directory,
// fsync, rename, fsync of the directory), all under a mutex: a crash or a kill at any moment leaves
// either the previous file or the new one, never half of one, and saves of different tasks (two browser
// tabs) never lose each other's labels. Two saves of the same task: the last one wins. The mutex is per
// process: run one server per labels file.
type LabelStore struct {
	path string
	mu   sync.Mutex
	// beforeRename, when set (tests), is called with the temporary file's name after it is written and
	// synced and before the rename; an error aborts the save as a crash at that point would.
	beforeRename func(tmp string) error
}

// OpenLabels returns the store of the labels file at path. The file need not exist (the first save
// creates it), but its directory must, and an existing file must be a valid labels file: a store never
// overwrites a file it cannot read, so that no earlier label is lost.
func OpenLabels(path string) (*LabelStore, error) {
	if path == "" {
		return nil, fmt.Errorf("labels file: empty path")
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("labels file %s: its directory: %w", path, err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("labels file %s: %s is not a directory", path, dir)
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("labels file %s is a directory", path)
	}
	s := &LabelStore{path: path}
	if _, err := s.read(); err != nil {
		return nil, err
	}
	return s, nil
}

// Path returns the path of the labels file.
func (s *LabelStore) Path() string { return s.path }

// All returns the labels saved in the file, by task id (empty if the file does not exist yet).
func (s *LabelStore) All() (map[string]Label, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return nil, err
	}
	return f.Labels, nil
}

// Put saves l (validated by CheckLabel; Saved set to now if zero), replacing the task's earlier label
// and keeping every other label of the file.
func (s *LabelStore) Put(l Label) error {
	l, err := CheckLabel(l)
	if err != nil {
		return err
	}
	if l.Saved.IsZero() {
		l.Saved = time.Now().UTC().Truncate(time.Second)
	}
	return s.update(func(labels map[string]Label) { labels[l.TaskID] = l })
}

// Delete removes the label of a task (nothing if it has none), keeping every other label.
func (s *LabelStore) Delete(taskID string) error {
	return s.update(func(labels map[string]Label) { delete(labels, taskID) })
}

// update applies change to the file's current labels and writes the result atomically, under the mutex.
func (s *LabelStore) update(change func(map[string]Label)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return err
	}
	change(f.Labels)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("labels file %s: encoding: %w", s.path, err)
	}
	if err := s.writeAtomic(append(data, '\n')); err != nil {
		return fmt.Errorf("labels file %s: saving: %w", s.path, err)
	}
	return nil
}

// read reads and checks the file; a missing file is an empty one.
func (s *LabelStore) read() (labelsFile, error) {
	f := labelsFile{Format: LabelsFormat, Labels: map[string]Label{}}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("labels file: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("labels file %s is not a valid labels file (fix or move it; it is never overwritten): %w",
			s.path, err)
	}
	if f.Format != LabelsFormat {
		return f, fmt.Errorf("labels file %s: format %q, want %q", s.path, f.Format, LabelsFormat)
	}
	if f.Labels == nil {
		f.Labels = map[string]Label{}
	}
	for id, l := range f.Labels {
		if l.TaskID != id {
			return f, fmt.Errorf("labels file %s: the label under %q is for task %q", s.path, id, l.TaskID)
		}
	}
	return f, nil
}

// writeAtomic replaces the labels file with data (atomicfile.Write: temporary file, fsync, rename, fsync
// of the directory; on any error the old file is untouched).
func (s *LabelStore) writeAtomic(data []byte) error {
	return atomicfile.Write(s.path, data, s.beforeRename)
}

// CheckLabel validates a label and returns it normalized: a valid task id, priors known (in the order of
// Priors, no duplicates), the note valid UTF-8 of at most MaxNoteRunes characters without control
// characters other than line breaks and tabs (CR LF turned into LF, surrounding space trimmed).
func CheckLabel(l Label) (Label, error) {
	if !ValidTaskID(l.TaskID) {
		return l, fmt.Errorf("invalid task id %q", l.TaskID)
	}
	priors, err := NormalizePriors(l.Priors)
	if err != nil {
		return l, err
	}
	l.Priors = priors
	note, err := checkNote(l.Note)
	if err != nil {
		return l, err
	}
	l.Note = note
	return l, nil
}

// checkNote validates and normalizes a note (see CheckLabel).
func checkNote(note string) (string, error) {
	if !utf8.ValidString(note) {
		return "", fmt.Errorf("the note is not valid UTF-8 text")
	}
	note = strings.TrimSpace(strings.ReplaceAll(note, "\r\n", "\n"))
	if n := utf8.RuneCountInString(note); n > MaxNoteRunes {
		return "", fmt.Errorf("the note has %d characters, at most %d are allowed", n, MaxNoteRunes)
	}
	for _, r := range note {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", fmt.Errorf("the note holds a control character (%U)", r)
		}
	}
	return note, nil
}

// ValidTaskID reports whether id is a plausible task id: 1 to 64 ASCII letters, digits, '-' or '_'
// (ARC ids are 8 hexadecimal digits). Anything else (dots, slashes, percent signs, spaces) is refused
// before any lookup.
func ValidTaskID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
