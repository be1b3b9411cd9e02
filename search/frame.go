// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// The anchor-relative search (Group.Anchored): elements g(x) = T(a(x)) ∘ B whose base B acts on a box read
// off each input and whose result is placed against another box (FrameRule), so that one element describes
// pairs whose per-pair elements differ (a crop at an object, an object moved to an anchor, turned in place).

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
)

// frameElement is an element of the anchor-relative group: a size-relative element (its turn, flips and
// scaling; no translation) acting on the crop, and the frame rule that crops and places.
type frameElement struct {
	grid gridElement
	rule FrameRule
}

// movedSize returns the rows and columns of the box a gather (on a rows x cols canvas) fills: the last
// row and column that read a cell, plus one.
func movedSize(g []int32, cols int) (h, w int) {
	for i, s := range g {
		if s >= 0 {
			h, w = max(h, i/cols+1), max(w, i%cols+1)
		}
	}
	return h, w
}

// frameGather returns the gather of the element on x: cell (r, c) reads the crop's cell that the base's
// gather on the crop (an H x W grid at the top-left) gives cell (r - DR, c - DC), -1 where none; and the frame.
func (el frameElement) frameGather(
	x datasets.Canvas, cache map[string]*pairscan.PrimGather,
) ([]int32, Frame, bool, error) {
	src, ok := el.rule.Src.BoxOf(x)
	if !ok {
		return nil, Frame{}, false, nil
	}
	gb, err := el.grid.gather(x.Rows, x.Cols, src.H, src.W, cache)
	if err != nil {
		return nil, Frame{}, false, err
	}
	k := 0
	if el.rule.ScaleByColors {
		if k = CountColors(x); k < 1 {
			return nil, Frame{}, false, nil
		}
		if gb, err = upscaled(gb, k, x.Rows, x.Cols, cache); err != nil {
			return nil, Frame{}, false, err
		}
	}
	h, w := movedSize(gb, x.Cols)
	f, ok := el.rule.FrameOf(x, func(int, int) (int, int) { return h, w })
	if !ok {
		return nil, Frame{}, false, nil
	}
	f.SR, f.SC = k, k
	out := make([]int32, len(x.Cells))
	for i := range out {
		out[i] = framedSource(gb, f, x.Rows, x.Cols, i)
	}
	return out, f, true, nil
}

// framedSource is the input cell that cell i reads under the base's gather gb on the crop, placed by f.
func framedSource(gb []int32, f Frame, rows, cols, i int) int32 {
	r, c := i/cols-f.DR, i%cols-f.DC
	if r < 0 || c < 0 || r >= rows || c >= cols {
		return -1
	}
	s := gb[r*cols+c]
	if s < 0 {
		return -1
	}
	return int32((int(s)/cols+f.R0)*cols + int(s)%cols + f.C0)
}

// action is the element's base as the expert writes it (its rule is Proposal.Frame's).
func (el frameElement) String() string { return el.rule.String() + "∘" + el.grid.action().String() }

// framePair is a pair of an anchored search, with the boxes its selections read.
type framePair struct {
	x, y  datasets.Canvas
	order []int32
	boxes map[Selection]Box
}

