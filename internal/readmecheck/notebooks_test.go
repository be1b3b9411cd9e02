// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package readmecheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCellLines is the longest code cell a notebook may have: the notebooks read as a user's code, and what
// does not fit (tables, HTML, reading and joining results) belongs in a package, with tests.
const maxCellLines = 40

// notebookCell is what the check reads of a cell of an .ipynb file.
type notebookCell struct {
	CellType string          `json:"cell_type"`
	ID       string          `json:"id"`
	Source   json.RawMessage `json:"source"` // a string or a list of lines (nbformat allows both)
}

// cellSource returns a cell's source text.
func cellSource(raw json.RawMessage) (string, error) {
	var lines []string
	if err := json.Unmarshal(raw, &lines); err == nil {
		return strings.Join(lines, ""), nil
	}
	var text string
	err := json.Unmarshal(raw, &text)
	return text, err
}

// longCells returns, for the notebook in data, a description of each code cell with more than max lines.
func longCells(data []byte, max int) ([]string, error) {
	var nb struct{ Cells []notebookCell }
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, err
	}
	var long []string
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		src, err := cellSource(c.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d (id %s): %w", i, c.ID, err)
		}
		if n := len(strings.Split(strings.TrimRight(src, "\n"), "\n")); n > max {
			first, _, _ := strings.Cut(src, "\n")
			long = append(long, fmt.Sprintf("cell %d (id %s, %q...) has %d lines", i, c.ID, first, n))
		}
	}
	return long, nil
}

// TestNotebookCellsShort checks that no code cell of a notebook has more than maxCellLines lines, and that
// the check counts lines as the notebooks store them (a list of lines or one string).
func TestNotebookCellsShort(t *testing.T) {
	long41 := strings.Repeat(`"x\n", `, 40) + `"x"`
	for _, c := range []struct {
		nb   string
		long int
	}{
		{`{"cells": [{"cell_type": "code", "id": "a", "source": [` + long41 + `]}]}`, 1},
		{`{"cells": [{"cell_type": "code", "id": "a", "source": [` + strings.Repeat(`"x\n", `, 39) + `"x"]}]}`, 0},
		{`{"cells": [{"cell_type": "markdown", "id": "a", "source": [` + long41 + `]}]}`, 0},
		{`{"cells": [{"cell_type": "code", "id": "a", "source": "` + strings.Repeat(`x\n`, 41) + `"}]}`, 1},
	} {
		if long, err := longCells([]byte(c.nb), maxCellLines); err != nil || len(long) != c.long {
			t.Errorf("fixture %.80s...: %d long cells (%v), want %d", c.nb, len(long), err, c.long)
		}
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found (%v)", err)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		long, err := longCells(data, maxCellLines)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		for _, l := range long {
			t.Errorf("%s: %s, more than %d: move its logic into a package", filepath.Base(path), l, maxCellLines)
		}
	}
}
