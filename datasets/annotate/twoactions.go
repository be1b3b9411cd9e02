// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// Two actions: y = f(g₁·x, g₂·x, x), the setting of a LatFormer layer with two experts.

import (
	"fmt"
	"slices"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// TwoActionsTopK is the number of candidates per pair and category that the two-action search combines
// into pairs (g₁, g₂).
const TwoActionsTopK = 12

// TwoActions extends Task to two actions, in the setting of a LatFormer layer with two experts
// (layers.ParamActions = 2): y = f(g₁·x, g₂·x, x), g₁, g₂ ∈ G_c. It returns Task's annotation for a task
// that Task places in a category or excludes; for a task that fits no category of Task it tries the
// categories again, in Task's order, with two actions (ConsistentTwoActions; a category whose search hits
// the cap counts as not fitting). Such a task gets the Note "two actions" and Actions "g₁ + g₂" per pair.
func TwoActions(task datasets.Task) Annotation {
	ann := Task(task)
	if ann.Category != datasets.CategoryNone || ann.Note != noteNoFit {
		return ann
	}
	s := getSpace()
	pairs, err := taskPairs(task)
	if err != nil { // Task has said so in a Note already
		return ann
	}
	for _, cat := range datasets.Categories {
		if fit, _ := search2(s, cat, pairs); fit != nil {
			return Annotation{TaskID: task.ID, Category: cat, Actions: fit.Strings(), Note: NoteTwoActions}
		}
	}
	ann.Note = noteNoFitTwo
	return ann
}

// ConsistentTwoActions is Consistent with two actions: for each pair two elements g₁ᵢ ≠ g₂ᵢ of G_c and
// one color table f(g₁ᵢ·xᵢ, g₂ᵢ·xᵢ, xᵢ) → yᵢ consistent over all pairs, with at least one
// non-trivial element. The search is a heuristic (a nil Fit does not prove that no such elements exist): per pair it
// ranks the elements of G_c by how many output cells they explain that x does not (cells where the
// output equals g·x and differs from x; ties: Task's candidate order), and combines the best
// TwoActionsTopK that explain at least one such cell into unordered pairs; the backtracking over the
// pairs is Consistent's.
func ConsistentTwoActions(cat datasets.Category, pairs []datasets.Pair) (*Fit, error) {
	s, ps, err := checkSearch(cat, pairs)
	if err != nil {
		return nil, err
	}
	return search2(s, cat, ps)
}

// search2 is the two-action search of category cat over pairs: nil when it finds no solution (with an
// error wrapping ErrSearchCap if the cap was hit).
func search2(s *space, cat datasets.Category, pairs []*pair) (*Fit, error) {
	groups, choice, merged, err := chooseGroups(pairs,
		func(p *pair) []group[pairscan.Table2, [2]candidate] { return p.groups2(s, cat) },
		fmt.Sprintf("category %q (two actions)", cat))
	if err != nil || choice == nil {
		return nil, err
	}
	fit := &Fit{Table: merged[:]}
	for i := range pairs {
		g := groups[i][choice[i]].rep
		fit.Elements = append(fit.Elements, []lattice.Action{s.action(cat, g[0]), s.action(cat, g[1])})
	}
	return fit, nil
}

// ranked is a candidate with the number of output cells it explains that x does not, and its g·x
// (row-major).
type ranked struct {
	c      candidate
	useful int
	gx     []int8
}

// topCandidates returns the TwoActionsTopK candidates of category cat that explain the most output cells
// that x does not (at least one; ties: candidate order), most useful first.
func (p *pair) topCandidates(s *space, cat datasets.Category) []ranked {
	var top []ranked
	scratch := make([]int8, cells) // g·x of the candidate at hand; copied only if it enters top
	bx := make([]int8, len(p.Xp))
	consider := func(c candidate) {
		rowOff, colSrc := s.rowOff[c.delta/side], s.colSrc[c.delta%side]
		for i := range scratch {
			scratch[i] = bx[rowOff[i/side]+colSrc[i%side]]
		}
		useful := 0
		for _, rc := range p.Region {
			if g := scratch[int(rc.Row)*side+int(rc.Col)]; rc.Out == g && g != rc.X {
				useful++
			}
		}
		if useful == 0 || (len(top) == TwoActionsTopK && useful <= top[len(top)-1].useful) {
			return
		}
		at := sort.Search(len(top), func(k int) bool { return top[k].useful < useful })
		top = append(top, ranked{})
		copy(top[at+1:], top[at:])
		top[at] = ranked{c: c, useful: useful, gx: slices.Clone(scratch)}
		if len(top) > TwoActionsTopK {
			top = top[:TwoActionsTopK]
		}
	}
	for bi, b := range s.bases[cat] {
		p.Based(b.gather, bx)
		for d := range cells {
			consider(candidate{base: int16(bi), delta: int16(d)})
		}
	}
	copy(bx, p.Xp)
	for d := range cells {
		consider(candidate{base: -1, delta: int16(d)})
	}
	return top
}

// groups2 returns the distinct pair-local tables of the pairs of top candidates of category cat, each
// reported by its first pair (top order), or by its first non-trivial pair if it has one.
func (p *pair) groups2(s *space, cat datasets.Category) []group[pairscan.Table2, [2]candidate] {
	top := p.topCandidates(s, cat)
	var groups []group[pairscan.Table2, [2]candidate]
	index := map[pairscan.Table2]int{}
	for a := range top {
		for b := a + 1; b < len(top); b++ {
			t, ok := p.table2(top[a].gx, top[b].gx)
			if !ok {
				continue
			}
			nt := nontrivial(cat, top[a].c) || nontrivial(cat, top[b].c)
			g := group[pairscan.Table2, [2]candidate]{table: t, nontrivial: nt, rep: [2]candidate{top[a].c, top[b].c}}
			if gi, seen := index[t]; seen {
				if nt && !groups[gi].nontrivial {
					groups[gi] = g
				}
				continue
			}
			index[t] = len(groups)
			groups = append(groups, g)
		}
	}
	return groups
}

// table2 builds the pair-local table of f(g₁·x, g₂·x, x) over all cells; false on a conflict.
func (p *pair) table2(g1x, g2x []int8) (pairscan.Table2, bool) {
	t := pairscan.EmptyTable2
	for i := range cells {
		k := (int(g1x[i])*datasets.NumTokens+int(g2x[i]))*datasets.NumTokens + int(p.X[i])
		o := p.Out[i]
		if v := t[k]; v < 0 {
			t[k] = o
		} else if v != o {
			return t, false
		}
	}
	return t, true
}
