// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// ColorPermutation maps tokens 0..10 to tokens: p[t] is the token that t becomes. The colors 0..9 are
// permuted among themselves and the pad token always maps to itself, so that the grid/pad layout of a
// canvas is preserved. It is the color-mapping augmentation of Appendix B.2: "for each model and every
// iteration, we augment each grid 10 times by mapping each color to a different color (using the same
// mapping across training examples)".
type ColorPermutation [NumTokens]int32

// IdentityColors returns the permutation that maps every token to itself.
func IdentityColors() ColorPermutation {
	var p ColorPermutation
	for t := range p {
		p[t] = int32(t)
	}
	return p
}

// RandomColorPermutation returns a permutation of the colors 0..9 drawn uniformly over the 10!
// permutations (a Fisher–Yates shuffle; the identity and permutations with fixed points are included:
// the paper's "mapping each color to a different color" is read as "to another color of a random
// bijection", not as a derangement). The pad token maps to itself.
func RandomColorPermutation(rng *rand.Rand) ColorPermutation {
	p := IdentityColors()
	for i := NumColors - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// Validate checks that p maps the colors 0..9 bijectively onto 0..9 and the pad token to itself.
func (p ColorPermutation) Validate() error {
	if p[PadToken] != PadToken {
		return fmt.Errorf("color permutation maps the pad token %d to %d", PadToken, p[PadToken])
	}
	var seen [NumColors]bool
	for c := range NumColors {
		v := p[c]
		if v < 0 || v >= NumColors {
			return fmt.Errorf("color permutation maps color %d to %d, outside the colors 0..%d", c, v, NumColors-1)
		}
		if seen[v] {
			return fmt.Errorf("color permutation maps two colors to %d: it is not a bijection", v)
		}
		seen[v] = true
	}
	return nil
}

// Inverse returns the permutation q with q[p[t]] = t (it maps augmented predictions back to the
// original colors). p must be valid (see Validate).
func (p ColorPermutation) Inverse() ColorPermutation {
	var q ColorPermutation
	for t, v := range p {
		q[v] = int32(t)
	}
	return q
}

// Canvas returns a new canvas with every token t of c replaced by p[t] (pad cells stay pad). It panics
// if c holds a token outside 0..10.
func (p ColorPermutation) Canvas(c Canvas) Canvas {
	out := Canvas{Rows: c.Rows, Cols: c.Cols, Cells: make([]int32, len(c.Cells))}
	p.Apply(out.Cells, c.Cells)
	return out
}

// Grid returns a new grid with every color v of g replaced by p[v]. It panics if g holds a value
// outside 0..10.
func (p ColorPermutation) Grid(g Grid) Grid {
	out := make(Grid, len(g))
	for i, row := range g {
		out[i] = make([]int, len(row))
		for j, v := range row {
			out[i][j] = int(p[v])
		}
	}
	return out
}

// Apply writes dst[i] = p[src[i]] without allocating, for hot loops (dst and src may be the same
// slice). It panics if len(dst) != len(src) or if src holds a token outside 0..10.
func (p ColorPermutation) Apply(dst, src []int32) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("datasets.ColorPermutation.Apply: len(dst) = %d != len(src) = %d", len(dst), len(src)))
	}
	for i, t := range src {
		dst[i] = p[t]
	}
}

// AugmentationPermutations returns the `copies` color permutations of one training step (Appendix B.2,
// copies = 10 in the paper): the first is the identity (the original task), the others are drawn
// independently with RandomColorPermutation. Each permutation is one mapping for a whole copy of the
// task: it is applied to every example of the task, input and output alike. It returns nil for
// copies <= 0.
func AugmentationPermutations(rng *rand.Rand, copies int) []ColorPermutation {
	if copies <= 0 {
		return nil
	}
	perms := make([]ColorPermutation, copies)
	perms[0] = IdentityColors()
	for k := 1; k < copies; k++ {
		perms[k] = RandomColorPermutation(rng)
	}
	return perms
}

