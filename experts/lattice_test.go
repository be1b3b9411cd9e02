// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"strings"
	"testing"
)

// TestLattice checks that every value ParamLattice accepts parses to the lattice that prints it, that the
// expert of each setting has that lattice, and that another word is an error naming the values.
func TestLattice(t *testing.T) {
	values := params[ParamLattice].Choices
	if len(values) != 3 {
		t.Fatalf("%s accepts %v, want canvas, grid and anchored", ParamLattice, values)
	}
	relative := 0
	for _, v := range values {
		l, err := ParseLattice(v.(string))
		if err != nil || l.String() != v {
			t.Errorf("ParseLattice(%q) = %v, %v", v, l, err)
		}
		if l.SizeRelative() {
			relative++
		}
	}
	if relative != 2 {
		t.Errorf("%d size-relative lattices, want 2 (grid, anchored)", relative)
	}
	if _, err := ParseLattice("box"); err == nil || !strings.Contains(err.Error(), "canvas, grid or anchored") {
		t.Errorf("ParseLattice(box): error %v", err)
	}
}
