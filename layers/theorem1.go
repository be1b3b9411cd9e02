// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/lattice"
)

// Theorem1Check is the outcome of checking Theorem 1 for one action: the largest absolute difference
// between MaskedAttention(X; M_g) (with Q = K = V = X) and g applied to X.
type Theorem1Check struct {
	Action lattice.Action
	MaxErr float64
}

// CheckTheorem1 checks Theorem 1 (Existence) numerically on a lattice with the given dims: for each
// action, a random X (n x feat, seeded) goes through MaskedAttentionCore with Q = K = V = X and the mask
// M_g, and the output is compared with g·X computed by coordinate arithmetic (lattice.Action.Apply).
// Down-scaling, which is not a permutation, is checked on up-scaled inputs, where it is the exact left
// inverse of up-scaling.
func CheckTheorem1(
	backend compute.Backend, dims []int, actions []lattice.Action, feat int, seed uint64,
) ([]Theorem1Check, error) {
	rng := rand.New(rand.NewPCG(seed, 0x7e0))
	n := 1
	for _, l := range dims {
		n *= l
	}
	exec, err := NewExec(backend, func(x, mask *Node) *Node {
		x4 := ExpandAxes(x, 1) // [1, 1, n, feat]
		return Squeeze(MaskedAttentionCore(x4, x4, x4, mask), 1)
	})
	if err != nil {
		return nil, err
	}
	var checks []Theorem1Check
	for _, action := range actions {
		x := make([]float64, n*feat)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		if down, ok := action.(lattice.Downscale); ok {
			if x, err = (lattice.Upscale{Factors: down.Factors}).Apply(dims, x, feat); err != nil {
				return nil, fmt.Errorf("%v: %w", action, err)
			}
		}
		want, err := action.Apply(dims, x, feat)
		if err != nil {
			return nil, fmt.Errorf("%v.Apply(%v): %w", action, dims, err)
		}
		m, err := action.Mask(dims)
		if err != nil {
			return nil, fmt.Errorf("%v.Mask(%v): %w", action, dims, err)
		}
		xt := tensors.FromShape(shapes.Make(dtypes.Float32, 1, n, feat))
		tensors.MustMutableFlatData[float32](xt, func(f []float32) {
			for i, v := range x {
				f[i] = float32(v)
			}
		})
		outs, err := exec.Call(xt, experts.MatrixTensor(m))
		if err != nil {
			return nil, err
		}
		got := tensors.MustCopyFlatData[float32](outs[0])
		maxErr := 0.0
		for i := range want {
			maxErr = max(maxErr, math.Abs(float64(got[i])-want[i]))
		}
		checks = append(checks, Theorem1Check{Action: action, MaxErr: maxErr})
	}
	return checks, nil
}
