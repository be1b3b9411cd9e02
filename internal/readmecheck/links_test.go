// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package readmecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles returns the repository's Markdown files (relative to root, with slashes): README.md, docs/
// and every other .md of the project; third-party code, git, runs/ and virtual environments are left out.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "runs" || d.Name() == "scratch" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	mdHeading  = regexp.MustCompile(`^#{1,6} (.*)$`)
	inlineLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	htmlAnchor = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	schemeLink = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)
)

// outsideFences returns the lines of a Markdown text that are not inside ``` code blocks.
func outsideFences(text string) []string {
	var lines []string
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if !fence {
			lines = append(lines, l)
		}
	}
	return lines
}

// Anchor is GitHub's id of a heading: the text as rendered (a link's text, not its target), lower case,
// every character but letters, digits, marks, '_', '-' and ' ' dropped, spaces made '-'.
func Anchor(heading string) string {
	heading = inlineLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the ids a Markdown text's headings (numbered -1, -2, ... on repeats, as GitHub does) and
// its <a id> elements define.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range outsideFences(text) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
		m := mdHeading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := Anchor(m[1])
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// links returns the relative links of a Markdown text (outside code), as written.
func links(text string) []string {
	var out []string
	for _, l := range outsideFences(text) {
		l = inlineCode.ReplaceAllStringFunc(l, func(code string) string {
			if strings.Contains(code, "](") {
				return "" // a link written as code is not a link
			}
			return code
		})
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			if !schemeLink.MatchString(m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// TestDocLinks checks every relative link of the repository's Markdown files (README.md, docs/, results/,
// notebooks/, ...): the file or directory it names exists, and its #anchor is a heading (or <a id>) of the
// Markdown file it points into. It also checks that every page under docs/ is reachable from README.md by
// following links.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files := docFiles(t, root)
	if !slices.Contains(files, "README.md") || !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "docs/") }) {
		t.Fatalf("Markdown files found: %v; want README.md and docs/", files)
	}
	texts := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(data)
	}
	ids := map[string]map[string]bool{}
	idsOf := func(f string) map[string]bool {
		if ids[f] == nil {
			ids[f] = anchors(texts[f])
		}
		return ids[f]
	}
	edges := map[string][]string{}
	checked := 0
	for _, f := range files {
		for _, target := range links(texts[f]) {
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f), path)))
				info, err := os.Stat(filepath.Join(root, dest))
				if err != nil {
					t.Errorf("%s: link %q: %s does not exist", f, target, dest)
					continue
				}
				if info.IsDir() {
					if _, err := os.Stat(filepath.Join(root, dest, "README.md")); err == nil {
						edges[f] = append(edges[f], dest+"/README.md")
					}
				}
			}
			if strings.HasSuffix(dest, ".md") {
				edges[f] = append(edges[f], dest)
			}
			checked++
			if frag == "" {
				continue
			}
			if _, ok := texts[dest]; !ok {
				t.Errorf("%s: link %q: an anchor into %s, which is not a Markdown file of the repository", f, target, dest)
				continue
			}
			if !idsOf(dest)[frag] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", f, target, dest, frag)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d links checked: the parser missed them", checked)
	}
	// Every docs page is reachable from the README.
	reached := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, g := range edges[f] {
			if !reached[g] {
				reached[g] = true
				queue = append(queue, g)
			}
		}
	}
	for _, f := range files {
		if strings.HasPrefix(f, "docs/") && !reached[f] {
			t.Errorf("%s is not reachable from README.md by links", f)
		}
	}
	t.Logf("%d links in %d Markdown files checked", checked, len(files))
}

// TestAnchor checks Anchor against ids that GitHub gives the headings of this repository.
func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Table 2 with the lattice search (`gate_init=search`, the default; `--model lattice_search`)": "table-2-with-the-lattice-search-gate_initsearch-the-default---model-lattice_search",
		"ARC-AGI-1's evaluation split (`make arc-evaluation`)":                                        "arc-agi-1s-evaluation-split-make-arc-evaluation",
		"A T5 encoder in GoMLX (package [`t5`](t5/doc.go))":                                           "a-t5-encoder-in-gomlx-package-t5",
		"`make bench`: ms per training step":                                                          "make-bench-ms-per-training-step",
	} {
		if got := Anchor(heading); got != want {
			t.Errorf("Anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}

// guideMaxLines is the most lines docs/arc.md, the reader's guide to Table 2, may have (issue 45): the rows,
// how to run them and why they differ from the paper; probes and ablations by task id live on their own pages.
const guideMaxLines = 350

// TestArcGuideLength checks that docs/arc.md stays a guide of at most guideMaxLines lines, and that it still
// links to each of the pages that hold its detail.
func TestArcGuideLength(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "arc.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > guideMaxLines {
		t.Errorf("docs/arc.md has %d lines, more than %d: move detail (probes, ablations by task id, history) to "+
			"docs/arc-search.md, docs/arc-ablations.md or docs/arc-baselines.md", n, guideMaxLines)
	}
	linked := links(text)
	for _, page := range []string{"arc-data.md", "arc-search.md", "arc-ablations.md", "arc-baselines.md", "recipes.md"} {
		if !slices.ContainsFunc(linked, func(l string) bool { return l == page || strings.HasPrefix(l, page+"#") }) {
			t.Errorf("docs/arc.md does not link to %s, one of the pages that hold its detail", page)
		}
	}
}
