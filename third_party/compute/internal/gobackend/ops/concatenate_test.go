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

// TestConcatenateWordsMatchesCopies: Concatenate with small blocks copied word by word (concatWords32) against
// one copy per block, on random shapes of rank 1 to 5 with 1 to 4 inputs along every axis, for float32,
// float64, int8 and bool (blocks of 1 to 3 bytes keep the copies), and on LatFormer's factors (two
// [16, 30, 30, 30, 1] along the last axis).
func TestConcatenateWordsMatchesCopies(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(5, 9))
	defer func() { concatWordsEnabled = true }()
	type ccase struct {
		dims [][]int
		axis int
	}
	var cases []ccase
	cases = append(cases, ccase{[][]int{{16, 30, 30, 30, 1}, {16, 30, 30, 30, 1}}, 4}, ccase{[][]int{{3, 1}, {3, 2}, {3, 5}}, 1})
	for range 300 {
		rank := 1 + rng.IntN(5)
		base := randomDims(rng, rank, 5)
		for i := range base {
			base[i] = max(base[i], 1)
		}
		axis := rng.IntN(rank)
		var dims [][]int
		for range 1 + rng.IntN(4) {
			d := append([]int(nil), base...)
			d[axis] = 1 + rng.IntN(4)
			dims = append(dims, d)
		}
		cases = append(cases, ccase{dims, axis})
	}
	for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64, dtypes.Int8, dtypes.Bool} {
		for _, c := range cases {
			var inputs []*gobackend.Buffer
			outDims := append([]int(nil), c.dims[0]...)
			outDims[c.axis] = 0
			for _, d := range c.dims {
				shape := shapes.Make(dtype, d...)
				inputs = append(inputs, fastTestBuffer(t, b, shape, randomFlat(rng, dtype, shape.Size())))
				outDims[c.axis] += d[c.axis]
			}
			node := &gobackend.Node{OpType: compute.OpTypeConcatenate, Shape: shapes.Make(dtype, outDims...), Data: c.axis}
			run := func(words bool) any {
				concatWordsEnabled = words
				o, err := execConcatenate(b, node, inputs, make([]bool, len(inputs)))
				if err != nil {
					t.Fatal(err)
				}
				return o.Flat
			}
			if want, got := run(false), run(true); fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("Concatenate %s %v along %d: words %v, copies %v", dtype, c.dims, c.axis, got, want)
			}
		}
	}
}

// BenchmarkConcatenateFactors: LatFormer's factors at canvas 30, two [16, 30, 30, 30, 1] along the last axis,
// copied word by word ("words") and with a copy per value ("copies").
func BenchmarkConcatenateFactors(b *testing.B) {
	be := fastTestBackend(b)
	rng := rand.New(rand.NewPCG(1, 2))
	shape := shapes.Make(dtypes.Float32, 16, 30, 30, 30, 1)
	inputs := []*gobackend.Buffer{fastTestBuffer(b, be, shape, randomFlat(rng, dtypes.Float32, shape.Size())),
		fastTestBuffer(b, be, shape, randomFlat(rng, dtypes.Float32, shape.Size()))}
	node := &gobackend.Node{OpType: compute.OpTypeConcatenate, Shape: shapes.Make(dtypes.Float32, 16, 30, 30, 30, 2), Data: 4}
	defer func() { concatWordsEnabled = true }()
	for _, words := range []bool{false, true} {
		name := "copies"
		if words {
			name = "words"
		}
		b.Run(name, func(b *testing.B) {
			concatWordsEnabled = words
			for b.Loop() {
				o, err := execConcatenate(be, node, inputs, []bool{false, false})
				if err != nil {
					b.Fatal(err)
				}
				be.PutBuffer(o)
			}
		})
	}
}
