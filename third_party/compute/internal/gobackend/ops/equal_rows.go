// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeEqual, gobackend.PriorityTyped, execEqualFast)
}

// execEqualFast is Equal of two int32 operands of the same rank where the left one has size 1 on the last axis
// and the right one size 1 on every other axis ([..., n, 1] == [1, ..., 1, c] -> [..., n, c]: a one-hot, as
// GoMLX's OneHot builds it for a loss): each row compares one left value with the c right values, in two plain
// loops. The generic executor walks every output value through a broadcast index iterator (5 ns a value for
// LatFormer's [16, 900, 1] == [1, 1, 11]). Other shapes and dtypes take the generic executor.
func execEqualFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	lhs, rhs := inputs[0], inputs[1]
	if !equalRowsEnabled || lhs.RawShape.DType != dtypes.Int32 || rhs.RawShape.DType != dtypes.Int32 || node.Shape.IsDynamic() ||
		!isOneHotBroadcast(lhs.RawShape.Dimensions, rhs.RawShape.Dimensions, node.Shape.Dimensions) {
		return execEqual(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	a, b, out := lhs.Flat.([]int32), rhs.Flat.([]int32), output.Flat.([]bool)
	c := len(b)
	for r, x := range a {
		row := out[r*c : (r+1)*c]
		for j, y := range b {
			row[j] = x == y
		}
	}
	return output, nil
}

// equalRowsEnabled lets execEqualFast take the one-hot broadcasts (false: the generic executor, for the tests).
var equalRowsEnabled = true

// isOneHotBroadcast reports whether a [..., n, 1] and b [1, ..., 1, c] broadcast to out [..., n, c] (the same rank).
func isOneHotBroadcast(a, b, out []int) bool {
	rank := len(out)
	if rank == 0 || len(a) != rank || len(b) != rank || a[rank-1] != 1 || b[rank-1] != out[rank-1] {
		return false
	}
	for i := range rank - 1 {
		if a[i] != out[i] || b[i] != 1 {
			return false
		}
	}
	return true
}
