// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// One pair on a canvas, the scan of the pair under an element g = T ∘ B (shared by the annotation and
// Propose), and the pair-local tables of f that the candidates of G_c give it.

import (
	"fmt"
	"sort"

	"github.com/latformer/latformer/datasets"
)

// Padded layout. B·x is held as a (rows+1) x (cols+1) row-major array whose last row and last column
// are pad, so that a translation T reads cell (r, c) of T·(B·x) at rowOff[r] + colSrc[c] (axisGather)
// without a branch for the cells that a zero-fill shift leaves empty: those read the pad row or column.

// regionCell is a cell of a pair's region, with the tokens of x and of the output there.
type regionCell struct {
	row, col uint16
	x, out   int8
}

// pair is one pair on a rows x cols canvas: x and the output y, the region of cells where x or y is not
// pad (in the order of interleave), the token counts of x, and x in the padded layout (B·x for B =
// identity).
type pair struct {
	rows, cols int
	x, out     []int8 // row-major
	xp         []int8 // padded layout
	region     []regionCell
	xTotal     [datasets.NumTokens]int32

	transCands []candidate // the pure translations with a pair-local table, computed once
	transDone  bool
	transTabs  []table1
}

// newCanvasPair makes a pair of an input and an output canvas of the same size.
func newCanvasPair(x, y datasets.Canvas) (*pair, error) {
	if x.Rows != y.Rows || x.Cols != y.Cols {
		return nil, fmt.Errorf("input canvas %dx%d and output canvas %dx%d differ in size", x.Rows, x.Cols, y.Rows, y.Cols)
	}
	if err := checkCanvas(x); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if err := checkCanvas(y); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	p := &pair{rows: x.Rows, cols: x.Cols, x: make([]int8, len(x.Cells)), out: make([]int8, len(y.Cells))}
	p.xp = make([]int8, (p.rows+1)*(p.cols+1))
	for i := range p.xp {
		p.xp[i] = datasets.PadToken
	}
	for i, v := range x.Cells {
		r, c := i/p.cols, i%p.cols
		p.x[i], p.out[i] = int8(v), int8(y.Cells[i])
		p.xp[r*(p.cols+1)+c] = int8(v)
		p.xTotal[v]++
		if v != datasets.PadToken || y.Cells[i] != datasets.PadToken {
			p.region = append(p.region, regionCell{row: uint16(r), col: uint16(c), x: int8(v), out: int8(y.Cells[i])})
		}
	}
	p.region = interleave(p.region)
	return p, nil
}

// interleave returns the region cells with those where the output differs from x alternating with
// those where it equals x, each kind in row-major order: under a wrong element a conflict is usually
// between one cell of each kind, so scans stop sooner. The order changes no result of a scan.
func interleave(region []regionCell) []regionCell {
	var changed, same []regionCell
	for _, c := range region {
		if c.x != c.out {
			changed = append(changed, c)
		} else {
			same = append(same, c)
		}
	}
	out := make([]regionCell, 0, len(region))
	for i := range max(len(changed), len(same)) {
		if i < len(changed) {
			out = append(out, changed[i])
		}
		if i < len(same) {
			out = append(out, same[i])
		}
	}
	return out
}

