// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package fastgraph holds graph building blocks that compute what GoMLX's own do, with gradients
// arranged for GoMLX's pure-Go backend: WithCustomVJP (a hand-written gradient for a function of several
// tensors), Dense (layers.Dense with a gradient free of transposes the backend would otherwise run
// element by element) and BatchMatMul (Einsum's "bij,bjk->bik" with such a gradient). The library packages use them; they are internal because their contract is
// GoMLX's own functions'.
package fastgraph

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// WithCustomVJP computes forward(inputs) and makes reverse-mode differentiation use backward for its
// gradient instead of differentiating forward's operations one by one. GoMLX's IdentityWithCustomGradient
// customizes the gradient of a single tensor; this routes the cotangents of several outputs to several
// inputs through such identities:
//
//	x'_i  = identity(x_i)                      custom gradient: backward(...)[i]
//	p     = 0 · Σ_i clip(x'_i[0], -1, 1)       a zero scalar that depends on every input
//	out_j = identity(stop(forward(x)_j) + p)   custom gradient: records dout_j, passes it on
//
// Reverse-mode differentiation meets the outputs' identities first (they come later in the graph), which
// record the cotangents, and the inputs' identities last, which call backward once with all of them and
// hand each input its cotangent. The extra work is one scalar addition per output element; the gradient
// GoMLX builds along p is never used, and the backend does not run what nothing uses.
//
// forward gets the inputs behind a StopGradient (its own operations are never differentiated) and may
// keep intermediate nodes for backward. backward gets the cotangents of the outputs (same shapes; zeros
// for an output the loss does not use) and returns one cotangent per input (same shapes; nil means
// zero). Inputs must be floating point; a NaN as the first element of an input makes every output NaN
// (through p).
func WithCustomVJP(inputs []*Node, forward func(in []*Node) []*Node, backward func(dOutputs []*Node) []*Node) []*Node {
	if len(inputs) == 0 {
		exceptions.Panicf("WithCustomVJP: no inputs")
	}
	var outputs, dOutputs, grads []*Node
	carried := make([]*Node, len(inputs))
	var proxy *Node
	for i, in := range inputs {
		if !in.DType().IsFloat() {
			exceptions.Panicf("WithCustomVJP: input %d has dtype %s, want a floating-point dtype", i, in.DType())
		}
		carried[i] = IdentityWithCustomGradient(in, func(x, _ *Node) *Node {
			if grads == nil {
				for j, o := range outputs {
					if dOutputs[j] == nil {
						dOutputs[j] = ZerosLike(o)
					}
				}
				grads = backward(dOutputs)
				if len(grads) != len(inputs) {
					exceptions.Panicf("WithCustomVJP: backward returned %d cotangents for %d inputs",
						len(grads), len(inputs))
				}
			}
			g := grads[i]
			if g == nil {
				return ZerosLike(x)
			}
			if !g.Shape().Equal(x.Shape()) {
				exceptions.Panicf("WithCustomVJP: cotangent %d has shape %s, its input %s", i, g.Shape(), x.Shape())
			}
			return g
		})
		// One element of the input is enough for the dependency; clipped so that an infinite one still
		// gives 0 below. Sliced in place (one element per axis), not after a flattening Reshape: the backend
		// copies a tensor it reshapes while other ops still use it.
		ranges := make([]SliceAxisSpec, in.Rank())
		for a := range ranges {
			ranges[a] = AxisRange(0, 1)
		}
		first := carried[i]
		if in.Rank() > 0 {
			first = Reshape(Slice(first, ranges...))
		}
		term := ConvertDType(ClipScalar(first, -1, 1), inputs[0].DType())
		if proxy == nil {
			proxy = term
		} else {
			proxy = Add(proxy, term)
		}
	}
	proxy = MulScalar(proxy, 0)
	// forward's inputs are taken after the identities (StopGradient(carried[i]), not StopGradient(in)): then an
	// input has one consumer, the identity, which the Go backend runs without a copy; with two, the first of
	// them to run copied the whole tensor (the attention's query, key and value at every step).
	stopped := make([]*Node, len(inputs))
	for i := range inputs {
		stopped[i] = StopGradient(carried[i])
	}
	outputs = forward(stopped)
	dOutputs = make([]*Node, len(outputs))
	results := make([]*Node, len(outputs))
	for j, o := range outputs {
		if !o.DType().IsFloat() {
			exceptions.Panicf("WithCustomVJP: output %d has dtype %s, want a floating-point dtype", j, o.DType())
		}
		p := proxy
		if p.DType() != o.DType() {
			p = ConvertDType(p, o.DType())
		}
		results[j] = IdentityWithCustomGradient(Add(StopGradient(o), p), func(_, v *Node) *Node {
			// A new differentiation (another Gradient call) starts from the outputs: drop the previous one's.
			if grads != nil {
				grads = nil
				clear(dOutputs)
			}
			dOutputs[j] = v
			return v
		})
	}
	return results
}
