// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

// The group-element sets G_c on the 30x30 canvas, precomputed as gather indices.

import (
	"fmt"
	"sync"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/pairscan"
	"github.com/latformer/latformer/lattice"
)

const (
	side  = datasets.MaxGridSide // the canvas is side x side
	cells = side * side
)

// base is a non-translation element B of a category, with its gather index on the canvas:
// (B·x)[i] = x[gather[i]], or pad where gather[i] < 0.
type base struct {
	action lattice.Action
	gather []int32
}

// space holds the translations T_δ and, per category, the non-translation elements B of G_c, as gather
// indices on the canvas.
type space struct {
	// rowOff[dr] and colSrc[dc]: the axis gathers (pairscan.AxisGather) of T_(dr,dc) in the padded layout.
	rowOff, colSrc [side][]int32
	transActs      [cells]lattice.Action
	bases          map[datasets.Category][]base // none for translate
	err            error
}

var (
	spaceOnce sync.Once
	spaceVal  *space
)

// getSpace returns the element sets, built once.
func getSpace() *space {
	spaceOnce.Do(func() { spaceVal = newSpace() })
	return spaceVal
}

// scaleActions returns the 80 scalings of G_scale: per axis, up by 1..5 or down by 2..5, not both
// identity; all-up first, then all-down, then mixed, each in lexicographic order of the factors.
func scaleActions() []lattice.Action {
	var ups, downs, mixed []lattice.Action
	for hr := 1; hr <= 5; hr++ {
		for hc := 1; hc <= 5; hc++ {
			if hr == 1 && hc == 1 {
				continue
			}
			ups = append(ups, lattice.Upscale{Factors: []int{hr, hc}})
			downs = append(downs, lattice.Downscale{Factors: []int{hr, hc}})
		}
	}
	for hr := 2; hr <= 5; hr++ {
		for hc := 2; hc <= 5; hc++ {
			mixed = append(mixed,
				lattice.Compose(lattice.Upscale{Factors: []int{hr, 1}}, lattice.Downscale{Factors: []int{1, hc}}),
				lattice.Compose(lattice.Downscale{Factors: []int{hr, 1}}, lattice.Upscale{Factors: []int{1, hc}}))
		}
	}
	return append(append(ups, downs...), mixed...)
}

// newSpace builds the translations and the bases of every category (space.err on failure).
func newSpace() *space {
	s := &space{bases: map[datasets.Category][]base{}}
	for d := range side {
		s.rowOff[d] = pairscan.AxisGather(side, side+1, d, false)
		s.colSrc[d] = pairscan.AxisGather(side, 1, d, false)
	}
	for d := range cells {
		s.transActs[d] = lattice.Translation{Deltas: []int{d / side, d % side}}
	}
	cache := map[string]*pairscan.PrimGather{}
	add := func(cat datasets.Category, actions ...lattice.Action) {
		for _, a := range actions {
			g, err := pairscan.ActionGather(a, side, side, cache)
			if err != nil && s.err == nil {
				s.err = fmt.Errorf("gather of %v: %w", a, err)
			}
			s.bases[cat] = append(s.bases[cat], base{action: a, gather: g})
		}
	}
	add(datasets.CategoryRotate, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1},
		lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 3})
	add(datasets.CategoryReflect, lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1},
		lattice.DiagonalReflection{AxisA: 0, AxisB: 1}, lattice.DiagonalReflection{AxisA: 0, AxisB: 1, Anti: true})
	add(datasets.CategoryScale, scaleActions()...)
	return s
}

// candidate is an element g = T_delta ∘ bases[base] of G_c (base -1: the pure translation T_delta),
// with its agreement on a pair: the number of cells where the output equals g·x.
type candidate struct {
	base  int16
	delta int16
	agree int16
}

// action returns the lattice action of candidate c of category cat.
func (s *space) action(cat datasets.Category, c candidate) lattice.Action {
	t := s.transActs[c.delta]
	if c.base < 0 {
		if c.delta == 0 {
			return lattice.IdentityAction{}
		}
		return t
	}
	b := s.bases[cat][c.base].action
	if c.delta == 0 {
		return b
	}
	return lattice.Compose(t, b)
}

// nontrivial reports whether candidate c is a non-trivial element of category cat: a translation δ ≠ 0
// for translate, an element with a base B (rotation, reflection, scaling) for the others.
func nontrivial(cat datasets.Category, c candidate) bool {
	if cat == datasets.CategoryTranslate {
		return c.base < 0 && c.delta != 0
	}
	return c.base >= 0
}
