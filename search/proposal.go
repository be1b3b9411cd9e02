// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

// A proposal: an element consistent with every training pair and its color table, what it costs and what
// it reads (Cost, Recolorings, Grid, Anchored, FrameOf), and what it does with an input: its gather
// (Gather), its table completed for the keys no training cell set (Generalize), its prediction (Predict).

import (
	"errors"
	"fmt"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// Proposal is an element consistent with every training pair, and its color table.
type Proposal struct {
	Base   int            // index into Group.Bases
	Shift  [2]AxisShift   // rows, columns
	Action lattice.Action // T ∘ B: lattice.Compose(translation part(s), base); String() as the experts print it
	// Table[(token of g·x)*11 + token of x] = output token, -1 where no cell set it (11x11 keys); nil for a
	// proposal of ProposeRoles (no plain table fits its element).
	Table []int8
	// Roles is the color table over the pairs' color roles (RoleTable), nil where none fits: set by
	// ProposeRoles, and by WithRoles on a proposal of Propose. Predict reads it only where Table cannot map a
	// cell of the input.
	Roles   *RoleTable
	Entries int           // keys of Table that are set (of Roles, for a proposal of ProposeRoles)
	cost    int           // BaseCost[Base] + 1 if the translation is not the identity
	grid    *gridElement  // the element of a Group.Grid search (it acts on each input's grid); nil: canvas
	frame   *frameElement // the element of a Group.Anchored search (it acts on boxes read off each input)
}

// Cost is the number of parts of the proposal's element by which Propose ranks first: the base's parts
// (Group.BaseCost), one for a translation, and for an anchored element one for its crop, one for a
// placement other than the canvas corner and one for an offset. Elements of different searches (canvas,
// grid, anchored) compare by it: the one of fewer parts is the simpler description of the pairs.
func (p Proposal) Cost() int { return p.cost }

// Recolorings counts the entries of the proposal's plain table that give a cell another color than the
// color it reads from g·x (0 for a table that copies what the element reads; -1 without a plain table).
func (p Proposal) Recolorings() int {
	if len(p.Table) != pairscan.Keys1 {
		return -1
	}
	return recolored(p.Table)
}

// Grid reports whether the proposal's element is size-relative (found by a Group.Grid search): it acts on
// each input's grid, so Action's String names it but Action's canvas masks are those of one grid size only.
func (p Proposal) Grid() bool { return p.grid != nil }

// Anchored reports whether the proposal's element is anchor-relative (found by a Group.Anchored search),
// and its frame rule: Action is then its base, which acts on the box the rule crops from each input.
func (p Proposal) Anchored() (FrameRule, bool) {
	if p.frame == nil {
		return FrameRule{}, false
	}
	return p.frame.rule, true
}

// FrameOf returns the frame of an anchored proposal's element on the input (what the anchor-relative
// expert reads for it: experts.Frame); false where the proposal is not anchored or its rule reads no box.
func (p Proposal) FrameOf(input datasets.Canvas) (Frame, bool) {
	if p.frame == nil {
		return Frame{}, false
	}
	_, f, ok, err := p.frame.frameGather(input, nil)
	return f, ok && err == nil
}

// Generalize returns a copy of p whose table also answers the keys no training cell set, by the simplest
// rule the set keys allow: an unset key (a, b), a the token of g·x and b that of x, gets the output v when
// every set key (a, ·) gives v (f does not depend on x where g·x is a), and a itself when no key (a, ·) is set
// (a color no training pair moved is kept, as a recoloring keeps the colors it does not name). A key still
// unset then gets what the color permutations that fix black and pad (the network's color augmentation)
// give it: the set keys of the same pattern (a and b each black, pad or a color, equal or not) whose output
// is, each the same way, their a, their b, black or pad, decide it (colorRole). Keys that neither rule
// decides stay unset. Predict with the result fails only there. A role table (Roles) is generalized by the
// same two rules read on its descriptions (RoleTable).
func (p Proposal) Generalize() Proposal {
	if p.Roles != nil {
		p.Roles = p.Roles.generalize()
	}
	if len(p.Table) != pairscan.Keys1 {
		return p
	}
	table := append([]int8(nil), p.Table...)
	n := datasets.NumTokens
	for a := range n {
		v, agree := int8(-1), true
		for b := range n {
			if w := p.Table[a*n+b]; w >= 0 {
				if v >= 0 && w != v {
					agree = false
				}
				v = w
			}
		}
		switch {
		case !agree:
			continue
		case v < 0:
			v = int8(a)
		}
		for b := range n {
			if table[a*n+b] < 0 {
				table[a*n+b] = v
			}
		}
	}
	for a := range n {
		for b := range n {
			if table[a*n+b] < 0 {
				table[a*n+b] = colorRole(p.Table, a, b)
			}
		}
	}
	p.Table = table
	return p
}

// colorRole returns f(a, b) as the set keys of t (the training pairs' table) with the pattern of (a, b) say
// it, -1 when they do not agree or none is set. A pattern keeps black (0) and pad and whether the two
// tokens are equal; an output is read as a role: the key's first token, its second, black or pad (an output
// of another color says nothing a permutation of the colors could carry over).
func colorRole(t []int8, a, b int) int8 {
	const black, pad = 0, datasets.PadToken
	class := func(x int) int {
		if x == black || x == pad {
			return x
		}
		return -1
	}
	n := datasets.NumTokens
	role := int8(-1) // 0..n-1 a literal black or pad, n: the key's a, n+1: its b
	for a2 := range n {
		for b2 := range n {
			v := t[a2*n+b2]
			if v < 0 || class(a2) != class(a) || class(b2) != class(b) || (a2 == b2) != (a == b) {
				continue
			}
			var r int8
			switch {
			case int(v) == a2:
				r = int8(n)
			case int(v) == b2:
				r = int8(n + 1)
			case v == black || v == pad:
				r = v
			default:
				return -1
			}
			if role >= 0 && r != role {
				return -1
			}
			role = r
		}
	}
	switch role {
	case int8(n):
		return int8(a)
	case int8(n + 1):
		return int8(b)
	}
	return role
}

// Gather returns the proposal's element on the input's canvas as a gather: (g·x)[i] = x[gather[i]], pad
// where gather[i] < 0. A size-relative element (Grid) is taken on the input's own grid (GridExtents).
func (p Proposal) Gather(input datasets.Canvas) ([]int32, error) {
	if p.Action == nil {
		return nil, fmt.Errorf("no action")
	}
	if err := pairscan.CheckCanvas(input); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if p.frame != nil {
		g, _, ok, err := p.frame.frameGather(input, nil)
		if err == nil && !ok {
			err = fmt.Errorf("%v: %w", p.frame.rule, ErrNoBox)
		}
		return g, err
	}
	if p.grid != nil {
		h, w := GridExtents(input)
		return p.grid.gather(input.Rows, input.Cols, h, w, nil)
	}
	return pairscan.ActionGather(p.Action, input.Rows, input.Cols, nil)
}

// ErrNoBox is wrapped by the error of Gather and Predict for an anchored proposal whose rule reads no box
// on the input (a color it lacks, objects that tie).
var ErrNoBox = errors.New("the anchor reads no box on the input")

// ErrNoTable is wrapped by Predict's error for a proposal without an 11x11 table.
var ErrNoTable = errors.New("proposal has no 11x11 table")

// Predict applies the proposal to an input canvas: g·x, then the table per cell. ok is false when a cell's
// key has no entry in the table (the table cannot say what to output); that cell is pad. When the plain
// table cannot map every cell and the proposal has a role table (Roles), the role table predicts instead if
// it maps every cell (the input's own background and free color filling its roles); else the plain
// table's output is returned, with ok false.
func (p Proposal) Predict(input datasets.Canvas) (out datasets.Canvas, ok bool, err error) {
	if len(p.Table) != pairscan.Keys1 && (p.Table != nil || p.Roles == nil) {
		return datasets.Canvas{}, false,
			fmt.Errorf("search.Proposal.Predict: %w (%d entries)", ErrNoTable, len(p.Table))
	}
	gather, err := p.Gather(input)
	if err != nil {
		return datasets.Canvas{}, false, fmt.Errorf("search.Proposal.Predict: %w", err)
	}
	if p.Table == nil {
		out, ok = p.Roles.predict(input, gather)
		return out, ok, nil
	}
	out, ok = p.predictPlain(input, gather)
	if !ok && p.Roles != nil {
		if rout, rok := p.Roles.predict(input, gather); rok {
			return rout, true, nil
		}
	}
	return out, ok, nil
}

// predictPlain applies the plain table under the element's gather (Predict without roles).
func (p Proposal) predictPlain(input datasets.Canvas, gather []int32) (out datasets.Canvas, ok bool) {
	out = datasets.Canvas{Rows: input.Rows, Cols: input.Cols, Cells: make([]int32, len(input.Cells))}
	ok = true
	for i, src := range gather {
		g := int32(datasets.PadToken)
		if src >= 0 {
			g = input.Cells[src]
		}
		v := p.Table[g*datasets.NumTokens+input.Cells[i]]
		if v < 0 {
			ok, v = false, datasets.PadToken
		}
		out.Cells[i] = int32(v)
	}
	return out, ok
}
