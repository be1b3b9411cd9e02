// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// Step 1 of a task (doc.go): the lattice search's proposals, what the search predicts alone (predictUntrained), and
// the frames of an anchored top proposal (WithFrames).

import (
	"fmt"
	"slices"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/search"
)

// Proposal is a group element of a mask expert under which one color table maps every training input
// to its output. Element is in the expert's own parametrization: the hard gates it sets select Action.
type Proposal struct {
	Element experts.Element
	search.Proposal
}

// Search is what the lattice search found on a task's training pairs: the proposals, best first, as
// elements of Expert, and the time it took. Learner.Fit starts its first restarts at the proposals.
type Search struct {
	Proposals []Proposal
	Expert    experts.Expert
	Elapsed   time.Duration
}

// anchor returns the frame rule that an anchored search's proposals share, or false.
func (s *Search) anchor() (search.FrameRule, bool) {
	if s == nil || s.Expert.Lattice != experts.Anchored || len(s.Proposals) == 0 {
		return search.FrameRule{}, false
	}
	return s.Proposals[0].Anchored()
}

// starts returns the proposals' elements as Fit's Starts, with an anchored rule's colors kept fixed.
func (s *Search) starts(train []latformer.Example) *latformer.Starts {
	if s == nil {
		return nil
	}
	st := &latformer.Starts{Expert: s.Expert, Elements: make([]experts.Element, len(s.Proposals))}
	for i, p := range s.Proposals {
		st.Elements[i] = p.Element
	}
	if rule, ok := s.anchor(); ok {
		st.Keep = keepColors(rule, train)
	}
	return st
}

// keepColors are the colors an anchored rule reads, which the augmentation keeps fixed like the
// output-only colors. The colors the rule names (search.Selection.ColorNamed) are constants of the rule,
// since the frames were read off the examples' own colors. So are the colors of the objects a rule picks
// without naming a color (the largest, the smallest), where they are the same on every training input.
func keepColors(rule search.FrameRule, train []latformer.Example) []int32 {
	inputs := make([]datasets.Canvas, len(train))
	for i, ex := range train {
		inputs[i] = ex.Input
	}
	var keep []int32
	fix := func(color int) {
		if !slices.Contains(keep, int32(color)) {
			keep = append(keep, int32(color))
		}
	}
	for _, s := range []search.Selection{rule.Src, rule.Dst} {
		if c, ok := s.ColorNamed(); ok {
			fix(c)
		} else if colors, ok := sameObjectColors(s, inputs); ok {
			for _, c := range colors {
				fix(c)
			}
		}
	}
	return keep
}

// sameObjectColors returns the colors of the object the selection picks, if they are the same on every
// input. The rule then reads objects of those colors, so they are kept fixed.
func sameObjectColors(s search.Selection, inputs []datasets.Canvas) ([]int, bool) {
	var first []int
	for i, in := range inputs {
		colors, ok := s.ObjectColors(in)
		if !ok || (i > 0 && !slices.Equal(colors, first)) {
			return nil, false
		}
		first = colors
	}
	return first, len(first) > 0
}

// searchLattice runs LatticeProposals on the training examples and returns its Search.
func searchLattice(e experts.Expert, train []latformer.Example, max int, grid, anchored bool) (*Search, error) {
	start := time.Now()
	props, used, err := latticeProposals(e, train, max, grid, anchored)
	if err != nil {
		return nil, err
	}
	return &Search{Proposals: props, Expert: used, Elapsed: time.Since(start)}, nil
}

// Proposals returns the elements that e's hard gates can encode on its canvas and under which one color
// table f(g·x, x) → y is consistent over all examples. It searches T ∘ B with B in e.Bases() and T a
// circular translation or, with the zero-fill gates, a zero-fill shift (search.Propose). It returns at
// most max of them (0: all), ranked as search.Propose ranks them. Only the examples' Input and Output
// canvases are read. A grid-lattice expert's elements, and their proposals, act on each example's grid
// (search.Group.Grid).
//
// Each proposal carries its element's color-role table when one fits (search.Proposal.WithRoles). When
// no element has a plain table, the elements with a role table are proposed (search.ProposeRoles).
func Proposals(e experts.Expert, examples []latformer.Example, max int) ([]Proposal, error) {
	props, err := proposals(e, examples, max, false)
	if err != nil || len(props) > 0 {
		return props, err
	}
	return proposals(e, examples, max, true)
}

