// Package fastgraph holds graph building blocks that compute what GoMLX's own do, with gradients
// arranged for GoMLX's pure-Go backend: WithCustomVJP (a hand-written gradient for a function of several
// tensors) and Dense (layers.Dense with a gradient free of transposes the backend would otherwise run
// element by element). The library packages use them; they are internal because their contract is
// GoMLX's own functions'.
package fastgraph

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// WithCustomVJP computes forward(inputs) and makes reverse-mode differentiation use backward for its
// gradient instead of differentiating forward's operations one by one. GoMLX's IdentityWithCustomGradient
// customizes the gradient of a single tensor; this packs the inputs and the (stopped) outputs into one
// flat tensor, attaches backward to it, and unpacks the outputs again:
//
//	packed = [flat(stop(outputs))..., flat(inputs)...]  -> custom gradient -> outputs = slices of packed
//
// forward gets the inputs behind a StopGradient (its own operations are never differentiated) and may
// keep intermediate nodes for backward. backward gets the cotangents of the outputs (same shapes) and
// returns one cotangent per input (same shapes; nil means zero). All inputs and outputs must share a
// floating-point dtype. The packing copies the inputs and outputs once (and their cotangents once),
// which is small next to attention's n x n work that it lets backward organize.
func WithCustomVJP(inputs []*Node, forward func(in []*Node) []*Node, backward func(dOutputs []*Node) []*Node) []*Node {
	if len(inputs) == 0 {
		exceptions.Panicf("WithCustomVJP: no inputs")
	}
	dtype := inputs[0].DType()
	stopped := make([]*Node, len(inputs))
	for i, in := range inputs {
		if in.DType() != dtype {
			exceptions.Panicf("WithCustomVJP: input %d has dtype %s, input 0 has %s", i, in.DType(), dtype)
		}
		stopped[i] = StopGradient(in)
	}
	outputs := forward(stopped)
	var parts []*Node
	var offsets []int
	offset := 0
	for i, o := range outputs {
		if o.DType() != dtype {
			exceptions.Panicf("WithCustomVJP: output %d has dtype %s, inputs have %s", i, o.DType(), dtype)
		}
		parts = append(parts, Reshape(StopGradient(o), o.Shape().Size()))
		offsets = append(offsets, offset)
		offset += o.Shape().Size()
	}
	outputsSize := offset
	for _, in := range inputs {
		parts = append(parts, Reshape(in, in.Shape().Size()))
	}
	packed := Concatenate(parts, 0)
	packed = IdentityWithCustomGradient(packed, func(_, v *Node) *Node {
		dOutputs := make([]*Node, len(outputs))
		for i, o := range outputs {
			dOutputs[i] = Reshape(Slice(v, AxisRange(offsets[i], offsets[i]+o.Shape().Size())), o.Shape().Dimensions...)
		}
		dInputs := backward(dOutputs)
		if len(dInputs) != len(inputs) {
			exceptions.Panicf("WithCustomVJP: backward returned %d cotangents for %d inputs", len(dInputs), len(inputs))
		}
		grads := []*Node{Zeros(v.Graph(), shapes.Make(dtype, outputsSize))}
		for i, in := range inputs {
			d := dInputs[i]
			if d == nil {
				d = ZerosLike(in)
			} else if !d.Shape().Equal(in.Shape()) {
				exceptions.Panicf("WithCustomVJP: cotangent %d has shape %s, its input %s", i, d.Shape(), in.Shape())
			}
			grads = append(grads, Reshape(d, in.Shape().Size()))
		}
		return Concatenate(grads, 0)
	})
	results := make([]*Node, len(outputs))
	for i, o := range outputs {
		results[i] = Reshape(Slice(packed, AxisRange(offsets[i], offsets[i]+o.Shape().Size())), o.Shape().Dimensions...)
	}
	return results
}
