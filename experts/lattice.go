// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import "fmt"

// Lattice is what an expert's actions act on (ParamLattice).
type Lattice int

const (
	// Canvas: the whole canvas.
	Canvas Lattice = iota
	// Grid is each example's grid, its non-pad extent (Gates.Extent). Flips, turns and circular shifts
	// act on the grid, and scaling comes last.
	Grid
	// Anchored is a box read off each input, cropped, acted on, and placed by a shift read off the input
	// (Gates.Frames): g(x) = T(a(x)) ∘ B (docs/arc-search.md, "Elements that follow the input").
	Anchored
)

// String is the lattice's value of ParamLattice: LatticeCanvas, LatticeGrid or LatticeAnchored.
func (l Lattice) String() string {
	switch l {
	case Grid:
		return LatticeGrid
	case Anchored:
		return LatticeAnchored
	}
	return LatticeCanvas
}

// SizeRelative says whether the actions act on each example's own grid rather than on the canvas.
func (l Lattice) SizeRelative() bool { return l != Canvas }

// ParseLattice reads a value of ParamLattice.
func ParseLattice(s string) (Lattice, error) {
	for _, l := range []Lattice{Canvas, Grid, Anchored} {
		if l.String() == s {
			return l, nil
		}
	}
	return Canvas, fmt.Errorf("lattice %q: want %s, %s or %s", s, LatticeCanvas, LatticeGrid, LatticeAnchored)
}
