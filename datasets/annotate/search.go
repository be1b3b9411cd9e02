// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// The search shared by the one- and the two-action annotation: one group of candidates per pair, chosen
// by backtracking so that the pairs agree on one table f.

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

// MaxMerges caps the table merges of one search (one category, one set of pairs). No ARC training task
// reaches it.
const MaxMerges = 1_000_000

// ErrSearchCap is returned (wrapped) by a search that hit MaxMerges before it decided.
var ErrSearchCap = errors.New("search cap of table merges hit")

// group is a set of candidates (one action) or candidate pairs (two actions) that give a pair the same
// pair-local table; rep is what the group reports when it is chosen.
type group[T pairscan.Table, R any] struct {
	table      T
	nontrivial bool // some member of the group is non-trivial
	rep        R
}

// backtrack chooses one group per pair such that the tables of the chosen groups merge without a
// conflict and at least one chosen group is non-trivial. Pairs with fewer groups go first; each pair's
// groups are tried in the order given, so the order decides which solution is found, not whether one
// exists. It returns the index of the chosen group per pair and the merged table, or a nil choice when
// there is no solution, with capped true when it stopped at MaxMerges table merges.
func backtrack[T pairscan.Table, R any](groups [][]group[T, R]) (choice []int, merged T, capped bool) {
	for _, g := range groups {
		if len(g) == 0 {
			return nil, merged, false
		}
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(groups[order[a]]) < len(groups[order[b]]) })
	// nontrivialAfter[k]: some pair order[k:] has a non-trivial group.
	nontrivialAfter := make([]bool, len(order)+1)
	for k := len(order) - 1; k >= 0; k-- {
		nontrivialAfter[k] = nontrivialAfter[k+1]
		for gi := range groups[order[k]] {
			nontrivialAfter[k] = nontrivialAfter[k] || groups[order[k]][gi].nontrivial
		}
	}
	choice = make([]int, len(groups))
	merges := 0
	var rec func(k int, cur *T, nt bool) bool
	rec = func(k int, cur *T, nt bool) bool {
		if k == len(order) {
			if nt {
				merged = *cur
			}
			return nt
		}
		if !nt && !nontrivialAfter[k] {
			return false
		}
		p := order[k]
		for gi := range groups[p] {
			g := &groups[p][gi]
			if merges++; merges > MaxMerges {
				capped = true
				return false
			}
			next := *cur
			if !pairscan.Merge(&next, &g.table) {
				continue
			}
			choice[p] = gi
			if rec(k+1, &next, nt || g.nontrivial) {
				return true
			}
			if capped {
				return false
			}
		}
		return false
	}
	start := pairscan.EmptyTable[T]()
	if !rec(0, &start, false) {
		return nil, merged, capped
	}
	return choice, merged, false
}

// chooseGroups builds each pair's groups (groupsOf) and chooses one group per pair whose tables merge
// (backtrack). choice is nil when a pair has no group or no choice agrees; err wraps ErrSearchCap, naming
// what was searched, when the search hit MaxMerges.
func chooseGroups[T pairscan.Table, R any](
	pairs []*pair, groupsOf func(*pair) []group[T, R], what string,
) (groups [][]group[T, R], choice []int, merged T, err error) {
	groups = make([][]group[T, R], len(pairs))
	for i, p := range pairs {
		if groups[i] = groupsOf(p); len(groups[i]) == 0 {
			return nil, nil, merged, nil
		}
	}
	choice, merged, capped := backtrack(groups)
	if capped {
		return nil, nil, merged, fmt.Errorf("%w: %d in %s", ErrSearchCap, MaxMerges, what)
	}
	return groups, choice, merged, nil
}

// search1 is the one-action search of category cat over pairs: nil when it finds no solution (with an
// error wrapping ErrSearchCap if the cap was hit). A chosen group reports its most agreeing candidate;
// if no reported candidate is non-trivial, the first pair whose group has a non-trivial candidate
// reports its best non-trivial one instead.
func search1(s *space, cat datasets.Category, pairs []*pair) (*Fit, error) {
	groups, choice, merged, err := chooseGroups(pairs,
		func(p *pair) []group[pairscan.Table1, best1] { return p.groups1(s, cat) }, fmt.Sprintf("category %q", cat))
	if err != nil || choice == nil {
		return nil, err
	}
	cands := make([]candidate, len(pairs))
	anyNontrivial := false
	for i := range pairs {
		cands[i] = groups[i][choice[i]].rep.first
		anyNontrivial = anyNontrivial || nontrivial(cat, cands[i])
	}
	if !anyNontrivial {
		for i := range pairs {
			if g := &groups[i][choice[i]]; g.nontrivial {
				cands[i] = g.rep.nontrivial
				break
			}
		}
	}
	fit := &Fit{Table: merged[:]}
	for _, c := range cands {
		fit.Elements = append(fit.Elements, []lattice.Action{s.action(cat, c)})
	}
	return fit, nil
}

// Fit is a solution of the search for one category over a set of pairs.
type Fit struct {
	// Elements holds, per pair, the group element g_i (one action) or the two elements g₁ᵢ, g₂ᵢ (two
	// actions) of the category's set G_c.
	Elements [][]lattice.Action
	// Table is the color table f shared by all pairs: Table[k] is the output token for the key
	// k = (token of g·x)·11 + token of x (one action, 11² keys) or
	// k = ((token of g₁·x)·11 + token of g₂·x)·11 + token of x (two actions, 11³ keys), and -1 where no
	// cell of any pair constrains f.
	Table []int8
}

// Strings returns the elements of each pair as Annotation.Actions writes them: "g" (one action) or
// "g₁ + g₂" (two actions), each element in its lattice.Action String form.
func (f *Fit) Strings() []string {
	out := make([]string, len(f.Elements))
	for i, elems := range f.Elements {
		for j, a := range elems {
			if j > 0 {
				out[i] += " + "
			}
			out[i] += a.String()
		}
	}
	return out
}

// checkSearch returns the element sets and the pairs on the canvas for Consistent and
// ConsistentTwoActions.
func checkSearch(cat datasets.Category, pairs []datasets.Pair) (*space, []*pair, error) {
	if !slices.Contains(datasets.Categories, cat) {
		return nil, nil, fmt.Errorf("annotate: category %q is not one of %v", cat, datasets.Categories)
	}
	s := getSpace()
	if s.err != nil {
		return nil, nil, fmt.Errorf("annotate: element sets: %w", s.err)
	}
	ps, err := newPairs(pairs, func(i int) string { return fmt.Sprintf("annotate: pair %d", i) })
	return s, ps, err
}

// Consistent searches the elements of category cat (one of datasets.Categories; the sets G_c of the
// package doc) for one element g_i per pair and one color table f(g_i·x_i, x_i) → y_i consistent over
// all pairs (every cell of the 30x30 canvas, pad included), with at least one g_i non-trivial. It is the
// search of Task for one category, without Task's exclusion of tasks that the identity solves. It
// returns nil when no such elements exist, and an error wrapping ErrSearchCap when the search hit
// MaxMerges, or for a grid over 30x30.
func Consistent(cat datasets.Category, pairs []datasets.Pair) (*Fit, error) {
	s, ps, err := checkSearch(cat, pairs)
	if err != nil {
		return nil, err
	}
	return search1(s, cat, ps)
}
