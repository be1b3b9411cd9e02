// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// The candidate frames of the frames fit (frames.go) on the examples (WithFrameCandidates) and in the names of the
// elements (ruleElements).

import (
	"fmt"
	"strings"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/search"
)

// WithFrameCandidates returns copies of the examples with each input's frame under every rule
// (Example.Frames). Every example, training and test, gets the same candidates in the same order.
func WithFrameCandidates(rules []search.FrameRule, examples []latformer.Example) []latformer.Example {
	out := make([]latformer.Example, len(examples))
	for i, ex := range examples {
		out[i] = ex
		out[i].Frames = make([][experts.FrameLen]int32, len(rules))
		for k, r := range rules {
			if f, ok := r.FrameOn(ex.Input); ok {
				out[i].Frames[k] = f.Ints()
			}
		}
	}
	return out
}

// ruleElements names the candidate frames in elements named by experts.Expert.ElementName ("frame(k)∘g")
// by their rules ("crop(fg)∘g").
func ruleElements(names []string, rules []search.FrameRule) []string {
	out := make([]string, len(names))
	for i, n := range names {
		var k int
		out[i] = n
		if _, err := fmt.Sscanf(n, "frame(%d)", &k); err == nil && k >= 0 && k < len(rules) {
			out[i] = rules[k].String() + strings.TrimPrefix(n, fmt.Sprintf("frame(%d)", k))
		}
	}
	return out
}