// frameSelections returns the selections that read a box on every input (selectionCandidates; sources:
// all but the corner; references: the corner, the source box and the sources without modifiers), and the
// boxes they read. Each source comes with the modifiers its row takes (selector.mods): its first cell
// (Selection.Cell), a color's box mirrored on each axis and both where the mirrored box does not overlap
// the color's on any input (Selection.Mirror: cropped at the corner or put in place of the color's box),
// a window of each size of wins at the four corners, where it fits on every input and is smaller than the
// box on one (Selection.Win), and its inside (Selection.Inner); the modified ones are sources only,
// cropped at the corner.
func frameSelections(inputs []datasets.Canvas, wins [][2]int) (srcs, refs []Selection, boxes []map[Selection]Box) {
	cands := selectionCandidates(wins)
	boxes = make([]map[Selection]Box, len(inputs))
	for i := range boxes {
		boxes[i] = map[Selection]Box{}
	}
	// keep adds s where it reads a box on every input (box: from the input and s's base box), with
	// those boxes.
	keep := func(s Selection, box func(x datasets.Canvas, base Box) (Box, bool)) bool {
		read := make([]Box, len(inputs))
		for i, x := range inputs {
			b, ok := box(x, boxes[i][s.base()])
			if !ok {
				return false
			}
			read[i] = b
		}
		for i := range inputs {
			boxes[i][s] = read[i]
		}
		return true
	}
	var cells, mirrored, windows, inners []Selection
	for _, s := range cands {
		if !keep(s, func(x datasets.Canvas, _ Box) (Box, bool) { return s.BoxOf(x) }) {
			continue
		}
		if s.Kind() == SelOrigin {
			continue // a reference only
		}
		srcs = append(srcs, s)
		if s.Panels {
			continue // an odd one out among panels takes no modifiers (those among objects do)
		}
		row := s.selector()
		if row.mods&modCell != 0 {
			cell := Selection{row: s.row, Color: s.Color, Cell: true}
			if keep(cell, func(x datasets.Canvas, b Box) (Box, bool) { return cell.modify(x, b) }) {
				cells = append(cells, cell)
			}
		}
		if row.mods&modInner != 0 {
			in := Selection{row: s.row, Color: s.Color, Inner: true}
			if keep(in, func(x datasets.Canvas, b Box) (Box, bool) { return in.modify(x, b) }) {
				inners = append(inners, in)
			}
		}
		for m := 1; row.mods&modMirror != 0 && m <= 3; m++ {
			ms := Selection{row: s.row, Color: s.Color, Mirror: m}
			if keep(ms, func(x datasets.Canvas, b Box) (Box, bool) {
				mb, ok := ms.modify(x, b)
				return mb, ok && !overlap(mb, b) // the hidden cells' mirror images must be visible
			}) {
				mirrored = append(mirrored, ms)
			}
		}
		if row.mods&modWindow != 0 {
			for _, win := range wins {
				for corner := range 4 {
					ws := Selection{row: s.row, Color: s.Color, Win: win, Corner: corner}
					smaller := false
					if !keep(ws, func(x datasets.Canvas, b Box) (Box, bool) {
						wb, ok := ws.modify(x, b)
						smaller = smaller || wb != b
						return wb, ok
					}) {
						continue
					}
					if !smaller {
						for i := range boxes {
							delete(boxes[i], ws) // the box itself on every input: no window
						}
						continue
					}
					windows = append(windows, ws)
				}
			}
		}
	}
	refs = append([]Selection{origin, same}, srcs...)
	return slices.Concat(srcs, cells, mirrored, windows, inners), refs, boxes
}

// windowSizes are the window sizes of the anchored search (Selection.Win): the outputs' grid size and its
// transpose, where every output has that one size; none where the sizes differ.
func windowSizes(outputs []datasets.Canvas) [][2]int {
	var h, w int
	for i, y := range outputs {
		yh, yw := GridExtents(y)
		if i > 0 && (yh != h || yw != w) {
			return nil
		}
		h, w = yh, yw
	}
	if h == 0 || w == 0 {
		return nil
	}
	if h == w {
		return [][2]int{{h, w}}
	}
	return [][2]int{{h, w}, {w, h}}
}

// overlap reports whether two boxes share a cell.
func overlap(a, b Box) bool {
	return a.R0 < b.R0+b.H && b.R0 < a.R0+a.H && a.C0 < b.C0+b.W && b.C0 < a.C0+a.W
}

// frameOffsets are the constant offsets of a placement per axis: the edge itself and one cell either side
// (an object moved to touch another).
var frameOffsets = []int{0, -1, 1}

