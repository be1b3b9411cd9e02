// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package pairscan

// Gather indices of lattice actions on a rows x cols canvas, equal to datasets.ApplyAction.

import (
	"fmt"
	"math"

	"github.com/latformer/latformer/lattice"
)

// AxisGather returns the gather of a translation along one axis of length l by delta cells, circular or
// zero-fill, in the padded layout (see pair.go) with the given stride between positions: entry i is
// stride·j for the position j that position i reads (circular: j = (i - delta) mod l; zero-fill:
// j = i - delta when 0 <= j < l), and stride·l, the pad row or column, where a zero-fill shift reads
// nothing.
func AxisGather(l, stride, delta int, zeroFill bool) []int32 {
	g := make([]int32, l)
	for i := range g {
		j := i - delta
		switch {
		case !zeroFill:
			j = ((j % l) + l) % l
		case j < 0 || j >= l:
			j = l
		}
		g[i] = int32(j * stride)
	}
	return g
}

// PrimGather is the gather of one part of a composition: src[i] is the cell that output cell i reads
// (-1: none), or, for a down-scaling, blocks[i] the cells of the block that lands on i.
type PrimGather struct {
	src    []int32
	blocks [][]int32
}

// ActionGather returns, for a rows x cols canvas, gather[i] = the cell whose token
// datasets.ApplyAction(a, ·) puts in cell i, or -1 where it puts pad; an error if a does not act on the
// canvas. ApplyAction reads the first column of row i of the mask M = M_1 ⋯ M_k of a = g_1 ∘ ⋯ ∘ g_k; the
// support of that row is the set of cells reached from i through the supports of the rows of M_1, ...,
// M_k, so the gather is the smallest cell of that set. The gathers of the parts (lattice.Parts) are kept
// in cache, by their String (nil: no cache), so no n x n mask is ever formed.
func ActionGather(a lattice.Action, rows, cols int, cache map[string]*PrimGather) ([]int32, error) {
	parts := lattice.Parts(a)
	prims := make([]*PrimGather, len(parts))
	for i, part := range parts {
		key := part.String()
		if pg, ok := cache[key]; ok {
			prims[i] = pg
			continue
		}
		var err error
		if prims[i], err = primitiveGather(part, rows, cols); err != nil {
			return nil, fmt.Errorf("%v on a %dx%d canvas: %w", a, rows, cols, err)
		}
		if cache != nil {
			cache[key] = prims[i]
		}
	}
	gather := make([]int32, rows*cols)
	var cur, next []int32
	for i := range gather {
		cur = append(cur[:0], int32(i))
		for _, pg := range prims {
			next = next[:0]
			for _, c := range cur {
				if pg.blocks != nil {
					next = append(next, pg.blocks[c]...)
				} else if s := pg.src[c]; s >= 0 {
					next = append(next, s)
				}
			}
			cur, next = next, cur
		}
		gather[i] = -1
		for _, c := range cur {
			if gather[i] < 0 || c < gather[i] {
				gather[i] = c
			}
		}
	}
	return gather, nil
}

// primitiveGather returns the gather of one lattice action that is not a composition: the blocks of a
// Downscale, else the single cell each output cell reads, found by Apply on the cell indices + 1 (0
// where nothing lands); an error for an action whose output cells mix input cells.
func primitiveGather(a lattice.Action, rows, cols int) (*PrimGather, error) {
	dims, n := []int{rows, cols}, rows*cols
	idx := make([]float64, n)
	for i := range idx {
		idx[i] = float64(i + 1)
	}
	y, err := a.Apply(dims, idx, 1)
	if err != nil {
		return nil, err
	}
	if d, ok := a.(lattice.Downscale); ok {
		hr, hc := d.Factors[0], d.Factors[1]
		blocks := make([][]int32, n)
		for r := 0; r*hr < rows; r++ {
			for c := 0; c*hc < cols; c++ {
				var b []int32
				for i := r * hr; i < min((r+1)*hr, rows); i++ {
					for j := c * hc; j < min((c+1)*hc, cols); j++ {
						b = append(b, int32(i*cols+j))
					}
				}
				blocks[r*cols+c] = b
			}
		}
		return &PrimGather{blocks: blocks}, nil
	}
	src := make([]int32, n)
	for i, v := range y {
		if v != math.Trunc(v) || v < 0 || v > float64(n) {
			return nil, fmt.Errorf("%v does not move whole cells (cell %d reads %g): not a gather", a, i, v)
		}
		src[i] = int32(v) - 1
	}
	return &PrimGather{src: src}, nil
}

// ThenAction returns the gather of g followed by the action a on a rows x cols canvas (ActionGather):
// cell i reads g[ActionGather(a)[i]], -1 where either reads nothing.
func ThenAction(g []int32, a lattice.Action, rows, cols int, cache map[string]*PrimGather) ([]int32, error) {
	s, err := ActionGather(a, rows, cols, cache)
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(s))
	for i, src := range s {
		out[i] = -1
		if src >= 0 {
			out[i] = g[src]
		}
	}
	return out, nil
}