// checkCanvas checks that a canvas has rows x cols cells (both in 1..65535), each a token.
func checkCanvas(c datasets.Canvas) error {
	if c.Rows < 1 || c.Cols < 1 || c.Rows > 1<<16-1 || c.Cols > 1<<16-1 || len(c.Cells) != c.Rows*c.Cols {
		return fmt.Errorf("canvas of %dx%d with %d cells", c.Rows, c.Cols, len(c.Cells))
	}
	for i, v := range c.Cells {
		if v < 0 || v >= datasets.NumTokens {
			return fmt.Errorf("cell %d holds %d, not a token in [0, %d)", i, v, datasets.NumTokens)
		}
	}
	return nil
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
	return newCanvasPair(x, y)
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

// based writes B·x into bx in the padded layout, where gather is B's gather on the canvas
// ((B·x)[i] = x[gather[i]], pad where gather[i] < 0), and returns the token counts of B·x.
func (p *pair) based(gather []int32, bx []int8) (total [datasets.NumTokens]int32) {
	stride := p.cols + 1
	for i := range bx {
		bx[i] = datasets.PadToken
	}
	for i, src := range gather {
		v := int8(datasets.PadToken)
		if src >= 0 {
			v = p.x[src]
		}
		bx[(i/p.cols)*stride+i%p.cols] = v
		total[v]++
	}
	return total
}

// scanRegion builds into t the table of f over the pair's region for g = T ∘ B, where bx is B·x in the
// padded layout and T reads (r, c) at rowOff[r] + colSrc[c]. It returns false at the first conflict
// (two cells with the same key and different outputs); else the token counts of g·x in the region and
// the number of region cells where the output equals g·x.
func (p *pair) scanRegion(bx []int8, rowOff, colSrc []int32, t *table1) (ok bool, cnt [datasets.NumTokens]int32, agree int) {
	*t = emptyTable1
	for _, rc := range p.region {
		g := bx[rowOff[rc.row]+colSrc[rc.col]]
		cnt[g]++
		k := int(g)*datasets.NumTokens + int(rc.x)
		if rc.out == g {
			agree++
		}
		if v := t[k]; v < 0 {
			t[k] = rc.out
		} else if v != rc.out {
			return false, cnt, 0
		}
	}
	return true, cnt, agree
}

// outside completes t outside the region, where x and y are both pad: the only constraint there is
// f(a, pad) = pad for every token a of g·x outside the region, whose occurrences are total (the token
// counts of g·x) minus cnt (those in the region). It returns false on a conflict.
func outside(t *table1, total, cnt *[datasets.NumTokens]int32) bool {
	for a := range datasets.NumTokens {
		if total[a] > cnt[a] {
			k := a*datasets.NumTokens + datasets.PadToken
			if v := t[k]; v < 0 {
				t[k] = datasets.PadToken
			} else if v != datasets.PadToken {
				return false
			}
		}
	}
	return true
}

// scan builds into t the pair-local table of f for g = T ∘ B (scanRegion, then outside), where total
// holds the token counts of g·x. It returns false on the first conflict, else also the agreement of g:
// the number of cells where the output equals g·x.
func (p *pair) scan(bx []int8, total *[datasets.NumTokens]int32, rowOff, colSrc []int32, t *table1) (bool, int) {
	ok, cnt, agree := p.scanRegion(bx, rowOff, colSrc, t)
	if !ok || !outside(t, total, &cnt) {
		return false, 0
	}
	return true, agree + int(total[datasets.PadToken]-cnt[datasets.PadToken])
}

// gxTotal returns the token counts of g·x = T·(B·x) over the whole canvas (bx, rowOff, colSrc as in
// scanRegion): B·x's counts when T is circular, but a zero-fill shift drops cells and brings in pad.
func (p *pair) gxTotal(bx []int8, rowOff, colSrc []int32) (total [datasets.NumTokens]int32) {
	for r := range p.rows {
		o := rowOff[r]
		for _, c := range colSrc[:p.cols] {
			total[bx[o+c]]++
		}
	}
	return total
}

// candidates returns the candidates T_δ ∘ B of one base B (gather nil: the pure translations) that
// have a pair-local table, with their tables.
func (p *pair) candidates(s *space, b int16, gather []int32) ([]candidate, []table1) {
	bx, total := p.xp, &p.xTotal
	if gather != nil {
		bx = make([]int8, len(p.xp))
		tot := p.based(gather, bx)
		total = &tot
	}
	var cands []candidate
	var tabs []table1
	var t table1
	for d := range cells {
		if ok, agree := p.scan(bx, total, s.rowOff[d/side], s.colSrc[d%side], &t); ok {
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
