// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// The size-relative search (Group.Grid): elements that act on each pair's input grid, as a grid-lattice
// mask expert's (experts.ParamLattice "grid") do, so that one element fits pairs whose grids differ in size.

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// gridElement is an element of the size-relative group: on a pair with an H x W input grid (GridExtents),
// the grid is turned by Quarter quarter turns (NumPy's rot90: it becomes W x H when Quarter is odd), its
// axes flipped (Flip), translated circularly on the grid (Shift, ZeroFill false: modulo the side of the
// turned grid) or with zero fill on the canvas (ZeroFill true), the result placed at the canvas' top-left
// (pad elsewhere), and last the canvas scaled (scale, a gather on the canvas; nil for none).
type gridElement struct {
	quarter  int
	flip     [2]bool
	shift    [2]AxisShift
	scale    lattice.Action // Upscale, Downscale or their composition; nil: none
	scaleKey string
}

// splitGridBase reads a base of a Grid group: its rotations and reflections act on the grid, its scalings
// (lattice.Upscale, lattice.Downscale) on the canvas, after everything else.
func splitGridBase(b lattice.Action) (gridElement, error) {
	var el gridElement
	var scales []lattice.Action
	for _, part := range lattice.Parts(b) {
		switch p := part.(type) {
		case lattice.IdentityAction:
		case lattice.Rotation:
			el.quarter += p.Quarter
		case lattice.Reflection:
			if p.Axis < 0 || p.Axis > 1 {
				return el, fmt.Errorf("%v: reflection of axis %d on a 2-D grid", b, p.Axis)
			}
			if el.quarter%2 != 0 {
				return el, fmt.Errorf("%v: a reflection applied before a quarter turn "+
					"is not in the grid expert's order (it turns first)", b)
			}
			el.flip[p.Axis] = !el.flip[p.Axis]
		case lattice.Upscale, lattice.Downscale:
			if el.quarter != 0 || el.flip != [2]bool{} {
				return el, fmt.Errorf("%v: the grid expert scales last", b)
			}
			scales = append(scales, part)
		default:
			return el, fmt.Errorf("%v: %T is not a part of the grid expert's elements", b, part)
		}
	}
	el.quarter = ((el.quarter % 4) + 4) % 4
	switch len(scales) {
	case 0:
	case 1:
		el.scale = scales[0]
	default:
		el.scale = lattice.Compose(scales...)
	}
	if el.scale != nil {
		el.scaleKey = el.scale.String()
	}
	return el, nil
}

// action returns the element as the grid expert writes it (experts.Expert.ActionOf of a GridLattice
// expert): Compose(scaling, translation, reflections, rotation), parts that do nothing left out.
func (el gridElement) action() lattice.Action {
	var parts []lattice.Action
	if el.scale != nil {
		parts = append(parts, el.scale)
	}
	var circular, zero [2]int
	for a, sh := range el.shift {
		if sh.ZeroFill {
			zero[a] = sh.Delta
		} else {
			circular[a] = sh.Delta
		}
	}
	if circular != [2]int{} {
		parts = append(parts, lattice.Translation{Deltas: circular[:]})
	}
	if zero != [2]int{} {
		parts = append(parts, lattice.Shift{Deltas: zero[:]})
	}
	for a := range 2 {
		if el.flip[a] {
			parts = append(parts, lattice.Reflection{Axis: a})
		}
	}
	if el.quarter != 0 {
		parts = append(parts, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: el.quarter})
	}
	return lattice.Compose(parts...)
}

// baseGather returns the gather on a rows x cols canvas of the element's turn and flips of an h x w grid
// (no translation, no scaling): cell (i, j) of the turned h' x w' grid reads the grid cell NumPy's rot90
// and flips give it; cells outside the turned grid read nothing (-1).
func (el gridElement) baseGather(rows, cols, h, w int) []int32 {
	g := make([]int32, rows*cols)
	th, tw := h, w
	if el.quarter%2 == 1 {
		th, tw = w, h
	}
	for i := range rows {
		for j := range cols {
			g[i*cols+j] = -1
			if i >= th || j >= tw {
				continue
			}
			a, b := i, j
			if el.flip[0] {
				a = th - 1 - a
			}
			if el.flip[1] {
				b = tw - 1 - b
			}
			// a, b in the turned grid; undo the quarter turns, rot90: out[i][j] = in[j][W-1-i].
			ch, cw := th, tw
			for range el.quarter {
				a, b = b, ch-1-a
				ch, cw = cw, ch
			}
			if a >= 0 && a < rows && b >= 0 && b < cols {
				g[i*cols+j] = int32(a*cols + b)
			}
		}
	}
	return g
}

