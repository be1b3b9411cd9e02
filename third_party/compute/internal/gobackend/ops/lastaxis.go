// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

// Fast paths for ReduceMax and ArgMinMax of float32 along the last axis (a classifier's logits: LatFormer's loss and
// accuracy over [16, 900, 11] at canvas 30). The generic executors walk the values through an index iterator
// (ReduceMax) or keep a buffer of the best values and call a copy function per output (ArgMinMax), 5-6 ns a value;
// here each row is a plain loop with the same comparisons in the same order, so the same results: ReduceMax
// starts from the dtype's lowest value and takes max(best, value) value by value (Go's max: a NaN wins, +0 above -0,
// as the generic code), ArgMinMax starts from the row's first value and moves to a later one where it compares
// strictly better or is a NaN. Other dtypes, axes and output dtypes go to the generic executors.

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeReduceMax, gobackend.PriorityTyped, execReduceMaxLastAxis)
	gobackend.SetNodeExecutor(compute.OpTypeArgMinMax, gobackend.PriorityTyped, execArgMinMaxLastAxis)
}

// execReduceMaxLastAxis is ReduceMax of float32 over the last axis alone, by rows.
func execReduceMaxLastAxis(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	axes, _ := node.Data.([]int)
	rank := operand.RawShape.Rank()
	if operand.RawShape.DType != dtypes.Float32 || len(axes) != 1 || rank == 0 || axes[0] != rank-1 || node.Shape.IsDynamic() {
		return execReduce(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	x, out := operand.Flat.([]float32), output.Flat.([]float32)
	rowLen := operand.RawShape.Dimensions[rank-1]
	lowest := dtypes.Float32.LowestValue().(float32)
	for r := range out {
		best := lowest
		for _, v := range x[r*rowLen : (r+1)*rowLen] {
			best = max(best, v)
		}
		out[r] = best
	}
	return output, nil
}

// execArgMinMaxLastAxis is ArgMinMax of float32 over the last axis into int32, by rows.
func execArgMinMaxLastAxis(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	data := node.Data.(*argMinMaxNode)
	rank := operand.RawShape.Rank()
	if operand.RawShape.DType != dtypes.Float32 || node.Shape.DType != dtypes.Int32 || rank == 0 || data.axis != rank-1 ||
		operand.RawShape.Dimensions[rank-1] == 0 || operand.RawShape.Dimensions[rank-1] >= MaxArgMinMaxReductionSize || node.Shape.IsDynamic() {
		return execArgMinMax(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	x, out := operand.Flat.([]float32), output.Flat.([]int32)
	rowLen := operand.RawShape.Dimensions[rank-1]
	for r := range out {
		row := x[r*rowLen : (r+1)*rowLen]
		best, arg := row[0], int32(0)
		if data.isMin {
			for j := 1; j < len(row); j++ {
				if v := row[j]; v < best || v != v {
					best, arg = v, int32(j)
				}
			}
		} else {
			for j := 1; j < len(row); j++ {
				if v := row[j]; v > best || v != v {
					best, arg = v, int32(j)
				}
			}
		}
		out[r] = arg
	}
	return output, nil
}
