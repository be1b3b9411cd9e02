// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// Color roles: a color table whose keys and outputs may name a pair's own colors by their role in the
// pair's input (its background, its one free color) instead of by their token. The plain table f(g·x, x)
// is fixed over the pairs; two patterns of ARC tasks need what a fixed table cannot say:
//   - a background that becomes one constant color while the object keeps its color, the object's color
//     changing from pair to pair (and, where the background is not black, the plain table's second rule,
//     colorRole, cannot tell the background from an object color: both are "a color");
//   - a color recolored to a color chosen per pair from the pair's input (the color of the one other
//     object), which a fixed f(a, b) → y cannot express at all: the training pairs conflict.
// The role table is tried only where the plain table is not enough: Proposal.WithRoles attaches it to a
// proposal whose plain table fits, and Predict reads it only when the plain table cannot map a cell of the
// input; ProposeRoles searches the elements under which a role table fits, for a caller whose Propose found
// none.

import (
	"slices"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
)

// Role symbols: a token 0..10 stands for itself; symBG is the pair's background, symOther its free color.
const (
	symBG      = datasets.NumTokens
	symOther   = datasets.NumTokens + 1
	roleSyms   = datasets.NumTokens + 2
	roleKeys   = roleSyms * roleSyms
	roleLit    = 1<<datasets.NumTokens - 1 // the literal outputs: bit v is the token v
	descFirst  = 1 << datasets.NumTokens   // the key's first token (g·x)
	descSecond = descFirst << 1            // the key's second token (x)
	descBG     = descFirst << 2            // the pair's background
	descOther  = descFirst << 3            // the pair's free color
	roleAll    = roleLit | descFirst | descSecond | descBG | descOther
)

// RoleTable is a color table over color roles. A pair's input x gives each token a symbol: pad is pad, the
// background (the most frequent color of x; none on a tie) is BG, the free color (the one color of x,
// other than the background, that is not in Fixed; none when there are zero or several) is OTHER, and every
// other color is itself. A key is (symbol of g·x, symbol of x), and its entry is the set of descriptions of
// the output that every training cell with that key satisfies: a literal token, the key's first token (that
// of g·x), its second (that of x), the pair's background, the pair's free color. Predict takes the first
// description that the input defines, in that order: roles first, then the literal, so that a color kept is
// read as kept (as the plain table's Generalize keeps a color no pair moved) and a constant is read as a
// constant only where the pairs' roles disagree with it.
type RoleTable struct {
	// Fixed has bit c set for each color present in every training input: those are named by their
	// token, never OTHER (the colors that vary from pair to pair are the ones a role has to carry).
	Fixed uint16
	// Keys[sa*13 + sb] is the description set of key (sa, sb), symbols 0..10 tokens, 11 BG, 12 OTHER: bits
	// 0..10 the literal tokens, 11 the first token, 12 the second, 13 the background, 14 the free color;
	// 0 where no training cell has the key.
	Keys []uint16
}

// pairRoles are the roles of one input: the symbol of each token, its background and its free color
// (-1: none).
type pairRoles struct {
	sym       [datasets.NumTokens]int8
	bg, other int8
}

// fixedColors returns the colors (not pad) present in every input, one bit each.
func fixedColors(inputs []datasets.Canvas) uint16 {
	fixed := uint16(roleLit &^ (1 << datasets.PadToken))
	for _, x := range inputs {
		var present uint16
		for _, v := range x.Cells {
			present |= 1 << v
		}
		fixed &= present
	}
	return fixed
}

