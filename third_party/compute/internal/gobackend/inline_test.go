// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
)

// TestInlineNode: the parallel executor runs a node in its own goroutine exactly when the node's inputs and
// output hold at most InlineNodeMaxElements values together, it calls no closure and its shapes are static.
func TestInlineNode(t *testing.T) {
	defer func(v int) { InlineNodeMaxElements = v }(InlineNodeMaxElements)
	InlineNodeMaxElements = 4096
	f32 := func(dims ...int) *Node { return &Node{Shape: shapes.Make(dtypes.Float32, dims...)} }
	small, big, half := f32(4, 4), f32(64, 64), f32(2048)
	dynamic := &Node{Shape: shapes.MakeDynamic(dtypes.Float32, []int{-1, 4}, []string{"batch", ""})}
	cases := []struct {
		name string
		node *Node
		want bool
	}{
		{"small add", &Node{Shape: small.Shape, Inputs: []*Node{small, small}}, true},
		{"exactly the bound", &Node{Shape: half.Shape, Inputs: []*Node{half}}, true},
		{"one over the bound", &Node{Shape: shapes.Make(dtypes.Float32, 2049), Inputs: []*Node{half}}, false},
		{"large output", &Node{Shape: big.Shape, Inputs: []*Node{small}}, false},
		{"large input, scalar output", &Node{Shape: shapes.Make(dtypes.Float32), Inputs: []*Node{big}}, false},
		{"closure", &Node{Shape: small.Shape, CapturedInputs: [][]*Node{{small}}}, false},
		{"dynamic output", &Node{Shape: dynamic.Shape, Inputs: []*Node{small}}, false},
		{"dynamic input", &Node{Shape: small.Shape, Inputs: []*Node{dynamic}}, false},
		{"constant", small, true},
	}
	for _, c := range cases {
		if got := inlineNode(c.node); got != c.want {
			t.Errorf("%s (%s): inline %v, want %v", c.name, c.node.Shape, got, c.want)
		}
	}
	InlineNodeMaxElements = 0
	for _, c := range cases {
		if inlineNode(c.node) {
			t.Errorf("%s: inline with InlineNodeMaxElements = 0", c.name)
		}
	}
}
