// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestEqualFastMatchesGeneric: Equal of int32 one-hot broadcasts ([..., n, 1] == [1, ..., 1, c], LatFormer's
// [16, 900, 1] == [1, 1, 11] among them) and of shapes the fast path must leave to the generic executor (the
// operands swapped, same shapes, a scalar, float32) gives the generic executor's outputs, with values that match
// in about one comparison of three.
func TestEqualFastMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(9, 2))
	cases := [][2][]int{{{16, 900, 1}, {1, 1, 11}}, {{5, 1}, {1, 7}}, {{1}, {4}}, {{3, 2, 1}, {1, 1, 1}},
		{{1, 1, 11}, {16, 900, 1}}, {{4, 3}, {4, 3}}, {{}, {}}, {{2, 5, 1}, {1, 5, 3}}}
	for _, dtype := range []dtypes.DType{dtypes.Int32, dtypes.Float32} {
		for _, c := range cases {
			out := make([]int, len(c[0]))
			for i := range out {
				out[i] = max(c[0][i], c[1][i])
			}
			mk := func(dims []int) *gobackend.Buffer {
				shape := shapes.Make(dtype, dims...)
				switch dtype {
				case dtypes.Int32:
					x := make([]int32, shape.Size())
					for i := range x {
						x[i] = int32(rng.IntN(3))
					}
					return fastTestBuffer(t, b, shape, x)
				default:
					x := make([]float32, shape.Size())
					for i := range x {
						x[i] = float32(rng.IntN(3))
					}
					return fastTestBuffer(t, b, shape, x)
				}
			}
			l, r := mk(c[0]), mk(c[1])
			node := &gobackend.Node{OpType: compute.OpTypeEqual, Shape: shapes.Make(dtypes.Bool, out...)}
			run := func(exec gobackend.NodeExecutor) string {
				o, err := exec(b, node, []*gobackend.Buffer{l, r}, []bool{false, false})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(o.Flat)
			}
			if want, got := run(execEqual), run(execEqualFast); want != got {
				t.Fatalf("Equal %s %v == %v: fast %s, generic %s", dtype, c[0], c[1], got, want)
			}
		}
	}
}

// BenchmarkEqualOneHot: LatFormer's one-hot, [16, 900, 1] == [1, 1, 11] int32, by rows and by the generic executor.
func BenchmarkEqualOneHot(bm *testing.B) {
	b := fastTestBackend(bm)
	a := make([]int32, 16*900)
	for i := range a {
		a[i] = int32(i % 11)
	}
	c := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	l := fastTestBuffer(bm, b, shapes.Make(dtypes.Int32, 16, 900, 1), a)
	r := fastTestBuffer(bm, b, shapes.Make(dtypes.Int32, 1, 1, 11), c)
	node := &gobackend.Node{OpType: compute.OpTypeEqual, Shape: shapes.Make(dtypes.Bool, 16, 900, 11)}
	for _, fast := range []bool{false, true} {
		bm.Run(fmt.Sprintf("rows=%v", fast), func(bm *testing.B) {
			exec := execEqual
			if fast {
				exec = execEqualFast
			}
			for bm.Loop() {
				o, err := exec(b, node, []*gobackend.Buffer{l, r}, []bool{false, false})
				if err != nil {
					bm.Fatal(err)
				}
				b.PutBuffer(o)
			}
		})
	}
}