// rolesOf returns the roles of an input's cells (pad excluded) under the fixed colors.
func rolesOf(cells []int32, fixed uint16) pairRoles {
	var counts [datasets.NumTokens]int
	for _, v := range cells {
		counts[v]++
	}
	r := pairRoles{bg: -1, other: -1}
	best, tie := 0, false
	for c := range datasets.NumTokens {
		if c == datasets.PadToken || counts[c] == 0 {
			continue
		}
		switch {
		case counts[c] > best:
			best, tie, r.bg = counts[c], false, int8(c)
		case counts[c] == best:
			tie = true
		}
	}
	if tie {
		r.bg = -1
	}
	for c := range datasets.NumTokens {
		if c == datasets.PadToken || counts[c] == 0 || int8(c) == r.bg || fixed>>c&1 == 1 {
			continue
		}
		if r.other >= 0 {
			r.other = -2 // several
			break
		}
		r.other = int8(c)
	}
	if r.other < 0 {
		r.other = -1
	}
	for c := range datasets.NumTokens {
		r.sym[c] = int8(c)
	}
	if r.bg >= 0 {
		r.sym[r.bg] = symBG
	}
	if r.other >= 0 {
		r.sym[r.other] = symOther
	}
	return r
}

// static is the part of an output's description that does not depend on g·x: the literal, the second
// token (x), the background, the free color.
func (r *pairRoles) static(out, x int8) uint16 {
	m := uint16(1) << out
	if out == x {
		m |= descSecond
	}
	if out == r.bg {
		m |= descBG
	}
	if out == r.other {
		m |= descOther
	}
	return m
}

// observe intersects the entry of key k with the description set m (the first observation sets it): false
// when nothing is left (the cells of key k disagree on every description).
func observe(keys []uint16, k int, m uint16) bool {
	if v := keys[k]; v == 0 {
		keys[k] = m
	} else if keys[k] = v & m; keys[k] == 0 {
		return false
	}
	return true
}

// roleCells adds every cell of one pair to keys: g·x read through gather ((g·x)[i] = x[gather[i]], pad where
// gather[i] < 0). False on a conflict.
func roleCells(keys []uint16, r *pairRoles, gather []int32, x, y []int32) bool {
	for i, src := range gather {
		g := int8(datasets.PadToken)
		if src >= 0 {
			g = int8(x[src])
		}
		xv, out := int8(x[i]), int8(y[i])
		m := r.static(out, xv)
		if out == g {
			m |= descFirst
		}
		if !observe(keys, int(r.sym[g])*roleSyms+int(r.sym[xv]), m) {
			return false
		}
	}
	return true
}

// WithRoles returns p with the role table (RoleTable) of its element over the pairs (inputs, outputs: the
// training pairs Propose was given) when one fits every cell of every pair, else p unchanged (Roles nil). A
// proposal's plain table predicts wherever it maps every cell of the input; the role table is read only
// where it does not (Predict).
func (p Proposal) WithRoles(inputs, outputs []datasets.Canvas) Proposal {
	if len(inputs) == 0 || len(inputs) != len(outputs) || p.Action == nil {
		return p
	}
	rt := &RoleTable{Fixed: fixedColors(inputs), Keys: make([]uint16, roleKeys)}
	for i, x := range inputs {
		gather, err := p.Gather(x)
		if err != nil || len(outputs[i].Cells) != len(x.Cells) {
			return p
		}
		r := rolesOf(x.Cells, rt.Fixed)
		if !roleCells(rt.Keys, &r, gather, x.Cells, outputs[i].Cells) {
			return p
		}
	}
	p.Roles = rt
	return p
}

// roleEntries is the number of set keys of a role table.
func roleEntries(keys []uint16) int {
	n := 0
	for _, v := range keys {
		if v != 0 {
			n++
		}
	}
	return n
}

// roleClass is a symbol's class for generalize's pattern rule: black, pad, BG and OTHER each their own, the
// other colors one class (-1).
func roleClass(s int) int {
	switch s {
	case 0, datasets.PadToken, symBG, symOther:
		return s
	}
	return -1
}

