// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package readmecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// normalize drops indentation, blank lines and the width of runs of spaces (gofmt aligns trailing
// comments), so that a snippet quoted from inside a function body (one tab deeper) matches.
func normalize(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// TestReadmeGoSnippetsAreTested checks that every ```go block of README.md and of the pages under docs/ is
// part of an Example test or of a program under examples/ (whose Example test runs it).
func TestReadmeGoSnippetsAreTested(t *testing.T) {
	root := filepath.Join("..", "..")
	var sources []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "runs" || d.Name() == "scratch" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") || strings.HasPrefix(filepath.ToSlash(path), "../../examples/") && strings.HasSuffix(path, ".go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources = append(sources, normalize(string(data)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, f := range docFiles(t, root) {
		if f == "README.md" || strings.HasPrefix(f, "docs/") {
			pages = append(pages, f)
		}
	}
	total := 0
	for _, page := range pages {
		text, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		blocks := goBlock.FindAllStringSubmatch(string(text), -1)
		if page == "README.md" && len(blocks) == 0 {
			t.Fatal("no ```go block in README.md: the test would check nothing")
		}
		total += len(blocks)
		for i, b := range blocks {
			snippet := normalize(b[1])
			found := false
			for _, src := range sources {
				if strings.Contains(src, snippet) {
					found = true
					break
				}
			}
			if !found {
				first, _, _ := strings.Cut(snippet, "\n")
				t.Errorf("%s: go block %d (starting %q) is not part of any Example test or examples/ program: copy it from the code it belongs to", page, i+1, first)
			}
		}
	}
	if len(pages) < 10 {
		t.Errorf("only %d pages (README.md and docs/) read: %v", len(pages), pages)
	}
	t.Logf("%d go blocks in %d pages found in tests", total, len(pages))
}