// AugmentOptions restrict the color permutations of AugmentationPermutationsWith.
type AugmentOptions struct {
	// KeepBlack keeps color 0 (black, ARC's usual background) fixed: rules that depend on the
	// background stay the same rule in every copy.
	KeepBlack bool
	// Colors, if not nil, are the only colors permuted (among themselves): typically the colors that
	// occur in the task's inputs (TaskColors), so that no copy shows a color the task never has and a
	// color that only the outputs create (a rule's constant) stays what it is.
	Colors []int32
	// Fixed colors are never permuted (nor is any other color mapped onto them): typically the colors
	// that the task's outputs create and no input has (OutputOnlyColors), the constants of its rule,
	// which a permutation would make a different one in every copy, so that no function of the input
	// could fit them all.
	Fixed []int32
}

// OutputOnlyColors returns the colors 0..9 that occur in some output canvas and in no input canvas, in
// increasing order.
func OutputOnlyColors(inputs, outputs []Canvas) []int32 {
	in := TaskColors(inputs...)
	var out []int32
	for _, c := range TaskColors(outputs...) {
		if !slices.Contains(in, c) {
			out = append(out, c)
		}
	}
	return out
}

// TaskColors returns the colors 0..9 that occur in the canvases, in increasing order.
func TaskColors(canvases ...Canvas) []int32 {
	var seen [NumColors]bool
	for _, c := range canvases {
		for _, t := range c.Cells {
			if t >= 0 && t < NumColors {
				seen[t] = true
			}
		}
	}
	var out []int32
	for c, ok := range seen {
		if ok {
			out = append(out, int32(c))
		}
	}
	return out
}

// AugmentationPermutationsWith is AugmentationPermutations with the permutations restricted by opts:
// each is a uniformly random permutation of the movable colors (opts.Colors, or all ten, less black with
// KeepBlack and less opts.Fixed), every other token fixed. The first is the identity. The zero AugmentOptions give the
// permutations of AugmentationPermutations (the same random numbers are drawn).
func AugmentationPermutationsWith(rng *rand.Rand, copies int, opts AugmentOptions) []ColorPermutation {
	if opts.Colors == nil && !opts.KeepBlack && len(opts.Fixed) == 0 {
		return AugmentationPermutations(rng, copies)
	}
	if copies <= 0 {
		return nil
	}
	var movable []int32
	colors := opts.Colors
	if colors == nil {
		for c := range int32(NumColors) {
			colors = append(colors, c)
		}
	}
	for _, c := range colors {
		if c >= 0 && c < NumColors && !(opts.KeepBlack && c == 0) && !slices.Contains(opts.Fixed, c) &&
			!slices.Contains(movable, c) {
			movable = append(movable, c)
		}
	}
	perms := make([]ColorPermutation, copies)
	perms[0] = IdentityColors()
	for k := 1; k < copies; k++ {
		p := IdentityColors()
		targets := slices.Clone(movable)
		for i := len(targets) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			targets[i], targets[j] = targets[j], targets[i]
		}
		for i, c := range movable {
			p[c] = targets[i]
		}
		perms[k] = p
	}
	return perms
}

// NoisyOneHot returns the noisy one-hot encoding of Appendix B.4 ("Robustness to Noise") of a token:
// x_noise = (1-w)·onehot(x) + w·1, a vector of length NumTokens (10 colors and the pad token; the paper
// writes it for its n = 10 categorical values, here the pad token is one more category) whose entries
// sum to 1 + (NumTokens-1)·w. The paper then multiplies it by the embedding matrix W^T; the model
// applies the same formula in-graph, this is the reference for tests and notebooks. It returns an error
// if token is not in 0..10 or w is not in [0, 1] (NaN included).
func NoisyOneHot(token int32, w float64) ([]float64, error) {
	if token < 0 || token >= NumTokens {
		return nil, fmt.Errorf("datasets.NoisyOneHot: token %d outside 0..%d", token, NumTokens-1)
	}
	if math.IsNaN(w) || w < 0 || w > 1 {
		return nil, fmt.Errorf("datasets.NoisyOneHot: noise level w = %g outside [0, 1]", w)
	}
	v := make([]float64, NumTokens)
	for i := range v {
		v[i] = w
	}
	v[token] += 1 - w
	return v, nil
}