// generalize returns the role table with the keys no training cell has answered by the two rules of the
// plain table's Generalize, read on descriptions: (1) the descriptions that do not depend on x (a literal,
// the first token, the background, the free color) that every set key (sa, ·) shares, and the first token
// (the color kept) when no key (sa, ·) is set; (2) else the descriptions by role (first, second, background,
// free color, black, pad) that every set key of the same pattern shares: each symbol's class (black, pad,
// BG, OTHER, another color) and whether the two are equal. BG being its own class is what lets an object
// color never seen keep itself over a background that is not black. Keys neither rule decides stay unset.
func (rt *RoleTable) generalize() *RoleTable {
	out := &RoleTable{Fixed: rt.Fixed, Keys: slices.Clone(rt.Keys)}
	const bFree = roleLit | descFirst | descBG | descOther
	const byRole = descFirst | descSecond | descBG | descOther | 1 | 1<<datasets.PadToken
	for a := range roleSyms {
		row, any := uint16(roleAll), false
		for b := range roleSyms {
			if v := rt.Keys[a*roleSyms+b]; v != 0 {
				row &= v & bFree
				any = true
			}
		}
		if !any {
			row = descFirst
		}
		for b := range roleSyms {
			if out.Keys[a*roleSyms+b] == 0 {
				out.Keys[a*roleSyms+b] = row
			}
		}
	}
	for a := range roleSyms {
		for b := range roleSyms {
			if out.Keys[a*roleSyms+b] != 0 {
				continue
			}
			m, any := uint16(byRole), false
			for a2 := range roleSyms {
				for b2 := range roleSyms {
					v := rt.Keys[a2*roleSyms+b2]
					if v == 0 || roleClass(a2) != roleClass(a) || roleClass(b2) != roleClass(b) ||
						(a2 == b2) != (a == b) {
						continue
					}
					m &= v
					any = true
				}
			}
			if any {
				out.Keys[a*roleSyms+b] = m
			}
		}
	}
	return out
}

// resolve returns the output of description set m for a cell whose g·x is g and x is x, under the input's
// roles r: the first of first token, second token, background, free color that is in m and defined, else
// the smallest literal in m; -1 when m is empty or names only roles the input does not define.
func (r *pairRoles) resolve(m uint16, g, x int8) int8 {
	switch {
	case m&descFirst != 0:
		return g
	case m&descSecond != 0:
		return x
	case m&descBG != 0 && r.bg >= 0:
		return r.bg
	case m&descOther != 0 && r.other >= 0:
		return r.other
	}
	for v := range datasets.NumTokens {
		if m>>v&1 == 1 {
			return int8(v)
		}
	}
	return -1
}

// predict applies the role table to an input under the element's gather (as Proposal.Predict).
func (rt *RoleTable) predict(input datasets.Canvas, gather []int32) (datasets.Canvas, bool) {
	r := rolesOf(input.Cells, rt.Fixed)
	out := datasets.Canvas{Rows: input.Rows, Cols: input.Cols, Cells: make([]int32, len(input.Cells))}
	ok := true
	for i, src := range gather {
		g := int8(datasets.PadToken)
		if src >= 0 {
			g = int8(input.Cells[src])
		}
		x := int8(input.Cells[i])
		v := r.resolve(rt.Keys[int(r.sym[g])*roleSyms+int(r.sym[x])], g, x)
		if v < 0 {
			ok, v = false, datasets.PadToken
		}
		out.Cells[i] = int32(v)
	}
	return out, ok
}

// ProposeRoles is Propose with role tables (RoleTable) in place of the plain table: the elements of group
// under which one role table maps (g·x, x) to y at every cell of every pair, each proposal's Table nil and its
// Roles set, ranked as Propose ranks them (Entries: the role table's set keys), at most max (0: all). It is
// the search for a caller whose Propose found no element: where a plain table fits, it is preferred (a
// role table says less about the colors a test input may bring). The errors are Propose's.
func ProposeRoles(inputs, outputs []datasets.Canvas, group Group, max int) ([]Proposal, error) {
	return propose(inputs, outputs, group, max, true)
}

// rolePair is a pair's roles for the canvas search, with per region cell (in the pair's region order) the
// symbol of x and the description of the output that does not depend on g·x (pairRoles.static).
type rolePair struct {
	r      pairRoles
	xs     []int8
	static []uint16
}