// proposals is the search of Proposals with plain tables, or with role tables only.
func proposals(e experts.Expert, examples []latformer.Example, max int, roles bool) ([]Proposal, error) {
	if len(examples) == 0 {
		return nil, fmt.Errorf("Proposals: no examples")
	}
	bases := e.Bases()
	group := search.Group{ZeroFill: e.Translation && e.ZeroFill, MaxShift: e.MaxShift(),
		Grid: e.Lattice == experts.Grid, Anchored: e.Lattice == experts.Anchored}
	for _, b := range bases {
		group.Bases = append(group.Bases, e.ActionOf(b))
		group.BaseCost = append(group.BaseCost, b.Parts())
	}
	inputs, outputs := make([]datasets.Canvas, len(examples)), make([]datasets.Canvas, len(examples))
	for i, ex := range examples {
		inputs[i], outputs[i] = ex.Input, ex.Output
	}
	// The search covers every circular shift of the canvas. Those the gates cannot hold are dropped.
	limit := max
	if !e.Translation || e.MaxShift() < e.Rows-1 || e.MaxShift() < e.Cols-1 {
		limit = 0
	}
	propose := search.Propose
	if roles {
		propose = search.ProposeRoles
	}
	found, err := propose(inputs, outputs, group, limit)
	if err != nil {
		return nil, fmt.Errorf("Proposals on the %dx%d canvas: %w", e.Rows, e.Cols, err)
	}
	var out []Proposal
	for _, p := range found {
		el, ok := elementOf(e, bases[p.Base], p.Shift)
		if !ok {
			continue
		}
		if !roles {
			p = p.WithRoles(inputs, outputs)
		}
		out = append(out, Proposal{Element: el, Proposal: p})
		if max > 0 && len(out) == max {
			break
		}
	}
	return out, nil
}

// LatticeProposals is the search of ParamGateInit "search" as the Solver runs it before choosing a
// learner. It returns the proposals of e (Proposals). When there are none and grid is set
// (ParamSearchLattices "grid"), it returns those of e with the grid lattice. It also returns the expert
// the proposals belong to; a learner that starts at them must have that expert. Plain tables come first
// on both lattices, then role tables, so an element whose plain table fits always wins.
func LatticeProposals(
	e experts.Expert, examples []latformer.Example, max int, grid bool,
) ([]Proposal, experts.Expert, error) {
	return latticeProposals(e, examples, max, grid, false)
}

// LatticeProposalsAnchored is LatticeProposals with the grid and then the anchor-relative elements
// (ParamSearchLattices "anchored", the default). It tries them where no element of the canvas or the
// grid has a plain table. The proposals for an anchored expert carry their frame rule
// (search.Proposal.Anchored); WithFrames gives the examples' frames under them.
func LatticeProposalsAnchored(
	e experts.Expert, examples []latformer.Example, max int,
) ([]Proposal, experts.Expert, error) {
	return latticeProposals(e, examples, max, true, true)
}

// latticeProposals is LatticeProposals. With anchored, it tries the anchor-relative elements after the
// plain tables of the canvas and the grid, before any role table.
func latticeProposals(
	e experts.Expert, examples []latformer.Example, max int, grid, anchored bool,
) ([]Proposal, experts.Expert, error) {
	g, a := e, e
	g.Lattice, a.Lattice = experts.Grid, experts.Anchored
	tryGrid := !e.Lattice.SizeRelative() && grid
	for _, roles := range []bool{false, true} {
		props, err := proposals(e, examples, max, roles)
		if err != nil {
			return props, e, err
		}
		used := e
		if len(props) == 0 && tryGrid {
			if props, err = proposals(g, examples, max, roles); err != nil {
				return props, e, err
			}
			used = g
		}
		if !anchored || roles || !tryGrid {
			if len(props) > 0 {
				return props, used, nil
			}
			continue
		}
		// The anchor-relative elements are proposed where no plain table fits the canvas or the grid.
		// They also win over a fitting element with at least anchoredCostMargin more parts than the best
		// anchored one, when that one's table copies what it reads (Recolorings 0). A crop is then the
		// simpler description, and a canvas or grid element of three or four parts a coincidence.
		if len(props) > 0 && props[0].Cost() < 1+anchoredCostMargin {
			return props, used, nil
		}
		aprops, err := proposals(a, examples, 0, roles)
		if err != nil {
			return aprops, e, err
		}
		aprops = sameFrames(aprops, examples, max)
		if len(aprops) > 0 && (len(props) == 0 ||
			(aprops[0].Cost()+anchoredCostMargin <= props[0].Cost() && aprops[0].Recolorings() == 0)) {
			return aprops, a, nil
		}
		if len(props) > 0 {
			return props, used, nil
		}
	}
	return nil, e, nil
}

