// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Propose: the lattice search on a task's training pairs, on the task's own canvas, over the elements
// that the mask experts can encode. It scans pairs with the annotation's scan (pairscan).

import (
	"fmt"
	"slices"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// Group is the set of elements searched: every base B (non-translation part, identity included, applied
// first) followed by every translation T, the element g = T ∘ B (T applied last, as the experts compose).
type Group struct {
	Bases    []lattice.Action // B; Bases[i] may be lattice.IdentityAction{}
	BaseCost []int            // non-identity parts of each base (ranking), len(Bases)
	// Translations per axis: circular deltas 0..l-1 on an axis of length l (lattice.Translation), and, with
	// ZeroFill, zero-fill shifts (lattice.Shift) by ±1..MaxShift (only |d| < l is meaningful).
	ZeroFill bool
	MaxShift int
	// Grid makes the elements size-relative, as those of a grid-lattice mask expert
	// (experts.ParamLattice "grid"): on each pair they act on the input's grid (GridExtents), so that one
	// element fits pairs whose grids differ in size. The bases' rotations and reflections then turn and flip
	// that grid, circular translations are modulo its sides, zero-fill shifts move the canvas, and the bases'
	// scalings (lattice.Upscale, lattice.Downscale) act on the canvas last: g = S ∘ T ∘ F ∘ R. A base that
	// scales is searched with the identity translation only.
	Grid bool
	// Anchored makes the elements anchor-relative, as those of an anchored mask expert (experts.Expert
	// with Anchored): g(x) = T(a(x)) ∘ B, the base (turns, flips, scaling; the bases' translations are not
	// searched) acting on a box read off each input and its result placed against another (FrameRule,
	// proposeAnchored). Plain tables only (ProposeRoles finds none).
	Anchored bool
}

// AxisShift is the translation of one axis: Delta cells, circular (lattice.Translation) or zero-fill
// (lattice.Shift).
type AxisShift struct {
	Delta    int
	ZeroFill bool
}

// Propose returns the elements of group under which one table maps (g·x, x) to y at every cell of every
// pair (the canvases of the training pairs, all rows x cols, pad included), ranked: fewer non-identity
// parts (BaseCost + 1 if the translation is not the identity), then fewer table entries, then the
// smaller shift (|dr| + |dc| with circular deltas read as the signed delta of least magnitude), then
// base index, then the deltas (rows first; per axis the smaller Delta, then circular before zero-fill);
// at most max of them (0: all). g·x is datasets.ApplyAction(g, x): cells where nothing lands (a zero-fill
// shift's empty rows, down-scaling) are pad. Bases with the same gather on the canvas are scanned once.
// Propose sees only the canvases it is given, so a caller that passes training pairs never shows it a
// test output. Errors: no pairs, counts or canvas sizes that differ, len(BaseCost) != len(Bases), a base
// that does not act on the canvas.
func Propose(inputs, outputs []datasets.Canvas, group Group, max int) ([]Proposal, error) {
	return propose(inputs, outputs, group, max, false)
}

// propose is Propose (roles false) and ProposeRoles (roles true).
func propose(inputs, outputs []datasets.Canvas, group Group, max int, roles bool) ([]Proposal, error) {
	if len(group.BaseCost) != len(group.Bases) {
		return nil, fmt.Errorf("search.Propose: %d base costs for %d bases", len(group.BaseCost), len(group.Bases))
	}
	if group.Anchored {
		if roles {
			return nil, nil
		}
		return proposeAnchored(inputs, outputs, group, max)
	}
	if group.Grid {
		return proposeGrid(inputs, outputs, group, max, roles)
	}
	pairs, err := canvasPairs(inputs, outputs)
	if err != nil {
		return nil, err
	}
	rows, cols := pairs[0].Rows, pairs[0].Cols
	classes, err := baseClasses(group, rows, cols)
	if err != nil {
		return nil, err
	}
	// Cheapest pair first: it is scanned under every element, the others only under its survivors.
	sort.SliceStable(pairs, func(a, b int) bool { return len(pairs[a].Region) < len(pairs[b].Region) })
	s := &proposer{
		group: group, pairs: pairs, max: max, bound: -1,
		rowShifts: axisShifts(rows, group), colShifts: axisShifts(cols, group),
		bx: make([][]int8, len(pairs)), totals: make([][datasets.NumTokens]int32, len(pairs)),
		cnts: make([][datasets.NumTokens]int32, len(pairs)),
	}
	for _, sh := range s.rowShifts {
		s.rowOff = append(s.rowOff, pairscan.AxisGather(rows, cols+1, sh.Delta, sh.ZeroFill))
	}
	for _, sh := range s.colShifts {
		s.colSrc = append(s.colSrc, pairscan.AxisGather(cols, 1, sh.Delta, sh.ZeroFill))
	}
	for i := range pairs {
		s.bx[i] = make([]int8, len(pairs[i].Xp))
	}
	if roles {
		s.fixed = fixedColors(inputs)
		for _, p := range pairs {
			s.roles = append(s.roles, newRolePair(p, s.fixed))
		}
	}
	// The identity translation of every class first, then the other translations, cheapest class
	// first: with max > 0, an element that costs more than the max-th best so far is not scanned.
	for _, c := range classes {
		s.searchClass(c, true)
	}
	sort.SliceStable(classes, func(a, b int) bool { return classes[a].cost < classes[b].cost })
	for _, c := range classes {
		if s.bound >= 0 && c.cost+1 > s.bound {
			break
		}
		s.searchClass(c, false)
	}
	s.trim()
	return s.found, nil
}

// canvasPairs makes the pairs of Propose, checking that there is at least one and that all canvases
// have the size of the first.
func canvasPairs(inputs, outputs []datasets.Canvas) ([]*pairscan.Pair, error) {
	if len(inputs) == 0 || len(inputs) != len(outputs) {
		return nil, fmt.Errorf("search.Propose: %d input and %d output canvases, want the same number, at least one",
			len(inputs), len(outputs))
	}
	pairs := make([]*pairscan.Pair, len(inputs))
	for i := range inputs {
		if inputs[i].Rows != inputs[0].Rows || inputs[i].Cols != inputs[0].Cols {
			return nil, fmt.Errorf("search.Propose: pair %d: canvas %dx%d, pair 0 has %dx%d",
				i, inputs[i].Rows, inputs[i].Cols, inputs[0].Rows, inputs[0].Cols)
		}
		var err error
		if pairs[i], err = pairscan.NewCanvasPair(inputs[i], outputs[i]); err != nil {
			return nil, fmt.Errorf("search.Propose: pair %d: %w", i, err)
		}
	}
	return pairs, nil
}

// baseClass is a set of bases with the same gather on the canvas; cost is their smallest BaseCost.
type baseClass struct {
	gather []int32
	bases  []int
	cost   int
}

// baseClasses returns the gathers of the bases of group on a rows x cols canvas, bases with equal
// gathers in one class, classes in the order of their first base.
func baseClasses(group Group, rows, cols int) ([]*baseClass, error) {
	var classes []*baseClass
	byGather := map[string]*baseClass{}
	cache := map[string]*pairscan.PrimGather{}
	for i, b := range group.Bases {
		if b == nil {
			return nil, fmt.Errorf("search.Propose: base %d is nil", i)
		}
		g, err := pairscan.ActionGather(b, rows, cols, cache)
		if err != nil {
			return nil, fmt.Errorf("search.Propose: base %d: %w", i, err)
		}
		key := string(int32Bytes(g))
		c, seen := byGather[key]
		if !seen {
			c = &baseClass{gather: g, cost: group.BaseCost[i]}
			classes = append(classes, c)
			byGather[key] = c
		}
		c.bases = append(c.bases, i)
		c.cost = min(c.cost, group.BaseCost[i])
	}
	return classes, nil
}

// int32Bytes returns the little-endian bytes of v.
func int32Bytes(v []int32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return b
}

// axisShifts returns the translations of an axis of length l: circular 0..l-1, then, with ZeroFill,
// zero-fill ±1..min(MaxShift, l-1).
func axisShifts(l int, group Group) []AxisShift {
	var out []AxisShift
	for d := range l {
		out = append(out, AxisShift{Delta: d})
	}
	if group.ZeroFill {
		for d := 1; d <= min(group.MaxShift, l-1); d++ {
			out = append(out, AxisShift{Delta: d, ZeroFill: true}, AxisShift{Delta: -d, ZeroFill: true})
		}
	}
	return out
}

// proposer is the state of one Propose: the pairs (cheapest first), the axis translations and their
// gathers, B·x of the class at hand per pair, and the proposals found.
type proposer struct {
	group                Group
	pairs                []*pairscan.Pair
	rowShifts, colShifts []AxisShift
	rowOff, colSrc       [][]int32
	bx                   [][]int8
	totals, cnts         [][datasets.NumTokens]int32 // per pair: token counts of B·x, of g·x in the region
	max                  int
	bound                int // with max > 0 and max proposals found: the cost of the max-th best; else -1
	found                []Proposal
	// ProposeRoles: the pairs' roles (nil for Propose) and the colors of every input.
	roles []*rolePair
	fixed uint16
}

// searchClass scans the class under the identity translation (identity true) or under every other
// translation, and records the consistent elements.
func (s *proposer) searchClass(c *baseClass, identity bool) {
	if s.roles != nil {
		s.searchClassRoles(c, identity)
		return
	}
	s.totals[0] = s.pairs[0].Based(c.gather, s.bx[0])
	ready := 1 // B·x is computed for the pairs before ready
	var t, pt pairscan.Table1
	for i := range s.rowShifts {
		for j := range s.colShifts {
			if (i == 0 && j == 0) != identity {
				continue
			}
			tcost := 0
			if !identity {
				tcost = 1
			}
			if s.bound >= 0 && c.cost+tcost > s.bound {
				return
			}
			ok := true
			for k, p := range s.pairs {
				if k == ready {
					s.totals[k] = p.Based(c.gather, s.bx[k])
					ready++
				}
				tab := &t
				if k > 0 {
					tab = &pt
				}
				var cnt [datasets.NumTokens]int32
				ok, cnt, _ = p.ScanRegion(s.bx[k], s.rowOff[i], s.colSrc[j], tab)
				if !ok || (k > 0 && !pairscan.Merge(&t, &pt)) {
					ok = false
					break
				}
				s.cnts[k] = cnt
			}
			// The cells outside the regions, once every region agrees.
			for k := 0; ok && k < len(s.pairs); k++ {
				ok = s.outsidePair(k, i, j, &t)
			}
			if ok {
				s.record(c, i, j, tcost, &t)
			}
		}
	}
}

// outsidePair completes t outside the region of pair k under translation (rowShifts[i], colShifts[j])
// of the class's B·x; false on a conflict.
func (s *proposer) outsidePair(k, i, j int, t *pairscan.Table1) bool {
	total := &s.totals[k]
	if s.rowShifts[i].ZeroFill || s.colShifts[j].ZeroFill {
		gx := s.pairs[k].GxTotal(s.bx[k], s.rowOff[i], s.colSrc[j])
		total = &gx
	}
	return pairscan.Outside(t, total, &s.cnts[k])
}

// record adds the proposals of every base of class c under translation (i, j) with table t.
func (s *proposer) record(c *baseClass, i, j, tcost int, t *pairscan.Table1) {
	entries := 0
	for _, v := range t {
		if v >= 0 {
			entries++
		}
	}
	s.add(c, i, j, tcost, entries, t[:], nil)
}

// add adds the proposals of every base of class c under translation (i, j) with the plain table t (nil:
// none) and the role table keys (nil: none), entries set keys.
func (s *proposer) add(c *baseClass, i, j, tcost, entries int, t []int8, keys []uint16) {
	shift := [2]AxisShift{s.rowShifts[i], s.colShifts[j]}
	for _, b := range c.bases {
		cost := s.group.BaseCost[b] + tcost
		if s.bound >= 0 && cost > s.bound {
			continue
		}
		p := Proposal{
			Base: b, Shift: shift, Action: composeAction(shift, s.group.Bases[b]),
			Table: slices.Clone(t), Entries: entries, cost: cost,
		}
		if keys != nil {
			p.Roles = &RoleTable{Fixed: s.fixed, Keys: slices.Clone(keys)}
		}
		s.found = append(s.found, p)
	}
	if s.max > 0 && len(s.found) >= 2*s.max {
		s.trim()
	}
}

// trim sorts the proposals by rank and, with max > 0, keeps the best max, setting bound.
func (s *proposer) trim() {
	rows, cols := s.pairs[0].Rows, s.pairs[0].Cols
	sort.Slice(s.found, func(a, b int) bool { return s.found[a].less(&s.found[b], rows, cols) })
	if s.max > 0 && len(s.found) >= s.max {
		s.found = s.found[:s.max]
		s.bound = s.found[s.max-1].cost
	}
}

// less is the rank order of Propose on a rows x cols canvas.
func (p *Proposal) less(q *Proposal, rows, cols int) bool {
	if p.cost != q.cost {
		return p.cost < q.cost
	}
	if p.Entries != q.Entries {
		return p.Entries < q.Entries
	}
	if a, b := shiftSize(p.Shift, rows, cols), shiftSize(q.Shift, rows, cols); a != b {
		return a < b
	}
	if p.Base != q.Base {
		return p.Base < q.Base
	}
	for a := range 2 {
		if p.Shift[a].Delta != q.Shift[a].Delta {
			return p.Shift[a].Delta < q.Shift[a].Delta
		}
		if p.Shift[a].ZeroFill != q.Shift[a].ZeroFill {
			return !p.Shift[a].ZeroFill
		}
	}
	return false
}

// shiftSize is |dr| + |dc|, a circular delta d on an axis of length l read as the signed delta of least
// magnitude (min(d, l-d)).
func shiftSize(sh [2]AxisShift, rows, cols int) int {
	n := 0
	for a, l := range []int{rows, cols} {
		d := sh[a].Delta
		if !sh[a].ZeroFill {
			d = min(d, l-d)
		}
		n += max(d, -d)
	}
	return n
}

// composeAction returns T ∘ base for the translation of shift as the experts write it
// (experts.Expert.ActionOf): lattice.Translation of the circular deltas, then lattice.Shift of the
// zero-fill ones, each left out where all its deltas are 0, then the base unless it is the identity.
func composeAction(shift [2]AxisShift, base lattice.Action) lattice.Action {
	var circular, zero [2]int
	for a, sh := range shift {
		if sh.ZeroFill {
			zero[a] = sh.Delta
		} else {
			circular[a] = sh.Delta
		}
	}
	var parts []lattice.Action
	if circular != [2]int{} {
		parts = append(parts, lattice.Translation{Deltas: circular[:]})
	}
	if zero != [2]int{} {
		parts = append(parts, lattice.Shift{Deltas: zero[:]})
	}
	if _, id := base.(lattice.IdentityAction); !id {
		parts = append(parts, base)
	}
	return lattice.Compose(parts...)
}
