// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// The pairs of a task on the 30x30 canvas, and the pair-local tables of f that the candidates of G_c give
// a pair. The scan of a pair under an element g = T ∘ B is pairscan's, shared with the solver's search.

import (
	"fmt"
	"sort"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
)

// pair is one pair on the canvas (pairscan.Pair), with the pure translations that have a pair-local
// table, computed once.
type pair struct {
	*pairscan.Pair

	transCands []candidate // the pure translations with a pair-local table, computed once
	transDone  bool
	transTabs  []pairscan.Table1
}

// newPair places the input and the output of p on the 30x30 canvas of the annotation.
func newPair(p datasets.Pair) (*pair, error) {
	x, err := datasets.ToCanvas(p.Input, side, side)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	y, err := datasets.ToCanvas(p.Output, side, side)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	sp, err := pairscan.NewCanvasPair(x, y)
	if err != nil {
		return nil, err
	}
	return &pair{Pair: sp}, nil
}

// newPairs places pairs on the canvas; name(i) says which pair an error is about.
func newPairs(pairs []datasets.Pair, name func(i int) string) ([]*pair, error) {
	out := make([]*pair, 0, len(pairs))
	for i, p := range pairs {
		ap, err := newPair(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name(i), err)
		}
		out = append(out, ap)
	}
	return out, nil
}

// taskPairs returns the train pairs and the test pairs with an output of a task on the canvas.
func taskPairs(task datasets.Task) ([]*pair, error) {
	train, err := newPairs(task.Train, func(i int) string { return fmt.Sprintf("train pair %d", i) })
	if err != nil {
		return nil, err
	}
	var tests []datasets.Pair
	var index []int
	for i, p := range task.Test {
		if p.Output != nil {
			tests, index = append(tests, p), append(index, i)
		}
	}
	test, err := newPairs(tests, func(i int) string { return fmt.Sprintf("test pair %d", index[i]) })
	if err != nil {
		return nil, err
	}
	return append(train, test...), nil
}

// candidates returns the candidates T_δ ∘ B of one base B (gather nil: the pure translations) that
// have a pair-local table, with their tables.
func (p *pair) candidates(s *space, b int16, gather []int32) ([]candidate, []pairscan.Table1) {
	bx, total := p.Xp, &p.XTotal
	if gather != nil {
		bx = make([]int8, len(p.Xp))
		tot := p.Based(gather, bx)
		total = &tot
	}
	var cands []candidate
	var tabs []pairscan.Table1
	var t pairscan.Table1
	for d := range cells {
		if ok, agree := p.Scan(bx, total, s.rowOff[d/side], s.colSrc[d%side], &t); ok {
			cands = append(cands, candidate{base: b, delta: int16(d), agree: int16(agree)})
			tabs = append(tabs, t)
		}
	}
	return cands, tabs
}

// best1 is what a one-action group reports: its most agreeing candidate and its most agreeing
// non-trivial one (ties: candidate order).
type best1 struct {
	first, nontrivial candidate
}

// groups1 returns the distinct pair-local tables of the candidates of category cat for the pair, most
// agreeing first (ties: candidate order, the bases in order then the pure translations, each by δ in
// row-major order).
func (p *pair) groups1(s *space, cat datasets.Category) []group[pairscan.Table1, best1] {
	if !p.transDone {
		p.transCands, p.transTabs = p.candidates(s, -1, nil)
		p.transDone = true
	}
	var groups []group[pairscan.Table1, best1]
	index := map[pairscan.Table1]int{}
	addAll := func(cands []candidate, tabs []pairscan.Table1) {
		for i, c := range cands {
			gi, ok := index[tabs[i]]
			if !ok {
				gi = len(groups)
				index[tabs[i]] = gi
				groups = append(groups, group[pairscan.Table1, best1]{table: tabs[i], rep: best1{first: c}})
			} else if c.agree > groups[gi].rep.first.agree {
				groups[gi].rep.first = c
			}
			g := &groups[gi]
			if nontrivial(cat, c) && (!g.nontrivial || c.agree > g.rep.nontrivial.agree) {
				g.nontrivial = true
				g.rep.nontrivial = c
			}
		}
	}
	for bi, b := range s.bases[cat] {
		addAll(p.candidates(s, int16(bi), b.gather))
	}
	addAll(p.transCands, p.transTabs)
	sort.SliceStable(groups, func(a, b int) bool { return groups[a].rep.first.agree > groups[b].rep.first.agree })
	return groups
}
