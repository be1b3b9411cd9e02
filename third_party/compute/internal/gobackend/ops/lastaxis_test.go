// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestLastAxisMatchesGeneric checks ReduceMax and ArgMinMax (min and max) of float32 over the last axis against the
// generic executors, bit for bit (NaN payloads included), on the loss' [16, 900, 11] and random shapes, with
// ties (values drawn from a few), signed zeros, infinities and NaNs; and that other axes still give the generic
// results through the fast executors.
func TestLastAxisMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(8, 9))
	cases := [][]int{{16, 900, 11}, {1}, {7}, {3, 1}, {2, 3, 4}}
	for range 100 {
		cases = append(cases, randomDims(rng, 1+rng.IntN(4), 9))
	}
	for ci, dims := range cases {
		shape := shapes.Make(dtypes.Float32, dims...)
		x := make([]float32, shape.Size())
		fastTestValues(rng, x, ci%2 == 1)
		if ci%3 == 2 {
			for i := range x { // ties
				x[i] = float32(rng.IntN(3)) - 1
				if rng.IntN(5) == 0 {
					x[i] = float32(math.Copysign(0, -1))
				}
			}
		}
		rank := len(dims)
		for axis := range rank {
			var outDims []int
			for a, d := range dims {
				if a != axis {
					outDims = append(outDims, d)
				}
			}
			in := []*gobackend.Buffer{fastTestBuffer(t, b, shape, slices.Clone(x))}
			run := func(exec gobackend.NodeExecutor, node *gobackend.Node) string {
				out, err := exec(b, node, slices.Clone(in), []bool{false})
				if err != nil {
					t.Fatal(err)
				}
				if f, ok := out.Flat.([]float32); ok {
					bits := make([]uint32, len(f))
					for i, v := range f {
						bits[i] = math.Float32bits(v)
					}
					return fmt.Sprint(bits)
				}
				return fmt.Sprint(out.Flat)
			}
			maxNode := &gobackend.Node{OpType: compute.OpTypeReduceMax, Shape: shapes.Make(dtypes.Float32, outDims...), Data: []int{axis}}
			if run(execReduce, maxNode) != run(execReduceMaxLastAxis, maxNode) {
				t.Fatalf("ReduceMax %v axis %d differs from the generic executor", dims, axis)
			}
			for _, isMin := range []bool{false, true} {
				node := &gobackend.Node{OpType: compute.OpTypeArgMinMax, Shape: shapes.Make(dtypes.Int32, outDims...),
					Data: &argMinMaxNode{axis: axis, isMin: isMin}}
				if run(execArgMinMax, node) != run(execArgMinMaxLastAxis, node) {
					t.Fatalf("ArgMinMax(min=%v) %v axis %d differs from the generic executor", isMin, dims, axis)
				}
			}
		}
	}
}

// BenchmarkLastAxis times ReduceMax and ArgMax of the loss logits at canvas 30 ([16, 900, 11] over the last axis),
// generic and fast. One core.
func BenchmarkLastAxis(bm *testing.B) {
	b := fastTestBackend(bm)
	rng := rand.New(rand.NewPCG(1, 1))
	shape := shapes.Make(dtypes.Float32, 16, 900, 11)
	x := make([]float32, shape.Size())
	fastTestValues(rng, x, false)
	in := []*gobackend.Buffer{fastTestBuffer(bm, b, shape, x)}
	maxNode := &gobackend.Node{OpType: compute.OpTypeReduceMax, Shape: shapes.Make(dtypes.Float32, 16, 900), Data: []int{2}}
	argNode := &gobackend.Node{OpType: compute.OpTypeArgMinMax, Shape: shapes.Make(dtypes.Int32, 16, 900), Data: &argMinMaxNode{axis: 2}}
	for _, c := range []struct {
		name string
		node *gobackend.Node
		exec gobackend.NodeExecutor
	}{{"ReduceMax/generic", maxNode, execReduce}, {"ReduceMax/fast", maxNode, execReduceMaxLastAxis},
		{"ArgMax/generic", argNode, execArgMinMax}, {"ArgMax/fast", argNode, execArgMinMaxLastAxis}} {
		bm.Run(c.name, func(bm *testing.B) {
			for bm.Loop() {
				out, err := c.exec(b, c.node, slices.Clone(in), []bool{false})
				if err != nil {
					bm.Fatal(err)
				}
				b.PutBuffer(out)
			}
		})
	}
}