// axisMap returns, for an axis of length l of the canvas whose grid part (after the turn) has side e, the
// position each position reads under the translation sh: circular on the grid's first e positions (the
// others read themselves), or zero-fill on the whole axis; -1 where nothing is read.
func axisMap(l, e int, sh AxisShift) []int32 {
	m := make([]int32, l)
	for i := range m {
		switch {
		case sh.ZeroFill:
			m[i] = int32(i - sh.Delta)
			if i-sh.Delta < 0 || i-sh.Delta >= l {
				m[i] = -1
			}
		case i < e:
			m[i] = int32(((i-sh.Delta)%e + e) % e)
		default:
			m[i] = int32(i)
		}
	}
	return m
}

// gather returns the element's gather on the rows x cols canvas of an input whose grid is h x w; cache
// holds scaling gathers by their String.
func (el gridElement) gather(rows, cols, h, w int, cache map[string]*pairscan.PrimGather) ([]int32, error) {
	base := el.baseGather(rows, cols, h, w)
	g := base
	if el.shift != [2]AxisShift{} {
		th, tw := h, w
		if el.quarter%2 == 1 {
			th, tw = w, h
		}
		rm, cm := axisMap(rows, min(th, rows), el.shift[0]), axisMap(cols, min(tw, cols), el.shift[1])
		g = make([]int32, rows*cols)
		for i := range rows {
			for j := range cols {
				g[i*cols+j] = -1
				if rm[i] >= 0 && cm[j] >= 0 {
					g[i*cols+j] = base[int(rm[i])*cols+int(cm[j])]
				}
			}
		}
	}
	if el.scale == nil {
		return g, nil
	}
	return pairscan.ThenAction(g, el.scale, rows, cols, cache)
}

// gridPair is a pair of a Grid search: the canvases, the input's grid extents, and the cells in scan order
// (the order of pairscan's interleave over the whole canvas).
type gridPair struct {
	rows, cols, h, w int
	x, y             []int32
	order            []int32
	roles            *pairRoles // ProposeRoles: the input's roles
}

func newGridPair(x, y datasets.Canvas) *gridPair {
	p := &gridPair{rows: x.Rows, cols: x.Cols, x: x.Cells, y: y.Cells}
	p.h, p.w = GridExtents(x)
	var changed, same []int32
	for i := range x.Cells {
		if x.Cells[i] != y.Cells[i] {
			changed = append(changed, int32(i))
		} else {
			same = append(same, int32(i))
		}
	}
	for i := range max(len(changed), len(same)) {
		if i < len(changed) {
			p.order = append(p.order, changed[i])
		}
		if i < len(same) {
			p.order = append(p.order, same[i])
		}
	}
	return p
}

// scan adds the pair's cells under the gather that reads cell (rm[r], cm[c]) of base for cell (r, c) (rm,
// cm nil: base itself) to t: false at the first key whose output differs from t's.
func (p *gridPair) scan(base, rm, cm []int32, t *pairscan.Table1) bool {
	for _, i := range p.order {
		k := p.gx(base, rm, cm, i)*datasets.NumTokens + p.x[i]
		out := int8(p.y[i])
		if v := t[k]; v < 0 {
			t[k] = out
		} else if v != out {
			return false
		}
	}
	return true
}

// gx is the token of g·x at cell i under the gather of scan.
func (p *gridPair) gx(base, rm, cm []int32, i int32) int32 {
	src := base[i]
	if rm != nil {
		src = -1
		if r, c := rm[int(i)/p.cols], cm[int(i)%p.cols]; r >= 0 && c >= 0 {
			src = base[int(r)*p.cols+int(c)]
		}
	}
	if src >= 0 {
		return p.x[src]
	}
	return datasets.PadToken
}

