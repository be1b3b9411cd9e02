// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Selections: the boxes an anchored element reads off each input. Every selection is a row of one table
// (selectors): its kind, its name, the modifiers it takes and how it reads its box. String, ParseSelection,
// BoxOf, ObjectColors and the anchored search's candidates (frameSelections) all read the table, so a new
// way to pick a box is one row.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/latformer/latformer/datasets"
)

// SelectionKind is what a Selection reads off an input: the rows of the selection table (its properties)
// come in eight kinds.
type SelectionKind int

const (
	// SelOrigin is the canvas' top-left cell (a placement reference only).
	SelOrigin SelectionKind = iota
	// SelSame is the source box itself: the result stays where the crop was (a placement reference only).
	SelSame
	// SelGrid is the input's grid (the non-pad rectangle at the top-left).
	SelGrid
	// SelForeground is the box of every cell that is neither pad nor the background (the input's most
	// frequent color; none on a tie).
	SelForeground
	// SelColor is the box of the cells of one color: a constant one (Selection.Color) or the rarest.
	SelColor
	// SelObject is the box of one object picked by a property: the largest or smallest, the holed one, the
	// one inside a hole, the solid rectangle, the block with the most cells of a color.
	SelObject
	// SelOdd is the box of the odd one out among the objects or the panels (Selection.Panels, Tile): the
	// only one with a property (unique, of a unique shape, symmetric, asymmetric), or the most common one.
	SelOdd
	// SelTile is the grid's repeating unit: the top-left box of the smallest number of rows and of columns,
	// each dividing the grid's, whose copies make the grid; none where the grid does not repeat.
	SelTile
)

var kindNames = [...]string{"origin", "same", "grid", "fg", "color", "object", "odd", "tile"}

