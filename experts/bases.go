// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"github.com/latformer/latformer/lattice"
)

// Parts returns the number of non-identity parts of el: a translation, each flipped axis, a rotation,
// and each scaled axis. A search ranks simpler elements first by it.
func (el Element) Parts() int {
	n := 0
	if el.Shift != [2]int{} {
		n++
	}
	for a := range 2 {
		if el.Flip[a] {
			n++
		}
		if max(1, el.Scale[a]) != 1 {
			n++
		}
	}
	if mod(el.Quarter, 4) != 0 {
		n++
	}
	return n
}

// basesCache holds Bases per expert configuration (an Expert is a comparable value).
var basesCache sync.Map // Expert -> []Element

// Bases returns every non-translation element the expert's hard gates can express on its canvas. These
// are the flips of each axis, the quarter turns (with Rotation on a square canvas) and the scalings by
// 1..MaxScale of each axis, for the enabled experts only. They are sorted by Parts, the identity first.
//
// No two bases have the same mask on the canvas. For example, flipping both axes is the 180° rotation
// on a square canvas. Of elements with the same mask, the one with the fewest Parts is kept, then the
// first enumerated. A search over the elements T ∘ B (B a base, T a translation) thus never visits one
// mask twice.
func (e Expert) Bases() []Element {
	if cached, ok := basesCache.Load(e); ok {
		return slices.Clone(cached.([]Element))
	}
	var all []Element
	quarters := 1
	if e.Rotation && e.Rows == e.Cols {
		quarters = 4
	}
	for _, sr := range e.axisScalings() {
		for _, sc := range e.axisScalings() {
			for q := range quarters {
				for flips := range 4 {
					if !e.Reflection && flips != 0 {
						continue
					}
					all = append(all, Element{Flip: [2]bool{flips&1 != 0, flips&2 != 0}, Quarter: q,
						Scale: [2]int{sr.factor, sc.factor}, Down: [2]bool{sr.down, sc.down}})
				}
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Parts() < all[j].Parts() })
	var out []Element
	seen := map[string]bool{}
	for _, el := range all {
		key, err := e.maskSignature(e.ActionOf(el))
		if err != nil {
			panic(fmt.Sprintf("experts.Expert.Bases: %v on the %dx%d canvas: %v", e.ActionOf(el), e.Rows, e.Cols, err))
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, el)
		}
	}
	basesCache.Store(e, out)
	return slices.Clone(out)
}

// axisScaling is the scaling of one axis: up (or down) by factor.
type axisScaling struct {
	factor int
	down   bool
}

// axisScalings lists the scalings the gates can set on one axis: factor 1, then up and then down by
// 2..MaxScale.
func (e Expert) axisScalings() []axisScaling {
	out := []axisScaling{{factor: 1}}
	if !e.Scaling {
		return out
	}
	for _, down := range []bool{false, true} {
		for h := 2; h <= e.MaxScale; h++ {
			out = append(out, axisScaling{factor: h, down: down})
		}
	}
	return out
}

// SameMask reports whether actions a and b have the same mask on the expert's rows x cols canvas. It
// compares what they do to two fixed probes of random integers (Action.Apply, exact in float64), so no
// n x n mask is formed. The probes determine a 0/1 mask, as every element's is, up to a chance
// coincidence of sums of random 30-bit integers.
func (e Expert) SameMask(a, b lattice.Action) (bool, error) {
	ka, err := e.maskSignature(a)
	if err != nil {
		return false, err
	}
	kb, err := e.maskSignature(b)
	if err != nil {
		return false, err
	}
	return ka == kb, nil
}

// maskProbes are the probes of maskSignature: two random integer vectors per canvas size, drawn once
// from a fixed seed.
var maskProbes sync.Map // [2]int{rows, cols} -> []float64 (n values, 2 features per cell)

// maskSignature returns a key of the mask of a on the expert's canvas (see SameMask).
func (e Expert) maskSignature(a lattice.Action) (string, error) {
	dims := []int{e.Rows, e.Cols}
	probe, ok := maskProbes.Load([2]int{e.Rows, e.Cols})
	if !ok {
		rng := rand.New(rand.NewPCG(uint64(e.Rows), uint64(e.Cols)))
		x := make([]float64, 2*e.N())
		for i := range x {
			x[i] = float64(rng.IntN(1 << 30))
		}
		probe, _ = maskProbes.LoadOrStore([2]int{e.Rows, e.Cols}, x)
	}
	y, err := a.Apply(dims, probe.([]float64), 2)
	if err != nil {
		return "", err
	}
	key := make([]byte, 0, 8*len(y))
	for _, v := range y {
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
	}
	return string(key), nil
}
