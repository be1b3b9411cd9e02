// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"fmt"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/lattice"
)

// ExpertMasks are host-side results of EvaluateLogits for a batch of gate logits.
type ExpertMasks struct {
	// Masks are the dense n x n masks (plain or smoothed), one per example.
	Masks []*lattice.Matrix
	// Rows and Cols are the per-axis l x l masks of the first term (no rotation applied): A_rows, A_cols.
	Rows, Cols []*lattice.Matrix
	// Gates are the gate values, and Actions the group elements they select when discretized.
	Gates   []GateValues
	Actions []lattice.Action
}

// EvaluateLogits computes, outside any model, what the expert produces for gate logits
// [batch][NumGates()]: masks, per-axis masks, gates and actions. hard discretizes the gates, and
// smoothed gives Section 4.2's smoothed mask. Notebooks, figures and tests use it.
func (e Expert) EvaluateLogits(backend compute.Backend, logits [][]float32, hard, smoothed bool) (*ExpertMasks, error) {
	for i, l := range logits {
		if len(l) != e.NumGates() {
			return nil, fmt.Errorf("logits[%d] has %d values, the expert has %d gates", i, len(l), e.NumGates())
		}
	}
	outs, err := ExecOnceN(backend, func(l *Node) []*Node {
		gates := e.GatesFromLogits(l, hard)
		var lm *LatticeMask
		if smoothed {
			lm = e.SmoothedMask(gates)
		} else {
			lm = e.Mask(gates)
		}
		return append([]*Node{lm.Dense(), lm.Terms[0].Row, lm.Terms[0].Col}, gates.GateTensors()...)
	}, logits)
	if err != nil {
		return nil, err
	}
	toMatrices := func(t *tensors.Tensor) []*lattice.Matrix {
		dims := t.Shape().Dimensions
		flat := tensors.MustCopyFlatData[float32](t)
		size := dims[1] * dims[2]
		ms := make([]*lattice.Matrix, dims[0])
		for b := range ms {
			ms[b] = lattice.NewMatrix(dims[1], dims[2])
			for i := range size {
				ms[b].Data[i] = float64(flat[b*size+i])
			}
		}
		return ms
	}
	res := &ExpertMasks{Masks: toMatrices(outs[0]), Rows: toMatrices(outs[1]), Cols: toMatrices(outs[2])}
	if res.Gates, err = e.DecodeGates(outs[3:]); err != nil {
		return nil, err
	}
	for _, g := range res.Gates {
		res.Actions = append(res.Actions, e.Action(g))
	}
	return res, nil
}