// proposeAnchored is Propose for an Anchored group: every base (turn, flips, then a scaling; no translation)
// on the crop at every source selection, placed at the canvas corner (a crop), or, for a base that does not
// scale, against every reference selection with every alignment of edges and offset, and up-scaled by the
// number of colors of the input (FrameRule.ScaleByColors) at the corner. The crop at the grid placed at the
// corner is the size-relative element (Group.Grid) and is left out. Elements with the same gathers on every
// pair are one proposal (the best ranked). Plain tables only.
func proposeAnchored(inputs, outputs []datasets.Canvas, group Group, max int) ([]Proposal, error) {
	if _, err := canvasPairs(inputs, outputs); err != nil {
		return nil, err
	}
	rows, cols := inputs[0].Rows, inputs[0].Cols
	srcs, refs, boxes := frameSelections(inputs, windowSizes(outputs))
	s := &anchoredSearch{group: group, rows: rows, cols: cols, cache: map[string]*pairscan.PrimGather{},
		seen: map[uint64]int{}}
	s.pairs = make([]*framePair, len(inputs))
	for i := range inputs {
		gp := newGridPair(inputs[i], outputs[i])
		s.pairs[i] = &framePair{x: inputs[i], y: outputs[i], order: gp.order, boxes: boxes[i]}
	}
	pairs := s.pairs
	sort.SliceStable(pairs, func(a, b int) bool { return len(pairs[a].order) < len(pairs[b].order) })
	bases := make([]gridElement, len(group.Bases))
	for i, b := range group.Bases {
		var err error
		if bases[i], err = splitGridBase(b); err != nil {
			return nil, fmt.Errorf("search.Propose: base %d: %w", i, err)
		}
	}
	var t pairscan.Table1
	gbs := make([][]int32, len(pairs))
	sizes := make([][2]int, len(pairs))
	frames := make([]Frame, len(pairs))
	for bi, base := range bases {
		for _, src := range srcs {
			for k, p := range pairs {
				b := p.boxes[src]
				var err error
				if gbs[k], err = base.gather(rows, cols, b.H, b.W, s.cache); err != nil {
					return nil, fmt.Errorf("search.Propose: base %d: %w", bi, err)
				}
				sizes[k][0], sizes[k][1] = movedSize(gbs[k], cols)
			}
			for _, rule := range frameRules(src, refs, base.scale != nil) {
				ok := true
				t = pairscan.EmptyTable1
				for k, p := range pairs {
					if frames[k], ok = rule.frameFromBoxes(p.boxes, sizes[k]); !ok {
						break
					}
					gb, f := gbs[k], frames[k]
					if ok = p.scan(func(i int) int32 { return framedSource(gb, f, rows, cols, i) }, &t); !ok {
						break
					}
				}
				if !ok {
					continue
				}
				el := frameElement{grid: base, rule: rule}
				cost := group.BaseCost[bi] + 1 +
					boolInt(rule.Dst.Kind() != SelOrigin) + boolInt(rule.Offset != [2]int{}) +
					boolInt(rule.Src.Win[0] > 0) + boolInt(rule.Src.Tile[0] > 0)
				gathers := make([][]int32, len(pairs))
				for k, p := range pairs {
					gathers[k] = make([]int32, len(p.x.Cells))
					for i := range gathers[k] {
						gathers[k][i] = framedSource(gbs[k], frames[k], rows, cols, i)
					}
				}
				prop := Proposal{Base: bi, Action: base.action(), Table: slices.Clone(t[:]), cost: cost, frame: &el}
				s.add(prop, gathers)
			}
			if base.scale == nil && (src.Kind() == SelGrid || src.Kind() == SelForeground) {
				if err := proposeScaledByColors(s, bi, base, src); err != nil {
					return nil, err
				}
			}
		}
	}
	found := s.found
	sort.SliceStable(found, func(a, b int) bool {
		if found[a].cost != found[b].cost {
			return found[a].cost < found[b].cost
		}
		if ra, rb := recolored(found[a].Table), recolored(found[b].Table); ra != rb {
			return ra < rb
		}
		return found[a].less(&found[b], rows, cols)
	})
	if max > 0 && len(found) > max {
		found = found[:max]
	}
	return found, nil
}

// anchoredSearch holds the state of proposeAnchored: the pairs, the proposals found and their gathers'
// hashes (elements with equal gathers on every pair are one proposal, the best ranked).
type anchoredSearch struct {
	group      Group
	rows, cols int
	pairs      []*framePair
	cache      map[string]*pairscan.PrimGather
	found      []Proposal
	seen       map[uint64]int
}

// add records a consistent proposal with its gathers on the pairs (in the order of s.pairs).
func (s *anchoredSearch) add(prop Proposal, gathers [][]int32) {
	for _, v := range prop.Table {
		if v >= 0 {
			prop.Entries++
		}
	}
	h := fnv.New64a()
	for _, g := range gathers {
		h.Write(int32Bytes(g))
	}
	key := h.Sum64()
	if j, dup := s.seen[key]; dup {
		if prop.less(&s.found[j], s.rows, s.cols) {
			s.found[j] = prop
		}
		return
	}
	s.seen[key] = len(s.found)
	s.found = append(s.found, prop)
}

// movable says whether a source's box may be placed elsewhere: not a cell, window or inside of a box, whose
// place is its box's (a mirrored box has its one placement, frameRules).
func (s Selection) movable() bool { return !s.Cell && s.Win[0] == 0 && !s.Inner }