// newRolePair returns the roles of pair p under the fixed colors.
func newRolePair(p *pairscan.Pair, fixed uint16) *rolePair {
	cells := make([]int32, len(p.X))
	for i, v := range p.X {
		cells[i] = int32(v)
	}
	rp := &rolePair{r: rolesOf(cells, fixed)}
	for _, rc := range p.Region {
		rp.xs = append(rp.xs, rp.r.sym[rc.X])
		rp.static = append(rp.static, rp.r.static(rc.Out, rc.X))
	}
	return rp
}

// scanRoles adds the pair's region under g = T ∘ B (bx, rowOff, colSrc as in pairscan.Pair.ScanRegion) to
// the role table keys: false at the first conflict, else the token counts of g·x in the region.
func scanRoles(
	p *pairscan.Pair, rp *rolePair, bx []int8, rowOff, colSrc []int32, keys []uint16,
) (bool, [datasets.NumTokens]int32) {
	var cnt [datasets.NumTokens]int32
	for idx, rc := range p.Region {
		g := bx[rowOff[rc.Row]+colSrc[rc.Col]]
		cnt[g]++
		m := rp.static[idx]
		if rc.Out == g {
			m |= descFirst
		}
		if !observe(keys, int(rp.r.sym[g])*roleSyms+int(rp.xs[idx]), m) {
			return false, cnt
		}
	}
	return true, cnt
}

// outsideRoles completes the role table keys outside the pair's region (as pairscan.Outside does the plain table):
// x and y are pad there, g·x any token a of total that the region did not count.
func outsideRoles(keys []uint16, r *pairRoles, total, cnt *[datasets.NumTokens]int32) bool {
	for a := range datasets.NumTokens {
		if total[a] > cnt[a] {
			m := uint16(1<<datasets.PadToken | descSecond)
			if a == datasets.PadToken {
				m |= descFirst
			}
			if !observe(keys, int(r.sym[a])*roleSyms+datasets.PadToken, m) {
				return false
			}
		}
	}
	return true
}

// searchClassRoles is searchClass for ProposeRoles: the class under the identity translation (identity
// true) or every other translation, each scanned into one role table over all pairs.
func (s *proposer) searchClassRoles(c *baseClass, identity bool) {
	s.totals[0] = s.pairs[0].Based(c.gather, s.bx[0])
	ready := 1 // B·x is computed for the pairs before ready
	keys := make([]uint16, roleKeys)
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
			clear(keys)
			ok := true
			for k, p := range s.pairs {
				if k == ready {
					s.totals[k] = p.Based(c.gather, s.bx[k])
					ready++
				}
				if ok, s.cnts[k] = scanRoles(p, s.roles[k], s.bx[k], s.rowOff[i], s.colSrc[j], keys); !ok {
					break
				}
			}
			for k := 0; ok && k < len(s.pairs); k++ {
				total := &s.totals[k]
				if s.rowShifts[i].ZeroFill || s.colShifts[j].ZeroFill {
					gx := s.pairs[k].GxTotal(s.bx[k], s.rowOff[i], s.colSrc[j])
					total = &gx
				}
				ok = outsideRoles(keys, &s.roles[k].r, total, &s.cnts[k])
			}
			if ok {
				s.add(c, i, j, tcost, roleEntries(keys), nil, keys)
			}
		}
	}
}

// scanRoles adds the grid pair's cells under the gather of gridPair.scan to the role table keys, the
// pair's roles r: false at the first conflict.
func (p *gridPair) scanRoles(r *pairRoles, base, rm, cm []int32, keys []uint16) bool {
	for _, i := range p.order {
		g := int8(p.gx(base, rm, cm, i))
		x, out := int8(p.x[i]), int8(p.y[i])
		m := r.static(out, x)
		if out == g {
			m |= descFirst
		}
		if !observe(keys, int(r.sym[g])*roleSyms+int(r.sym[x]), m) {
			return false
		}
	}
	return true
}