// anchoredCostMargin is how many fewer parts the best anchor-relative element needs to win over the
// best canvas or grid element with a plain table.
const anchoredCostMargin = 1

// elementOf is the base element with the search's translation, or false when the gates cannot hold it.
func elementOf(e experts.Expert, base experts.Element, shift [2]search.AxisShift) (experts.Element, bool) {
	el := base
	for a, side := range []int{e.Rows, e.Cols} {
		d := shift[a].Delta
		if shift[a].ZeroFill {
			el.Shift[a], el.ZeroFill[a] = d, d != 0
		} else {
			el.Shift[a] = ((d % side) + side) % side
		}
		if el.Shift[a] != 0 && (!e.Translation || max(el.Shift[a], -el.Shift[a]) > e.MaxShift()) {
			return el, false
		}
	}
	return el, true
}

// sameFrames keeps at most max anchored proposals (0: all) whose frames are the top proposal's. The
// frames are one model input for every restart, so the restarts differ only in their bases.
func sameFrames(props []Proposal, examples []latformer.Example, max int) []Proposal {
	if len(props) == 0 {
		return nil
	}
	top := make([]search.Frame, len(examples))
	for i, ex := range examples {
		top[i], _ = props[0].FrameOf(ex.Input)
	}
	var out []Proposal
	for _, p := range props {
		same := true
		for i, ex := range examples {
			if f, ok := p.FrameOf(ex.Input); !ok || f != top[i] {
				same = false
				break
			}
		}
		if same {
			out = append(out, p)
		}
		if max > 0 && len(out) == max {
			break
		}
	}
	return out
}

// predictUntrained predicts the tasks the solver does not train a network for, and reports whether it
// did. With SearchOnly the top proposal predicts; an untrained task gets no prediction.
func (s *Solver) predictUntrained(sol *Solution, test []latformer.Example, cells int) (bool, error) {
	if s.opts.SearchOnly {
		return true, s.predictBySearch(sol, test)
	}
	if sol.Search != nil && len(sol.Search.Proposals) == 0 && s.untrained(cells) {
		sol.Source, sol.Predictions = SourceUntrained, make([]*datasets.Canvas, len(test))
		return true, nil
	}
	return false, nil
}

// untrained says whether a task the search finds no element for goes untrained on a canvas of cells:
// with ParamSearchScreen, or ParamGateInit "search" above ParamMaxCells.
func (s *Solver) untrained(cells int) bool {
	return s.screen || (s.search && s.unproposedMaxCells > 0 && cells > s.unproposedMaxCells)
}

// predictBySearch predicts with the search's top proposal alone (SearchOnly): no prediction without one.
func (s *Solver) predictBySearch(sol *Solution, test []latformer.Example) error {
	sol.Source, sol.Predictions = SourceSearch, make([]*datasets.Canvas, len(test))
	if len(sol.Search.Proposals) == 0 {
		return nil
	}
	top := sol.Search.Proposals[0]
	searched, err := proposalPredictions(top, test)
	if err != nil {
		return err
	}
	sol.Top, sol.Searched, sol.Predictions, sol.Action = &top, searched, searched, top.Action
	if rule, ok := top.Anchored(); ok {
		sol.Anchor = rule.String()
	}
	return nil
}

// withFramesOf returns the examples with their frames under the start's top proposal when it is
// anchor-relative, else the examples as they are.
func withFramesOf(start *Search, examples []latformer.Example) []latformer.Example {
	if _, ok := start.anchor(); ok {
		return WithFrames(start.Proposals[0], examples)
	}
	return examples
}

// WithFrames returns copies of the examples with each input's frame under the proposal. A frame is
// zero where the rule reads no box, or when the proposal is not anchored.
func WithFrames(p Proposal, examples []latformer.Example) []latformer.Example {
	out := make([]latformer.Example, len(examples))
	for i, ex := range examples {
		out[i] = ex
		f, _ := p.FrameOf(ex.Input)
		out[i].Frame = f.Ints()
	}
	return out
}