// proposeGrid is Propose for a Grid group: every base (turn, flips, then a canvas scaling) with every
// translation (circular on the turned grid by 0..l-1, zero-fill on the canvas by ±1..MaxShift) when the base
// does not scale, with the identity translation when it does. Consistent elements with the same gathers on
// every pair are one proposal (the best ranked). With roles, the tables are role tables (ProposeRoles).
func proposeGrid(inputs, outputs []datasets.Canvas, group Group, max int, roles bool) ([]Proposal, error) {
	if _, err := canvasPairs(inputs, outputs); err != nil { // checks counts, sizes and tokens
		return nil, err
	}
	rows, cols := inputs[0].Rows, inputs[0].Cols
	pairs := make([]*gridPair, len(inputs))
	for i := range inputs {
		pairs[i] = newGridPair(inputs[i], outputs[i])
	}
	var fixed uint16
	var keys []uint16
	if roles {
		fixed = fixedColors(inputs)
		keys = make([]uint16, roleKeys)
		for _, p := range pairs {
			r := rolesOf(p.x, fixed)
			p.roles = &r
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return len(pairs[a].order) < len(pairs[b].order) })
	bases := make([]gridElement, len(group.Bases))
	for i, b := range group.Bases {
		if b == nil {
			return nil, fmt.Errorf("search.Propose: base %d is nil", i)
		}
		var err error
		if bases[i], err = splitGridBase(b); err != nil {
			return nil, fmt.Errorf("search.Propose: base %d: %w", i, err)
		}
	}
	rowShifts, colShifts := axisShifts(rows, group), axisShifts(cols, group)
	cache := map[string]*pairscan.PrimGather{}
	var found []Proposal
	seen := map[uint64]int{} // gathers' hash -> index in found
	var t pairscan.Table1
	based := make([][]int32, len(pairs)) // per pair: the base's gather (turn, flips, scaling)
	for bi, base := range bases {
		for k, p := range pairs {
			var err error
			if based[k], err = base.gather(rows, cols, p.h, p.w, cache); err != nil {
				return nil, fmt.Errorf("search.Propose: base %d: %w", bi, err)
			}
		}
		nRows, nCols := len(rowShifts), len(colShifts)
		if base.scale != nil { // a base that scales: the identity translation only
			nRows, nCols = 1, 1
		}
		for i := range nRows {
			for j := range nCols {
				identity := i == 0 && j == 0
				el := base
				el.shift = [2]AxisShift{rowShifts[i], colShifts[j]}
				t = pairscan.EmptyTable1
				clear(keys)
				ok := true
				for k, p := range pairs {
					var rm, cm []int32
					if !identity {
						th, tw := p.turned(el.quarter)
						rm, cm = axisMap(rows, th, rowShifts[i]), axisMap(cols, tw, colShifts[j])
					}
					if roles {
						ok = p.scanRoles(p.roles, based[k], rm, cm, keys)
					} else {
						ok = p.scan(based[k], rm, cm, &t)
					}
					if !ok {
						break
					}
				}
				if !ok {
					continue
				}
				var table []int8
				var rt *RoleTable
				if roles {
					rt = &RoleTable{Fixed: fixed, Keys: slices.Clone(keys)}
				} else {
					table = slices.Clone(t[:])
				}
				prop, key, err := gridProposal(el, bi, group.BaseCost[bi]+boolInt(!identity), table, rt, pairs, cache)
				if err != nil {
					return nil, err
				}
				if k, dup := seen[key]; dup {
					if prop.less(&found[k], rows, cols) {
						found[k] = prop
					}
					continue
				}
				seen[key] = len(found)
				found = append(found, prop)
			}
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].less(&found[b], rows, cols) })
	if max > 0 && len(found) > max {
		found = found[:max]
	}
	return found, nil
}

// turned returns the sides of the pair's grid after quarter turns, each at most the canvas'.
func (p *gridPair) turned(quarter int) (h, w int) {
	h, w = p.h, p.w
	if quarter%2 == 1 {
		h, w = w, h
	}
	return min(h, p.rows), min(w, p.cols)
}

// gridProposal makes the proposal of a consistent element, and a hash of its gathers on the pairs (elements
// with equal gathers on every pair are one proposal).
func gridProposal(
	el gridElement, base, cost int, table []int8, roles *RoleTable, pairs []*gridPair,
	cache map[string]*pairscan.PrimGather,
) (Proposal, uint64, error) {
	h := fnv.New64a()
	for _, p := range pairs {
		g, err := el.gather(p.rows, p.cols, p.h, p.w, cache)
		if err != nil {
			return Proposal{}, 0, fmt.Errorf("search.Propose: base %d: %w", base, err)
		}
		h.Write(int32Bytes(g))
	}
	prop := Proposal{
		Base: base, Shift: el.shift, Action: el.action(), Table: table, Roles: roles, cost: cost, grid: &el,
	}
	for _, v := range table {
		if v >= 0 {
			prop.Entries++
		}
	}
	if roles != nil {
		prop.Entries = roleEntries(roles.Keys)
	}
	return prop, h.Sum64(), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
