// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"reflect"
	"slices"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/lattice"
)

// TestPredictMissingKey: a test input with a color no training input has gives ok = false, pad at that
// cell, and the right output elsewhere.
func TestPredictMissingKey(t *testing.T) {
	x := datasets.Canvas{Rows: 2, Cols: 3, Cells: []int32{1, 2, 1, 2, 1, 2}}
	y := datasets.Canvas{Rows: 2, Cols: 3, Cells: []int32{3, 4, 3, 4, 3, 4}}
	props, err := Propose([]datasets.Canvas{x}, []datasets.Canvas{y}, Group{Bases: []lattice.Action{lattice.IdentityAction{}}, BaseCost: []int{0}}, 1)
	if err != nil || len(props) != 1 || props[0].Action.String() != "identity" || props[0].Entries != 2 {
		t.Fatalf("proposals %+v, err %v: want identity with 2 entries", props, err)
	}
	out, ok, err := props[0].Predict(x)
	if err != nil || !ok || !reflect.DeepEqual(out.Cells, y.Cells) {
		t.Errorf("on a training input: %v ok %v err %v, want %v", out.Cells, ok, err, y.Cells)
	}
	x.Cells = []int32{1, 7, 1, 2, 1, 2}
	out, ok, err = props[0].Predict(x)
	if err != nil || ok || !reflect.DeepEqual(out.Cells, []int32{3, datasets.PadToken, 3, 4, 3, 4}) {
		t.Errorf("with an unseen color: %v ok %v err %v, want ok false and pad at cell 1", out.Cells, ok, err)
	}
}

// TestGeneralize checks the table's generalization: an unset key (a, b) takes the output every set key
// (a, ·) agrees on, a itself when none is set, and stays unset when the set keys (a, ·) disagree; set keys
// and the original proposal are unchanged.
func TestGeneralize(t *testing.T) {
	n := datasets.NumTokens
	p := Proposal{Table: make([]int8, n*n)}
	for i := range p.Table {
		p.Table[i] = -1
	}
	p.Table[1*n+0], p.Table[1*n+2] = 4, 4 // g·x = 1 -> 4 whatever x is
	p.Table[2*n+0], p.Table[2*n+3] = 5, 6 // g·x = 2 -> depends on x
	g := p.Generalize()
	checks := []struct {
		a, b int
		want int8
	}{
		{1, 0, 4}, {1, 7, 4}, // the agreed output
		{2, 0, 5}, {2, 3, 6}, {2, 7, -1}, // disagreeing: set keys kept, the others unset
		{3, 5, 3}, {datasets.PadToken, 1, int8(datasets.PadToken)}, // never set: the color of g·x
	}
	for _, c := range checks {
		if got := g.Table[c.a*n+c.b]; got != c.want {
			t.Errorf("generalized f(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if p.Table[1*n+7] != -1 {
		t.Error("Generalize changed the original proposal's table")
	}
}

// TestGeneralizeColorRoles checks the second rule of Generalize on an overlay's table, f(a, b) = b where b
// is not black, else a, set on colors 1 and 2 only: keys with a new color get their output by the role
// the keys of the same pattern agree on (f(0, 5) = 5, f(3, 7) = 7, f(6, 6) = 6), a key whose set keys of
// the same pattern give a third color stays unset, and keys the first rule decides keep its answer.
func TestGeneralizeColorRoles(t *testing.T) {
	n := datasets.NumTokens
	p := Proposal{Table: make([]int8, n*n)}
	for i := range p.Table {
		p.Table[i] = -1
	}
	for _, a := range []int{0, 1, 2} {
		for _, b := range []int{0, 1, 2} {
			v := b
			if b == 0 {
				v = a
			}
			p.Table[a*n+b] = int8(v)
		}
	}
	p.Table[datasets.PadToken*n+datasets.PadToken] = int8(datasets.PadToken)
	g := p.Generalize()
	checks := []struct {
		a, b int
		want int8
	}{
		{0, 5, 5}, // (black, color): the role "b" of (0, 1) and (0, 2)
		{1, 7, 7}, // (color, other color): the role "b" of (1, 2) and (2, 1)
		{3, 0, 3}, // first rule: no key (3, ·) set, the color of g·x
		{4, 4, 4}, // first rule too
		{0, 0, 0}, // set
	}
	for _, c := range checks {
		if got := g.Table[c.a*n+c.b]; got != c.want {
			t.Errorf("generalized f(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// A third color as output: the pattern (color, other color) says nothing.
	q := p
	q.Table = slices.Clone(p.Table)
	q.Table[1*n+2] = 9
	if got := q.Generalize().Table[1*n+7]; got != -1 {
		t.Errorf("with f(1, 2) = 9, generalized f(1, 7) = %d, want unset", got)
	}
}
