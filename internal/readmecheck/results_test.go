// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package readmecheck

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A quote is a number a page quotes from a results file: on the first line of Doc that contains Line (after
// the first line that contains After, when After is set), the first group of Number's first match; when that
// line does not hold it, the lines after it in the same paragraph (not in a table). A count is the number of
// rows of File whose solved column is true (of Category only, when set); a wall time (Wall) that of File's
// last "wall time" line, written "4 min 12 s" in the docs and "4m12s" in the file.
type quote struct {
	Doc, After, Line string
	Number           *regexp.Regexp
	File             string
	Category         string
	Wall             bool
}

// duration is how the docs write a wall time.
const duration = `((?:\d+ h )?(?:\d+ min )?\d+ s)`

// cell matches the number that starts the k-th cell (from 1) of a table row, bold or not.
func cell(k int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^\|(?:[^|]*\|){%d} \**(\d+)`, k-1))
}

// quotes are the numbers the docs quote from results/: the tasks solved of Table 2's rows and of the
// evaluation split's, and the wall times of Table 2's rows.
func quotes() []quote {
	const (
		paper     = "results/arc_training.csv"
		search    = "results/arc_training_search.csv"
		alone     = "results/arc_lattice_search.csv"
		nosearch  = "results/arc_training_nosearch.csv"
		evalPaper = "results/arc_evaluation.csv"
		evalSrch  = "results/arc_evaluation_search.csv"
		evalAlone = "results/arc_evaluation_lattice_search.csv"
		evalNoSr  = "results/arc_evaluation_nosearch.csv"
	)
	re := regexp.MustCompile
	qs := []quote{
		// README.md's table "At a glance".
		{Doc: "README.md", Line: "| [Table 2](", Number: re(`\((\d+) of 84\)`), File: paper},
		{Doc: "README.md", Line: "| [Table 2](", Number: re(`\| ` + duration + ` \(`), File: "results/arc_training_run.txt",
			Wall: true},
		{Doc: "README.md", Line: "| [Table 2 with the lattice search](", Number: re(`\+ search [^(]*\((\d+) of 84`),
			File: search},
		{Doc: "README.md", Line: "| [Table 2 with the lattice search](", Number: re(`search alone [^(]*\((\d+)\)`),
			File: alone},
		{Doc: "README.md", Line: "| [Table 2 with the lattice search](", Number: re(`\| ` + duration + `, the search alone`),
			File: "results/arc_training_search_run.txt", Wall: true},
		{Doc: "README.md", Line: "| [Table 2 with the lattice search](", Number: re(`the search alone ` + duration),
			File: "results/arc_lattice_search_run.txt", Wall: true},
		{Doc: "README.md", Line: "| [Table 2 without the search](", Number: re(`\((\d+) of 84`), File: nosearch},
		{Doc: "README.md", Line: "| [ARC-AGI-1 evaluation split](", Number: re(`LatFormer \+ search (\d+) of 381`),
			File: evalSrch},
		{Doc: "README.md", Line: "| [ARC-AGI-1 evaluation split](", Number: re(`search alone (\d+)`), File: evalAlone},
		{Doc: "README.md", Line: "| [ARC-AGI-1 evaluation split](", Number: re(`paper protocol (\d+)`), File: evalPaper},
		{Doc: "README.md", Line: "| [ARC-AGI-1 evaluation split](", Number: re(`without the search (\d+)`), File: evalNoSr},
		// docs/arc.md.
		{Doc: "docs/arc.md", After: "## Table 2 on our annotation", Line: "| all four | 84 |", Number: cell(3), File: paper},
		{Doc: "docs/arc.md", Line: "**Re-run after issue 63**", Number: re(`the same 84 outcomes \((\d+)\)`), File: paper},
		{Doc: "docs/arc.md", Line: "**Re-run after issue 63**", Number: re(`; ` + duration + ` \(`),
			File: "results/arc_training_run.txt", Wall: true},
		{Doc: "docs/arc.md", Line: "This round's search rows,", Number: re(`rows, (\d+) and \d+ of 84`), File: search},
		{Doc: "docs/arc.md", Line: "This round's search rows,", Number: re(`rows, \d+ and (\d+) of 84`), File: alone},
		{Doc: "docs/arc.md", Line: "**Result on the 84**", Number: re(`\*\*(\d+) of 84 solved`), File: nosearch},
		{Doc: "docs/arc.md", Line: "| all, of 381 |", Number: cell(3), File: evalPaper},
		{Doc: "docs/arc.md", Line: "| all, of 381 |", Number: cell(4), File: evalNoSr},
		{Doc: "docs/arc.md", Line: "| all, of 381 |", Number: cell(5), File: evalSrch},
		{Doc: "docs/arc.md", Line: "| all, of 381 |", Number: cell(6), File: evalAlone},
		// docs/recipes.md's table of the recipes.
		{Doc: "docs/recipes.md", Line: "| `default` |", Number: re(`(\d+) of 84`), File: search},
		{Doc: "docs/recipes.md", Line: "| `paper` |", Number: re(`(\d+) of 84`), File: paper},
		{Doc: "docs/recipes.md", Line: "| `nosearch` |", Number: re(`(\d+) of 84`), File: nosearch},
		{Doc: "docs/recipes.md", Line: "| `evaluation` |", Number: re(`(\d+) of 381`), File: evalSrch},
		{Doc: "docs/recipes.md", Line: "| `paper-evaluation` |", Number: re(`(\d+) of 381`), File: evalPaper},
		{Doc: "docs/recipes.md", Line: "| `nosearch-evaluation` |", Number: re(`(\d+) of 381`), File: evalNoSr},
	}
	// docs/arc.md's Table 2 at the top: each category's tasks solved and all four, by each row's file.
	for _, row := range [][2]string{{"| Translate |", "translate"}, {"| Rotate + Translate |", "rotate"},
		{"| Reflect + Translate |", "reflect"}, {"| Scale + Translate |", "scale"}, {"| all four |", ""}} {
		for k, file := range []string{paper, nosearch, search, alone} {
			qs = append(qs, quote{Doc: "docs/arc.md", Line: row[0], Number: cell(3 + k), File: file, Category: row[1]})
		}
	}
	return qs
}

// minQuotes is the fewest quotes TestResultsQuotes must check: it never passes on an empty list.
const minQuotes = 40

// solvedCount returns the number of rows of the results CSV at path whose solved column is true, of those
// whose category column is category when it is not "".
func solvedCount(path, category string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if len(records) == 0 {
		return 0, fmt.Errorf("%s: empty", path)
	}
	col, cat := slices.Index(records[0], "solved"), slices.Index(records[0], "category")
	if col < 0 || category != "" && cat < 0 {
		return 0, fmt.Errorf("%s: no solved or category column in %q", path, records[0])
	}
	n := 0
	for _, rec := range records[1:] {
		if col < len(rec) && rec[col] == "true" && (category == "" || cat < len(rec) && rec[cat] == category) {
			n++
		}
	}
	return n, nil
}

var fileWallTime = regexp.MustCompile(`wall time (\d[0-9hms.]*)`)

// wallTime returns the wall time of the last line of the run output at path that gives one.
func wallTime(path string) (time.Duration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	lines := strings.Split(string(data), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if m := fileWallTime.FindStringSubmatch(lines[i]); m != nil {
			return time.ParseDuration(m[1])
		}
	}
	return 0, fmt.Errorf("%s: no line with a wall time", path)
}

// docDuration reads a wall time as the docs write it ("1 h 2 min 3 s", "4 min 12 s", "18 s").
func docDuration(s string) (time.Duration, error) {
	var d time.Duration
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return 0, fmt.Errorf("%q is not a wall time", s)
	}
	units := map[string]time.Duration{"h": time.Hour, "min": time.Minute, "s": time.Second}
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.Atoi(f[i])
		u, ok := units[f[i+1]]
		if err != nil || !ok {
			return 0, fmt.Errorf("%q is not a wall time", s)
		}
		d += time.Duration(n) * u
	}
	return d, nil
}

// checkQuotes checks each quote against its file under root and returns how many it checked and a
// message for each that it cannot find or that differs from the file.
func checkQuotes(root string, qs []quote) (int, []string) {
	var errs []string
	texts := map[string][]string{}
	checked := 0
	for _, q := range qs {
		if texts[q.Doc] == nil {
			data, err := os.ReadFile(filepath.Join(root, q.Doc))
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			texts[q.Doc] = strings.Split(string(data), "\n")
		}
		lines := texts[q.Doc]
		from := 0
		if q.After != "" {
			from = slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, q.After) }) + 1
		}
		at := -1
		if from > 0 || q.After == "" {
			if i := slices.IndexFunc(lines[from:], func(l string) bool { return strings.Contains(l, q.Line) }); i >= 0 {
				at = from + i
			}
		}
		if at < 0 {
			after := ""
			if q.After != "" {
				after = fmt.Sprintf(" after %q", q.After)
			}
			errs = append(errs, fmt.Sprintf("%s: no line contains %q%s (it quotes %s)", q.Doc, q.Line, after, q.File))
			continue
		}
		var m []string
		for i := at; m == nil && i < len(lines) && (i == at || lines[i] != "" && !strings.HasPrefix(lines[i], "|")); i++ {
			if m = q.Number.FindStringSubmatch(lines[i]); m != nil {
				at = i
			}
		}
		if m == nil {
			errs = append(errs, fmt.Sprintf("%s:%d: no %s in the paragraph of %q (it quotes %s)", q.Doc, at+1, q.Number,
				q.Line, q.File))
			continue
		}
		where, path := fmt.Sprintf("%s:%d", q.Doc, at+1), filepath.Join(root, q.File)
		if q.Wall {
			want, err := wallTime(path)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", where, err))
				continue
			}
			if got, err := docDuration(m[1]); err != nil || got != want {
				errs = append(errs, fmt.Sprintf("%s: quotes a wall time of %s from %s; the file gives %s", where, m[1],
					q.File, want))
			}
		} else {
			want, err := solvedCount(path, q.Category)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", where, err))
				continue
			}
			what := "tasks"
			if q.Category != "" {
				what = q.Category + " tasks"
			}
			if got, _ := strconv.Atoi(m[1]); got != want {
				errs = append(errs, fmt.Sprintf("%s: quotes %s %s solved in %s; the file has %d", where, m[1], what,
					q.File, want))
			}
		}
		checked++
	}
	return checked, errs
}

// TestResultsQuotes checks the numbers that README.md, docs/arc.md and docs/recipes.md quote from the
// results files (quotes): Table 2's tasks solved (rows whose solved column is true) and its wall times.
func TestResultsQuotes(t *testing.T) {
	checked, errs := checkQuotes(filepath.Join("..", ".."), quotes())
	for _, e := range errs {
		t.Error(e)
	}
	if checked < minQuotes {
		t.Errorf("%d quotes checked, want at least %d", checked, minQuotes)
	}
	t.Logf("%d quotes of results/ checked", checked)
}

// TestResultsQuotesCatchWrongNumbers checks that checkQuotes names the doc, the line, the quoted number and
// the file's for a count, a category's count and a wall time that the files do not give, reads a number on
// a later line of the paragraph, and reports a quote it cannot find.
func TestResultsQuotesCatchWrongNumbers(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"doc.md": "intro\n\n| row | solved 4 of 5 | took 1 min 5 s |\n| other | 2 of 4, rotate 2 | 7 s |\n\n" +
			"**Result** of the run:\nit solved 2 of 4\n",
		"r/rows.csv":  "id,category,solved\na,rotate,true\nb,rotate,false\nc,scale,true\nd,scale,false\ne,scale,true\n",
		"r/run.txt":   "wall time 9s; an earlier run\nwall time 1m4s; results written to r/rows.csv\n",
		"r/other.txt": "wall time 7s\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	qs := []quote{
		{Doc: "doc.md", Line: "| row |", Number: regexp.MustCompile(`solved (\d+) of 5`), File: "r/rows.csv"},
		{Doc: "doc.md", Line: "| row |", Number: regexp.MustCompile(`took ` + duration), File: "r/run.txt", Wall: true},
		{Doc: "doc.md", Line: "| other |", Number: regexp.MustCompile(`rotate (\d+)`), File: "r/rows.csv", Category: "rotate"},
		{Doc: "doc.md", Line: "| other |", Number: regexp.MustCompile(duration + ` \|$`), File: "r/other.txt", Wall: true},
		{Doc: "doc.md", Line: "**Result**", Number: regexp.MustCompile(`solved (\d+) of 4`), File: "r/rows.csv"},
		{Doc: "doc.md", After: "| row |", Line: "| other |", Number: regexp.MustCompile(`(\d+) of 4`), File: "r/rows.csv",
			Category: "scale"},
		{Doc: "doc.md", Line: "| gone |", Number: regexp.MustCompile(`(\d+)`), File: "r/rows.csv"},
		{Doc: "doc.md", Line: "intro", Number: regexp.MustCompile(`(\d+)`), File: "r/rows.csv"},
	}
	checked, errs := checkQuotes(root, qs)
	want := []string{
		"doc.md:3: quotes 4 tasks solved in r/rows.csv; the file has 3",
		"doc.md:3: quotes a wall time of 1 min 5 s from r/run.txt; the file gives 1m4s",
		"doc.md:4: quotes 2 rotate tasks solved in r/rows.csv; the file has 1",
		"doc.md:7: quotes 2 tasks solved in r/rows.csv; the file has 3",
		`doc.md: no line contains "| gone |"`,
		`doc.md:1: no (\d+) in the paragraph of "intro"`,
	}
	if checked != 6 || len(errs) != len(want) {
		t.Errorf("checked %d quotes with errors %q; want 6 checked and %d errors", checked, errs, len(want))
	}
	for i, w := range want {
		if i < len(errs) && !strings.HasPrefix(errs[i], w) {
			t.Errorf("error %d: %q, want it to start %q", i, errs[i], w)
		}
	}
}
