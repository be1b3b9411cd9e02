// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// One pair on the canvas, and the pair-local tables of f that the candidates of G_c give it.

import (
	"fmt"
	"sort"

	"github.com/latformer/latformer/datasets"
)

// pair is one pair on the canvas: x and the output y, the region of cells where x or y is not pad
// (row-major) and the token counts of x.
type pair struct {
	x      [cells]int32
	out    [cells]int8
	region []int32
	xTotal [datasets.NumTokens]int32

	transCands []candidate // the pure translations with a pair-local table, computed once
	transDone  bool
	transTabs  []table1
}

// newPair places the input and the output of p on the canvas.
func newPair(p datasets.Pair) (*pair, error) {
	x, err := datasets.ToCanvas(p.Input, side, side)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	y, err := datasets.ToCanvas(p.Output, side, side)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	ap := &pair{}
	for i := range cells {
		ap.x[i] = x.Cells[i]
		ap.out[i] = int8(y.Cells[i])
		ap.xTotal[x.Cells[i]]++
		if x.Cells[i] != datasets.PadToken || y.Cells[i] != datasets.PadToken {
			ap.region = append(ap.region, int32(i))
		}
	}
	return ap, nil
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

// scan builds into t the pair-local table of f for g = T ∘ B, where bx = B·x and total its token counts,
// and tp the gather index of T. It returns false on the first conflict. Outside the region x and y are
// both pad, so there the only constraint is f(a, pad) = pad for every token a of g·x there; its
// occurrences are the total minus those met in the region. It also returns the agreement of g: the
// number of the cells where the output equals g·x.
func (p *pair) scan(bx *[cells]int32, total *[datasets.NumTokens]int32, tp []int32, t *table1) (bool, int) {
	*t = emptyTable1
	var cnt [datasets.NumTokens]int32
	agree := 0
	tp = tp[:cells]
	for _, c := range p.region {
		g := bx[tp[c]]
		cnt[g]++
		k := g*datasets.NumTokens + p.x[c]
		o := p.out[c]
		if int32(o) == g {
			agree++
		}
		if v := t[k]; v < 0 {
			t[k] = o
		} else if v != o {
			return false, 0
		}
	}
	for a := range datasets.NumTokens {
		if total[a] > cnt[a] {
			k := a*datasets.NumTokens + datasets.PadToken
			if v := t[k]; v < 0 {
				t[k] = datasets.PadToken
			} else if v != datasets.PadToken {
				return false, 0
			}
		}
	}
	return true, agree + int(total[datasets.PadToken]-cnt[datasets.PadToken])
}

// candidates returns the candidates T_δ ∘ B of one base B (gather nil: the pure translations) that
// have a pair-local table, with their tables.
func (p *pair) candidates(s *space, b int16, gather []int32) ([]candidate, []table1) {
	bx, total := &p.x, &p.xTotal
	if gather != nil {
		var gx [cells]int32
		var tot [datasets.NumTokens]int32
		for i, src := range gather {
			if src < 0 {
				gx[i] = datasets.PadToken
			} else {
				gx[i] = p.x[src]
			}
			tot[gx[i]]++
		}
		bx, total = &gx, &tot
	}
	var cands []candidate
	var tabs []table1
	var t table1
	for d := range cells {
		if ok, agree := p.scan(bx, total, s.trans[d], &t); ok {
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
func (p *pair) groups1(s *space, cat datasets.Category) []group[table1, best1] {
	if !p.transDone {
		p.transCands, p.transTabs = p.candidates(s, -1, nil)
		p.transDone = true
	}
	var groups []group[table1, best1]
	index := map[table1]int{}
	addAll := func(cands []candidate, tabs []table1) {
		for i, c := range cands {
			gi, ok := index[tabs[i]]
			if !ok {
				gi = len(groups)
				index[tabs[i]] = gi
				groups = append(groups, group[table1, best1]{table: tabs[i], rep: best1{first: c}})
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