// moves are the rules that move src's box toward ref's box, one step and up against it; none where ref is
// no other box (the origin, src itself, the grid, src's own place).
func moves(src, ref Selection) []FrameRule {
	if k := ref.Kind(); k == SelOrigin || k == SelSame || k == SelGrid || ref == src {
		return nil
	}
	return []FrameRule{{Src: src, Dst: ref, Place: PlaceToward}, {Src: src, Dst: ref, Place: PlaceTouch}}
}

// frameRules lists the rules of a source selection: the crop at the corner (not for the grid: that is
// the size-relative element), and unless the base scales or the source is one cell, every reference,
// alignment and offset.
func frameRules(src Selection, refs []Selection, scales bool) []FrameRule {
	var out []FrameRule
	if src.Kind() != SelGrid {
		out = append(out, FrameRule{Src: src, Dst: origin})
	}
	if scales || !src.movable() {
		return out
	}
	if src.Mirror != 0 {
		// A color's box mirrored: the hidden block read where the pattern repeats it, cropped (above) or
		// put back in place of the color (first edges on first edges).
		return append(out, FrameRule{Src: src, Dst: Selection{row: src.row, Color: src.Color}})
	}
	for _, ref := range refs {
		if ref.Kind() == SelOrigin {
			continue
		}
		out = append(out, moves(src, ref)...)
		for al := range 16 {
			align := [2][2]bool{{al&1 != 0, al&2 != 0}, {al&4 != 0, al&8 != 0}}
			for _, dr := range frameOffsets {
				for _, dc := range frameOffsets {
					r := FrameRule{Src: src, Dst: ref, Align: align, Offset: [2]int{dr, dc}}
					if src.Kind() == SelGrid && ref.Kind() == SelSame && align == [2][2]bool{} && r.Offset == [2]int{} {
						continue // the size-relative element itself
					}
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// frameFromBoxes is FrameOf with the pair's boxes read already and the moved box's size known.
func (r FrameRule) frameFromBoxes(boxes map[Selection]Box, size [2]int) (Frame, bool) {
	src, ok := boxes[r.Src]
	if !ok {
		return Frame{}, false
	}
	ref := src
	if r.Dst.Kind() != SelSame {
		if ref, ok = boxes[r.Dst]; !ok {
			return Frame{}, false
		}
	}
	f := Frame{R0: src.R0, C0: src.C0, H: src.H, W: src.W}
	if r.Place != PlaceAlign {
		// Per axis: the source box [s0, s0+sn) against the reference [q0, q0+qn); the result (n cells)
		// starts where the source did, moved one cell, or up against the reference.
		move := func(s0, sn, q0, qn, n int) int {
			switch {
			case q0 >= s0+sn: // the reference lies after
				if r.Place == PlaceToward {
					return s0 + 1
				}
				return q0 - n
			case q0+qn <= s0: // before
				if r.Place == PlaceToward {
					return s0 - 1
				}
				return q0 + qn
			}
			return s0
		}
		f.DR, f.DC = move(src.R0, src.H, ref.R0, ref.H, size[0]), move(src.C0, src.W, ref.C0, ref.W, size[1])
		return f, true
	}
	place := func(a, refStart, refLen, n int) int {
		at := refStart
		if r.Align[a][1] {
			at += refLen - 1
		}
		if r.Align[a][0] {
			at -= n - 1
		}
		return at + r.Offset[a]
	}
	f.DR, f.DC = place(0, ref.R0, ref.H, size[0]), place(1, ref.C0, ref.W, size[1])
	return f, true
}

// scan adds the pair's cells to t, cell i of g·x read from the input cell source(i) (pad where it is -1):
// false at the first key whose output differs.
func (p *framePair) scan(source func(i int) int32, t *pairscan.Table1) bool {
	for _, i := range p.order {
		gx := int32(datasets.PadToken)
		if s := source(int(i)); s >= 0 {
			gx = p.x.Cells[s]
		}
		k := gx*datasets.NumTokens + p.x.Cells[i]
		out := int8(p.y.Cells[i])
		if v := t[k]; v < 0 {
			t[k] = out
		} else if v != out {
			return false
		}
	}
	return true
}

// recolored counts the entries of a plain table that give a cell another color than the one it reads
// (key (g·x, x) with g·x a color and an output other than g·x): between anchored elements of as many parts,
// the one whose table copies what it reads is the simpler (the color of the holed object, not a recoloring
// of the smallest one's that happens to fit the pairs).
func recolored(table []int8) int {
	n := 0
	for k, v := range table {
		if g := k / datasets.NumTokens; v >= 0 && g != datasets.PadToken && int(v) != g {
			n++
		}
	}
	return n
}