// String is the kind's name in the docs.
func (k SelectionKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// modifier is a set of the modifiers a selection may carry (Selection.Cell, Mirror, Win, Inner).
type modifier uint8

const (
	modCell modifier = 1 << iota
	modMirror
	modWindow
	modInner
)

// selector is a row of the selection table.
type selector struct {
	kind SelectionKind
	// name is the row's name as String writes it; a colored row appends its color (Selection.Color).
	name    string
	colored bool
	// mods are the modifiers the anchored search tries on the row (frameSelections) and ParseSelection
	// accepts.
	mods modifier
	// box reads the row's box off the canvas (false: none). The odd rows leave it nil and pick among the
	// candidates (oddBox) with odd; mono: the objects are of one color each.
	box  func(c datasets.Canvas, s Selection) (Box, bool)
	odd  func(ms []member, bg int) (Box, bool)
	mono bool
	// doc says what the row picks, and the ARC training tasks the lattice search solves with it.
	doc string
}

// selectors is the selection table. Its order is the order in which the anchored search tries the
// selections as sources (frameSelections), which decides between proposals of equal rank.
var selectors = []selector{
	{kind: SelOrigin, name: "origin",
		box: func(datasets.Canvas, Selection) (Box, bool) { return Box{0, 0, 1, 1}, true },
		doc: "the canvas' top-left cell: a crop stays at the corner"},
	{kind: SelGrid, name: "grid", mods: modWindow | modInner, box: gridBox,
		doc: "the grid (a416b8f3, ac0a08a4, b91ae062)"},
	{kind: SelForeground, name: "fg", mods: modWindow | modInner, box: foreground(boxWhere),
		doc: "every cell that is not the background (1b60fb0c, 1cf80156, 2013d3e2, 5bd6f4ac, 6d75e8bb, 7468f01a, ...)"},
	{kind: SelObject, name: "largest", mods: objectMods, box: objectBy(true, false),
		doc: "the largest object, 8-connected cells of any colors (05f2a901, 88a10436, be94b721)"},
	{kind: SelObject, name: "smallest", mods: objectMods, box: objectBy(false, false),
		doc: "the smallest object (05f2a901, 88a10436, b230c067)"},
	{kind: SelObject, name: "largest1", mods: objectMods, box: objectBy(true, true),
		doc: "the largest one-color object, 4-connected (1c786137, a1570a43)"},
	{kind: SelObject, name: "smallest1", mods: objectMods, box: objectBy(false, true),
		doc: "the smallest one-color object (23b5c85d)"},
	{kind: SelObject, name: "holed", mods: objectMods, box: holed(false),
		doc: "the one-color object with a hole (b9b7f026; with inside, the family of rings and what they hold)"},
	{kind: SelObject, name: "inside", mods: objectMods, box: holed(true),
		doc: "the one-color object lying in another's hole (d9fac9be; see holed)"},
	{kind: SelOdd, name: "unique", mods: objectMods, odd: oddUnique,
		doc: "the only object or panel whose cells and colors no other has (88a62173, 2dc579da)"},
	{kind: SelObject, name: "rect", mods: objectMods, box: foreground(rectBox),
		doc: "the largest filled one-color rectangle, the solid block among noise (91714a58)"},
	{kind: SelTile, name: "tile", mods: modWindow,
		box: func(c datasets.Canvas, _ Selection) (Box, bool) { return tileBox(c) },
		doc: "the grid's repeating unit (7b7f7511)"},
	{kind: SelColor, name: "rarest", mods: objectMods,
		box: func(c datasets.Canvas, _ Selection) (Box, bool) { return rarestBox(c) },
		doc: "the color with the fewest cells, the odd color out (0b148d64, 32597951, c909285e)"},
	{kind: SelColor, name: "color", colored: true, mods: objectMods | modMirror,
		box: func(c datasets.Canvas, s Selection) (Box, bool) {
			return boxWhere(c, func(v int32) bool { return int(v) == s.Color })
		},
		doc: "the cells of one color (9ecd008a, dc0a314f, dc433765, e3497940, ff805c23)"},
	{kind: SelObject, name: "most", colored: true, mods: objectMods,
		box: func(c datasets.Canvas, s Selection) (Box, bool) { return mostOfBox(c, s.Color) },
		doc: "the block with the most cells of one color (8efcae92, ae4f1146, e50d258f)"},
	{kind: SelOdd, name: "uniqueshape", mods: objectMods, odd: oddUniqueShape,
		doc: "the only object or panel of its shape, colors aside (a87f7484; with unique, the odd one out)"},
	{kind: SelOdd, name: "symmetric", mods: objectMods, odd: oddSymmetric,
		doc: "the only object or panel that is its own mirror image (72ca375d; with asymmetric)"},
	{kind: SelOdd, name: "asymmetric", mods: objectMods, odd: oddAsymmetric,
		doc: "the only object or panel that is not (662c240a; with symmetric)"},
	{kind: SelOdd, name: "common", mods: objectMods, mono: true, odd: oddCommon,
		doc: "the first of the copies of the pattern most one-color objects or panels share (39a8645d)"},
	{kind: SelSame, name: "same",
		doc: "the source box itself: the result stays in place " +
			"(1b60fb0c, 32597951, 6d75e8bb, 91714a58, a416b8f3, ...)"},
}

// objectMods are the modifiers of the rows that pick one thing: its first cell, a window, its inside.
const objectMods = modCell | modWindow | modInner

// Selection names a box of an input: a row of the selection table (ParseSelection reads one from its
// name), Color for a colored row, and the modifiers. Cell narrows the box to one cell: the first cell of
// the box, in reading order, that is neither pad nor the background (the box's top-left where all are):
// "the color of" an object as a 1 x 1 crop. Mirror reflects the box through the grid's middle on the axes
// it sets (bit 0: rows, bit 1: columns): where a symmetric pattern is hidden under a color, the box of
// that color mirrored is where the hidden cells can still be read.
//
// Win, where set (rows and columns both > 0), narrows the box to a window of that constant size at one of its
// corners (Corner: bit 0 the last rows, bit 1 the last columns): a part of fixed size read at an edge of
// an object or of the grid, as when every output has one size (none where the box is smaller).
//
// Inner narrows the box to its inside, one cell in from each edge: what a frame encloses (none where the
// box has fewer than 3 rows or columns).
//
// Panels, for the odd ones out (SelOdd), chooses among the grid's panels instead of its objects: the
// rectangles between the full lines of one color (Tile zero), or the tiles of size Tile (rows, columns)
// that make up the grid.
//
// The zero Selection is the canvas corner (SelOrigin).
type Selection struct {
	row    uint8 // index in selectors
	Color  int
	Cell   bool
	Mirror int
	Win    [2]int
	Corner int
	Inner  bool
	Panels bool
	Tile   [2]int
}

// Kind is the kind of the selection's row.
func (s Selection) Kind() SelectionKind { return s.selector().kind }

func (s Selection) selector() *selector {
	if int(s.row) >= len(selectors) {
		return &selector{kind: -1, name: fmt.Sprintf("selection(%d)", s.row)}
	}
	return &selectors[s.row]
}

// selectionOf is the plain selection of the row named name (a package constant: it panics on an unknown
// name).
func selectionOf(name string) Selection {
	for i, row := range selectors {
		if row.name == name {
			return Selection{row: uint8(i)}
		}
	}
	panic("search: no selection " + name)
}

var (
	origin = selectionOf("origin")
	same   = selectionOf("same")
)

// String names the selection as the CSVs and docs write it (ParseSelection reads it back).
func (s Selection) String() string {
	if s.Inner {
		t := s
		t.Inner = false
		return "inner(" + t.String() + ")"
	}
	if s.Win[0] > 0 {
		t := s
		t.Win, t.Corner = [2]int{}, 0
		corner := [4]string{"tl", "bl", "tr", "br"}[s.Corner&3]
		return fmt.Sprintf("window%dx%d%s(%s)", s.Win[0], s.Win[1], corner, t)
	}
	if s.Mirror != 0 {
		t := s
		t.Mirror = 0
		axes := map[int]string{1: "0", 2: "1", 3: "01"}[s.Mirror]
		return "mirror" + axes + "(" + t.String() + ")"
	}
	if s.Cell {
		t := s
		t.Cell = false
		return "cell(" + t.String() + ")"
	}
	row := s.selector()
	name := row.name
	if row.colored {
		name += strconv.Itoa(s.Color)
	}
	switch {
	case s.Tile[0] > 0:
		return fmt.Sprintf("%s(tiles%dx%d)", name, s.Tile[0], s.Tile[1])
	case s.Panels:
		return name + "(panels)"
	}
	return name
}

var (
	windowName = regexp.MustCompile(`^window([1-9][0-9]*)x([1-9][0-9]*)(tl|bl|tr|br)\((.*)\)$`)
	mirrorName = regexp.MustCompile(`^mirror(0|1|01)\((.*)\)$`)
	oddAmong   = regexp.MustCompile(`^([a-z0-9]+)\((panels|tiles([1-9][0-9]*)x([1-9][0-9]*))\)$`)
)

// ParseSelection reads a selection from its name (Selection.String): a row of the selection table
// ("largest", "color3", "unique(panels)", "common(tiles3x3)") inside at most one of each modifier
// ("cell(…)", "mirror0(…)", "window3x3tl(…)", "inner(…)", nested in that order from the inside out).
func ParseSelection(name string) (Selection, error) {
	s, err := parseSelection(name)
	if err != nil {
		return Selection{}, fmt.Errorf("search.ParseSelection %q: %w", name, err)
	}
	return s, nil
}

func parseSelection(name string) (Selection, error) {
	// unwrap reads the modifier's argument, which must carry none of the modifiers outside it.
	unwrap := func(arg string, outer modifier) (Selection, error) {
		s, err := parseSelection(arg)
		if err != nil {
			return s, err
		}
		if s.modifiers()&^(outer-1) != 0 {
			return s, fmt.Errorf("modifiers nest as inner(window(mirror(cell(…))))")
		}
		if s.selector().mods&outer == 0 {
			return s, fmt.Errorf("%s takes no %s", s.selector().name, outer)
		}
		return s, nil
	}
	switch {
	case strings.HasPrefix(name, "inner(") && strings.HasSuffix(name, ")"):
		s, err := unwrap(name[len("inner("):len(name)-1], modInner)
		s.Inner = true
		return s, err
	case windowName.MatchString(name):
		m := windowName.FindStringSubmatch(name)
		s, err := unwrap(m[4], modWindow)
		s.Win[0], _ = strconv.Atoi(m[1])
		s.Win[1], _ = strconv.Atoi(m[2])
		s.Corner = map[string]int{"tl": 0, "bl": 1, "tr": 2, "br": 3}[m[3]]
		return s, err
	case mirrorName.MatchString(name):
		m := mirrorName.FindStringSubmatch(name)
		s, err := unwrap(m[2], modMirror)
		s.Mirror = map[string]int{"0": 1, "1": 2, "01": 3}[m[1]]
		return s, err
	case strings.HasPrefix(name, "cell(") && strings.HasSuffix(name, ")"):
		s, err := unwrap(name[len("cell("):len(name)-1], modCell)
		s.Cell = true
		return s, err
	}
	var s Selection
	if m := oddAmong.FindStringSubmatch(name); m != nil {
		name, s.Panels = m[1], true
		if m[3] != "" {
			s.Tile[0], _ = strconv.Atoi(m[3])
			s.Tile[1], _ = strconv.Atoi(m[4])
		}
	}
	for i, row := range selectors {
		switch {
		case !row.colored && name == row.name:
		case row.colored && strings.HasPrefix(name, row.name) && len(name) == len(row.name)+1 &&
			name[len(row.name)] >= '0' && int(name[len(row.name)]-'0') < datasets.PadToken:
			s.Color = int(name[len(row.name)] - '0')
		default:
			continue
		}
		s.row = uint8(i)
		if s.Panels && row.kind != SelOdd {
			return s, fmt.Errorf("only the odd ones out (%s) choose among panels or tiles", SelOdd)
		}
		return s, nil
	}
	return s, fmt.Errorf("no such selection (%s)", strings.Join(SelectionNames(), ", "))
}

// modifiers is the set of modifiers s carries.
func (s Selection) modifiers() modifier {
	var m modifier
	if s.Cell {
		m |= modCell
	}
	if s.Mirror != 0 {
		m |= modMirror
	}
	if s.Win[0] > 0 {
		m |= modWindow
	}
	if s.Inner {
		m |= modInner
	}
	return m
}

// String names the modifier as a selection's name writes it.
func (m modifier) String() string {
	return map[modifier]string{modCell: "cell", modMirror: "mirror", modWindow: "window", modInner: "inner"}[m]
}

// SelectionNames lists the rows of the selection table, a colored one as "color<c>".
func SelectionNames() []string {
	names := make([]string, len(selectors))
	for i, row := range selectors {
		names[i] = row.name
		if row.colored {
			names[i] += "<c>"
		}
	}
	return names
}

// SelectionDoc is one row of the selection table as the docs list it.
type SelectionDoc struct {
	Kind SelectionKind
	// Name is the row's name ("color<c>" for a colored one); Modifiers those the search tries on it.
	Name      string
	Modifiers []string
	// Doc says what the row picks and which ARC training tasks the lattice search solves with it.
	Doc string
}

// SelectionTable returns the selection table, row by row, in the order the search tries them.
func SelectionTable() []SelectionDoc {
	names := SelectionNames()
	out := make([]SelectionDoc, len(selectors))
	for i, row := range selectors {
		out[i] = SelectionDoc{Kind: row.kind, Name: names[i], Doc: row.doc}
		for m := modCell; m <= modInner; m <<= 1 {
			if row.mods&m != 0 {
				out[i].Modifiers = append(out[i].Modifiers, m.String())
			}
		}
	}
	return out
}

// BoxOf returns the box the selection reads off the canvas, and false where it reads none (an absent color,
// no foreground, a tie between objects). SelOrigin is the 1 x 1 box at (0, 0); SelSame has no box of its own.
func (s Selection) BoxOf(c datasets.Canvas) (Box, bool) {
	if s.modifiers() != 0 {
		b, ok := s.base().BoxOf(c)
		if !ok {
			return Box{}, false
		}
		return s.modify(c, b)
	}
	row := s.selector()
	switch {
	case row.box != nil:
		return row.box(c, s)
	case row.odd != nil:
		return oddBox(c, s, row)
	}
	return Box{}, false
}

// base is the selection without its modifiers (Cell, Mirror, Win, Inner): its row, color and candidates.
func (s Selection) base() Selection {
	return Selection{row: s.row, Color: s.Color, Panels: s.Panels, Tile: s.Tile}
}

// modify applies the selection's modifiers to b, the box its base reads off c: the box mirrored through the
// grid's middle (Mirror; false where it leaves the grid), then its first cell (Cell), then its inside
// (Inner; false where it has fewer than 3 rows or columns), then the window at its corner (Win; false where
// b is smaller than the window).
func (s Selection) modify(c datasets.Canvas, b Box) (Box, bool) {
	if s.Mirror != 0 {
		h, w := GridExtents(c)
		if s.Mirror&1 != 0 {
			b.R0 = h - b.R0 - b.H
		}
		if s.Mirror&2 != 0 {
			b.C0 = w - b.C0 - b.W
		}
		if b.R0 < 0 || b.C0 < 0 {
			return Box{}, false
		}
	}
	if s.Cell {
		b = firstCell(c, b)
	}
	if s.Inner {
		if b.H < 3 || b.W < 3 {
			return Box{}, false
		}
		b = Box{b.R0 + 1, b.C0 + 1, b.H - 2, b.W - 2}
	}
	if s.Win[0] > 0 {
		h, w := s.Win[0], s.Win[1]
		if h > b.H || w > b.W {
			return Box{}, false
		}
		if s.Corner&1 != 0 {
			b.R0 += b.H - h
		}
		if s.Corner&2 != 0 {
			b.C0 += b.W - w
		}
		b.H, b.W = h, w
	}
	return b, true
}

// ColorNamed returns the color the selection names (a constant color's box, SelColor), if it names one.
func (s Selection) ColorNamed() (int, bool) {
	row := s.selector()
	return s.Color, row.kind == SelColor && row.colored
}

// ObjectColors returns the colors of the object the selection picks on the canvas (SelObject, SelOdd): the
// colors other than pad and the background inside its box, ascending (the whole object's box where Cell
// is set); ok is false for the other kinds and where the selection reads no box.
func (s Selection) ObjectColors(c datasets.Canvas) (colors []int, ok bool) {
	if k := s.Kind(); k != SelObject && k != SelOdd {
		return nil, false
	}
	s.Cell, s.Win, s.Corner, s.Inner = false, [2]int{}, 0, false
	b, ok := s.BoxOf(c)
	if !ok {
		return nil, false
	}
	bg := Background(c)
	var seen [datasets.NumTokens]bool
	for r := b.R0; r < b.R0+b.H; r++ {
		for col := b.C0; col < b.C0+b.W; col++ {
			if v := c.Cells[r*c.Cols+col]; v != datasets.PadToken && int(v) != bg {
				seen[v] = true
			}
		}
	}
	for v, in := range seen {
		if in {
			colors = append(colors, v)
		}
	}
	return colors, true
}

// selectionCandidates are the selections the anchored search reads on every input, in the table's order
// (a colored row once per color), then the odd ones out among the panels and among the tiles of each
// size of wins. SelSame is left out: it reads no box.
func selectionCandidates(wins [][2]int) []Selection {
	var out []Selection
	for i, row := range selectors {
		switch {
		case row.kind == SelSame:
		case row.colored:
			for c := range datasets.PadToken {
				out = append(out, Selection{row: uint8(i), Color: c})
			}
		default:
			out = append(out, Selection{row: uint8(i)})
		}
	}
	for i, row := range selectors {
		if row.kind != SelOdd {
			continue
		}
		out = append(out, Selection{row: uint8(i), Panels: true})
		for _, win := range wins {
			out = append(out, Selection{row: uint8(i), Panels: true, Tile: win})
		}
	}
	return out
}

// gridBox is SelGrid's box.
func gridBox(c datasets.Canvas, _ Selection) (Box, bool) {
	h, w := GridExtents(c)
	return Box{0, 0, h, w}, true
}

// foreground is the box function of a row that reads the foreground cells (neither pad nor the
// background) with f; none where the background is a tie.
func foreground(
	f func(c datasets.Canvas, fg func(int32) bool) (Box, bool),
) func(datasets.Canvas, Selection) (Box, bool) {
	return func(c datasets.Canvas, _ Selection) (Box, bool) {
		bg := Background(c)
		if bg < 0 {
			return Box{}, false
		}
		return f(c, func(v int32) bool { return v != datasets.PadToken && int(v) != bg })
	}
}

// objectBy is the box function of the largest or smallest object (mono: of one color, 4-connected).
func objectBy(largest, mono bool) func(datasets.Canvas, Selection) (Box, bool) {
	return foreground(func(c datasets.Canvas, fg func(int32) bool) (Box, bool) {
		return objectBox(c, fg, largest, mono)
	})
}

// holed is the box function of the holed object, or (inside) of the object inside a hole.
func holed(inside bool) func(datasets.Canvas, Selection) (Box, bool) {
	return foreground(func(c datasets.Canvas, fg func(int32) bool) (Box, bool) { return holedBox(c, fg, inside) })
}

// rarestBox is the box of the color with the fewest cells, other than pad; none on a tie.
func rarestBox(c datasets.Canvas) (Box, bool) {
	best := extremeColor(colorCounts(c), false)
	if best < 0 {
		return Box{}, false
	}
	return boxWhere(c, func(v int32) bool { return int(v) == best })
}
