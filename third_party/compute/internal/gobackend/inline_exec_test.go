// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend_test

import (
	"math"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	_ "github.com/gomlx/compute/internal/gobackend/ops"
	"github.com/gomlx/compute/shapes"
)

// TestInlineNodesSameValues: a graph of many small nodes (run inline by the parallel executor) mixed with large
// ones (run as pool tasks) gives the same values with inlining on and off and with the sequential executor, 20
// executions each.
func TestInlineNodesSameValues(t *testing.T) {
	defer func(v int) { gobackend.InlineNodeMaxElements = v }(gobackend.InlineNodeMaxElements)
	run := func(config string, inline int) [][]float32 {
		gobackend.InlineNodeMaxElements = inline
		backend, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		defer backend.Finalize()
		builder := backend.Builder("inline").(*gobackend.Builder)
		main := builder.Main().(*gobackend.Function)
		smallShape, bigShape := shapes.Make(dtypes.Float32, 8, 8), shapes.Make(dtypes.Float32, 96, 96)
		x, _ := main.Parameter("x", smallShape, nil)
		y, _ := main.Parameter("y", bigShape, nil)
		a, b := x, y
		for i := range 60 {
			// Two independent chains, one small, one large, crossing every 10 nodes.
			if i%2 == 0 {
				a, _ = main.Add(a, x)
				b, _ = main.Mul(b, y)
			} else {
				a, _ = main.Sub(a, x)
				b, _ = main.Add(b, y)
			}
			if i%10 == 9 {
				s, _ := main.ReduceSum(b, 0, 1)
				a, _ = main.Add(a, s)
			}
		}
		_ = main.Return([]compute.Value{a, b}, nil)
		exec, err := builder.Compile()
		if err != nil {
			t.Fatal(err)
		}
		xs, ys := make([]float32, smallShape.Size()), make([]float32, bigShape.Size())
		for i := range xs {
			xs[i] = float32(i%7) / 7
		}
		for i := range ys {
			ys[i] = 1 + float32(i%5)/1000
		}
		var first [][]float32
		for range 20 {
			xb, _ := backend.BufferFromFlatData(0, xs, smallShape)
			yb, _ := backend.BufferFromFlatData(0, ys, bigShape)
			outs, err := exec.Execute([]compute.Buffer{xb, yb}, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := [][]float32{outs[0].(*gobackend.Buffer).Flat.([]float32), outs[1].(*gobackend.Buffer).Flat.([]float32)}
			if first == nil {
				first = got
				continue
			}
			compareFloats(t, config+" (again)", got, first)
		}
		return first
	}
	want := run("ops_sequential", 0)
	compareFloats(t, "parallel, inline off", run("ops_parallel,parallelism=-1", 0), want)
	compareFloats(t, "parallel, inline on", run("ops_parallel,parallelism=-1", 4096), want)
	compareFloats(t, "parallel, everything inline", run("ops_parallel,parallelism=-1", 1<<30), want)
}

func compareFloats(t *testing.T, name string, got, want [][]float32) {
	t.Helper()
	for o := range want {
		for i := range want[o] {
			if math.Float32bits(got[o][i]) != math.Float32bits(want[o][i]) {
				t.Fatalf("%s: output %d value %d = %v, want %v", name, o, i, got[o][i], want[o][i])
			}
		}
	}
}
