// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package pairscan

// One pair on a canvas, and the scan of the pair under an element g = T ∘ B.

import (
	"fmt"

	"github.com/latformer/latformer/datasets"
)

// Padded layout. B·x is held as a (rows+1) x (cols+1) row-major array whose last row and last column
// are pad, so that a translation T reads cell (r, c) of T·(B·x) at rowOff[r] + colSrc[c] (AxisGather)
// without a branch for the cells that a zero-fill shift leaves empty: those read the pad row or column.

// RegionCell is a cell of a pair's region, with the tokens of x and of the output there.
type RegionCell struct {
	Row, Col uint16
	X, Out   int8
}

// Pair is one pair on a rows x cols canvas: x and the output y, the region of cells where x or y is not
// pad (in the order of interleave), the token counts of x, and x in the padded layout (B·x for B =
// identity).
type Pair struct {
	Rows, Cols int
	X, Out     []int8 // row-major
	Xp         []int8 // padded layout
	Region     []RegionCell
	XTotal     [datasets.NumTokens]int32
}

// NewCanvasPair makes a pair of an input and an output canvas of the same size.
func NewCanvasPair(x, y datasets.Canvas) (*Pair, error) {
	if x.Rows != y.Rows || x.Cols != y.Cols {
		return nil, fmt.Errorf("input canvas %dx%d and output canvas %dx%d differ in size",
			x.Rows, x.Cols, y.Rows, y.Cols)
	}
	if err := CheckCanvas(x); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if err := CheckCanvas(y); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	p := &Pair{Rows: x.Rows, Cols: x.Cols, X: make([]int8, len(x.Cells)), Out: make([]int8, len(y.Cells))}
	p.Xp = make([]int8, (p.Rows+1)*(p.Cols+1))
	for i := range p.Xp {
		p.Xp[i] = datasets.PadToken
	}
	for i, v := range x.Cells {
		r, c := i/p.Cols, i%p.Cols
		p.X[i], p.Out[i] = int8(v), int8(y.Cells[i])
		p.Xp[r*(p.Cols+1)+c] = int8(v)
		p.XTotal[v]++
		if v != datasets.PadToken || y.Cells[i] != datasets.PadToken {
			p.Region = append(p.Region, RegionCell{Row: uint16(r), Col: uint16(c), X: int8(v), Out: int8(y.Cells[i])})
		}
	}
	p.Region = interleave(p.Region)
	return p, nil
}

// interleave returns the region cells with those where the output differs from x alternating with
// those where it equals x, each kind in row-major order: under a wrong element a conflict is usually
// between one cell of each kind, so scans stop sooner. The order changes no result of a scan.
func interleave(region []RegionCell) []RegionCell {
	var changed, same []RegionCell
	for _, c := range region {
		if c.X != c.Out {
			changed = append(changed, c)
		} else {
			same = append(same, c)
		}
	}
	out := make([]RegionCell, 0, len(region))
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

// CheckCanvas checks that a canvas has rows x cols cells (both in 1..65535), each a token.
func CheckCanvas(c datasets.Canvas) error {
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

// Based writes B·x into bx in the padded layout, where gather is B's gather on the canvas
// ((B·x)[i] = x[gather[i]], pad where gather[i] < 0), and returns the token counts of B·x.
func (p *Pair) Based(gather []int32, bx []int8) (total [datasets.NumTokens]int32) {
	stride := p.Cols + 1
	for i := range bx {
		bx[i] = datasets.PadToken
	}
	for i, src := range gather {
		v := int8(datasets.PadToken)
		if src >= 0 {
			v = p.X[src]
		}
		bx[(i/p.Cols)*stride+i%p.Cols] = v
		total[v]++
	}
	return total
}

// ScanRegion builds into t the table of f over the pair's region for g = T ∘ B, where bx is B·x in the
// padded layout and T reads (r, c) at rowOff[r] + colSrc[c]. It returns false at the first conflict
// (two cells with the same key and different outputs); else the token counts of g·x in the region and
// the number of region cells where the output equals g·x.
func (p *Pair) ScanRegion(
	bx []int8, rowOff, colSrc []int32, t *Table1,
) (ok bool, cnt [datasets.NumTokens]int32, agree int) {
	*t = EmptyTable1
	for _, rc := range p.Region {
		g := bx[rowOff[rc.Row]+colSrc[rc.Col]]
		cnt[g]++
		k := int(g)*datasets.NumTokens + int(rc.X)
		if rc.Out == g {
			agree++
		}
		if v := t[k]; v < 0 {
			t[k] = rc.Out
		} else if v != rc.Out {
			return false, cnt, 0
		}
	}
	return true, cnt, agree
}

// Outside completes t outside the region, where x and y are both pad: the only constraint there is
// f(a, pad) = pad for every token a of g·x outside the region, whose occurrences are total (the token
// counts of g·x) minus cnt (those in the region). It returns false on a conflict.
func Outside(t *Table1, total, cnt *[datasets.NumTokens]int32) bool {
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

// Scan builds into t the pair-local table of f for g = T ∘ B (ScanRegion, then Outside), where total
// holds the token counts of g·x. It returns false on the first conflict, else also the agreement of g:
// the number of cells where the output equals g·x.
func (p *Pair) Scan(bx []int8, total *[datasets.NumTokens]int32, rowOff, colSrc []int32, t *Table1) (bool, int) {
	ok, cnt, agree := p.ScanRegion(bx, rowOff, colSrc, t)
	if !ok || !Outside(t, total, &cnt) {
		return false, 0
	}
	return true, agree + int(total[datasets.PadToken]-cnt[datasets.PadToken])
}

// GxTotal returns the token counts of g·x = T·(B·x) over the whole canvas (bx, rowOff, colSrc as in
// ScanRegion): B·x's counts when T is circular, but a zero-fill shift drops cells and brings in pad.
func (p *Pair) GxTotal(bx []int8, rowOff, colSrc []int32) (total [datasets.NumTokens]int32) {
	for r := range p.Rows {
		o := rowOff[r]
		for _, c := range colSrc[:p.Cols] {
			total[bx[o+c]]++
		}
	}
	return total
}
