// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestSelectionRoundTrip writes every selection the anchored search can try (each row of the table, a
// colored one in every color, the odd ones out among objects, panels and tiles, each with every modifier
// its row takes) and reads it back: ParseSelection(s.String()) is s, and no two selections share a name.
func TestSelectionRoundTrip(t *testing.T) {
	wins := [][2]int{{3, 2}, {2, 3}}
	var all []Selection
	for _, s := range selectionCandidates(wins) {
		all = append(all, s)
		mods := s.selector().mods
		if mods&modCell != 0 {
			all = append(all, Selection{row: s.row, Color: s.Color, Panels: s.Panels, Tile: s.Tile, Cell: true})
		}
		if mods&modInner != 0 {
			all = append(all, Selection{row: s.row, Color: s.Color, Panels: s.Panels, Tile: s.Tile, Inner: true})
		}
		for m := 1; mods&modMirror != 0 && m <= 3; m++ {
			all = append(all, Selection{row: s.row, Color: s.Color, Mirror: m})
		}
		for corner := range 4 {
			if mods&modWindow != 0 {
				all = append(all, Selection{row: s.row, Color: s.Color, Panels: s.Panels, Tile: s.Tile, Win: wins[0], Corner: corner})
			}
		}
	}
	all = append(all, same, Selection{row: selectionOf("color").row, Color: 3, Mirror: 1, Win: [2]int{2, 2}, Inner: true})
	names := map[string]Selection{}
	rows := map[uint8]bool{}
	for _, s := range all {
		name := s.String()
		if prev, dup := names[name]; dup {
			t.Errorf("%+v and %+v are both named %q", prev, s, name)
		}
		names[name] = s
		rows[s.row] = true
		got, err := ParseSelection(name)
		if err != nil || got != s {
			t.Errorf("ParseSelection(%q) = %+v, %v; want %+v", name, got, err, s)
		}
	}
	if len(rows) != len(selectors) {
		t.Errorf("the round trip covers %d of the table's %d rows", len(rows), len(selectors))
	}
	t.Logf("%d selections round-trip", len(all))
}

// TestSelectionNames pins the names the CSVs and docs write (results and saved solutions hold them), and
// ParseSelection's refusals.
func TestSelectionNames(t *testing.T) {
	for want, s := range map[string]Selection{
		"origin":                {},
		"unique":                {row: selectionOf("unique").row},
		"asymmetric(panels)":    {row: selectionOf("asymmetric").row, Panels: true},
		"uniqueshape(tiles3x2)": {row: selectionOf("uniqueshape").row, Panels: true, Tile: [2]int{3, 2}},
		"cell(holed)":           {row: selectionOf("holed").row, Cell: true},
		"mirror1(color0)":       {row: selectionOf("color").row, Mirror: 2},
		"window3x2tr(fg)":       {row: selectionOf("fg").row, Win: [2]int{3, 2}, Corner: 2},
		"inner(largest1)":       {row: selectionOf("largest1").row, Inner: true},
		"most2":                 {row: selectionOf("most").row, Color: 2},
		"color9":                {row: selectionOf("color").row, Color: 9},
		"selection(200)":        {row: 200},
	} {
		if got := s.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", s, got, want)
		}
	}
	for _, bad := range []string{"", "color", "color10", "colorx", "bogus", "largest(panels)", "mirror0(largest)",
		"cell(tile)", "cell(window3x3tl(fg))", "window0x3tl(fg)", "inner(inner(fg))", "same(panels)", "cell(same)"} {
		if s, err := ParseSelection(bad); err == nil {
			t.Errorf("ParseSelection(%q) = %v; want an error", bad, s)
		}
	}
	if _, err := ParseSelection("bogus"); err == nil || !strings.Contains(err.Error(), "largest1") {
		t.Errorf("ParseSelection(bogus): %v; want the error to list the selections", err)
	}
}

// TestSelectionTable checks the table's shape: eight kinds and four modifiers (at most twelve), a
// document for every row, every kind with a row, and the order the search tries them in (it decides
// between proposals of equal rank, so reordering the table changes results).
func TestSelectionTable(t *testing.T) {
	table := SelectionTable()
	kinds := map[SelectionKind]bool{}
	for _, row := range table {
		kinds[row.Kind] = true
		if row.Doc == "" {
			t.Errorf("row %s has no doc", row.Name)
		}
	}
	if n := len(kinds) + 4; len(kinds) != len(kindNames) || n > 12 {
		t.Errorf("%d kinds (%d named) and 4 modifiers; want every kind used and at most 12 in all", len(kinds), len(kindNames))
	}
	var order []string
	for _, s := range selectionCandidates(nil) {
		if s.selector().colored && s.Color > 0 {
			continue
		}
		order = append(order, s.String())
	}
	want := []string{"origin", "grid", "fg", "largest", "smallest", "largest1", "smallest1", "holed", "inside", "unique",
		"rect", "tile", "rarest", "color0", "most0", "uniqueshape", "symmetric", "asymmetric", "common",
		"unique(panels)", "uniqueshape(panels)", "symmetric(panels)", "asymmetric(panels)", "common(panels)"}
	if !slices.Equal(order, want) {
		t.Errorf("candidate order %v;\nwant %v", order, want)
	}
}

// TestSelectionTableDocumented checks that docs/arc-search.md lists every row of the table with its kind,
// modifiers and doc, as SelectionTable gives them.
func TestSelectionTableDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/arc-search.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range SelectionTable() {
		line := fmt.Sprintf("| %s | `%s` | %s | %s |", row.Kind, row.Name, strings.Join(row.Modifiers, ", "), row.Doc)
		if !strings.Contains(string(data), line+"\n") {
			t.Errorf("docs/arc-search.md lacks the row\n%s", line)
		}
	}
}
