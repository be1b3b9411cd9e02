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

// TestFastBroadcastInDimMatchesGeneric: BroadcastInDim by rows against the generic executor on random
// broadcasts of rank 0 to 5 (new axes anywhere, operand axes of size 1 broadcast), for float32, float64,
// int8 and bool, and on the training step's shapes (a per-axis factor [16, 30, 30] broadcast over the rows,
// a scalar, a bias).
func TestFastBroadcastInDimMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(21, 4))
	type bcase struct {
		in, out []int
		axes    []int
	}
	fixed := []bcase{
		{[]int{16, 1, 30, 30}, []int{16, 30, 30, 30}, []int{0, 1, 2, 3}},
		{[]int{16, 30, 30}, []int{16, 30, 30, 30}, []int{0, 2, 3}},
		{[]int{}, []int{16, 900, 128}, []int{}},
		{[]int{32}, []int{16, 900, 32}, []int{2}},
		{[]int{16, 900}, []int{16, 900, 11}, []int{0, 1}},
		{[]int{1}, []int{7}, []int{0}},
	}
	for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64, dtypes.Int8, dtypes.Bool} {
		cases := slices.Clone(fixed)
		for range 300 {
			out := randomDims(rng, rng.IntN(6), 6)
			var in, axes []int
			for a, d := range out {
				switch rng.IntN(3) {
				case 0: // a new axis
				case 1: // broadcast from size 1
					in, axes = append(in, 1), append(axes, a)
				default:
					in, axes = append(in, d), append(axes, a)
				}
			}
			cases = append(cases, bcase{in, out, axes})
		}
		for _, c := range cases {
			inShape := shapes.Make(dtype, c.in...)
			flat := randomFlat(rng, dtype, inShape.Size())
			node := &gobackend.Node{OpType: compute.OpTypeBroadcastInDim, Shape: shapes.Make(dtype, c.out...), Data: c.axes}
			run := func(exec gobackend.NodeExecutor) any {
				o, err := exec(b, node, []*gobackend.Buffer{fastTestBuffer(t, b, inShape, flat)}, []bool{false})
				if err != nil {
					t.Fatal(err)
				}
				return o.Flat
			}
			if want, got := run(execBroadcastInDim), run(execBroadcastInDimFast); fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("BroadcastInDim %s %v -> %v (axes %v): fast %v, generic %v", dtype, c.in, c.out, c.axes, got, want)
			}
		}
	}
}

// TestFastSignMatchesGeneric: Sign of float32 against the generic executor bit for bit (1, -1 and +0 for
// ±0 and NaN), with the scalar and the vectorized kernel, on lengths 0 to 40 and the step's [16, 900, 128]
// (row tails of every length), values with infinities, NaNs and signed zeros.
func TestFastSignMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(3, 8))
	vector := f32Sign
	defer func() { f32Sign = vector }()
	for _, kernel := range []string{"scalar", "vector"} {
		f32Sign = vector
		if kernel == "scalar" {
			f32Sign = f32SignScalar
		}
		sizes := []int{16 * 900 * 128}
		for n := range 41 {
			sizes = append(sizes, n)
		}
		for _, n := range sizes {
			x := make([]float32, n)
			fastTestValues(rng, x, true)
			for i := range x {
				switch rng.IntN(8) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				}
			}
			shape := shapes.Make(dtypes.Float32, n)
			node := &gobackend.Node{OpType: compute.OpTypeSign, Shape: shape}
			run := func(exec gobackend.NodeExecutor) []float32 {
				o, err := exec(b, node, []*gobackend.Buffer{fastTestBuffer(t, b, shape, slices.Clone(x))}, []bool{false})
				if err != nil {
					t.Fatal(err)
				}
				return o.Flat.([]float32)
			}
			want, got := run(execSign), run(execSignFast)
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
					t.Fatalf("%s Sign, %d values: value %d (%g): fast %g, generic %g", kernel, n, i, x[i], got[i], want[i])
				}
			}
		}
	}
}

// TestFastMaxMatchesGeneric: Max of float32 against the generic executor bit for bit, NaN payloads and signed
// zeros included (both follow Go's max), with the scalar and the vectorized kernels: a tensor and a single value
// on either side (ReLU's max(x, 0)), two tensors of the same shape, lengths 0 to 40 and [16, 900, 128].
func TestFastMaxMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(5, 9))
	vs, vv := f32MaxVS, f32MaxVV
	defer func() { f32MaxVS, f32MaxVV = vs, vv }()
	special := func(x []float32) {
		fastTestValues(rng, x, true)
		for i := range x {
			switch rng.IntN(10) {
			case 0:
				x[i] = 0
			case 1:
				x[i] = float32(math.Copysign(0, -1))
			case 2:
				x[i] = math.Float32frombits(0xffc00000 | uint32(rng.IntN(1<<22))) // a negative NaN
			case 3:
				x[i] = math.Float32frombits(0x7fc00000 | uint32(rng.IntN(1<<22)))
			}
		}
	}
	for _, kernel := range []string{"scalar", "vector"} {
		f32MaxVS, f32MaxVV = vs, vv
		if kernel == "scalar" {
			f32MaxVS = func(dst, a, c []float32) {
				dst, v := dst[:len(a)], c[0]
				for i, x := range a {
					dst[i] = max(x, v)
				}
			}
			f32MaxVV = func(dst, a, b []float32) {
				dst, b = dst[:len(a)], b[:len(a)]
				for i, x := range a {
					dst[i] = max(x, b[i])
				}
			}
		}
		sizes := []int{16 * 900 * 128}
		for n := range 41 {
			sizes = append(sizes, n)
		}
		for _, n := range sizes {
			x, y := make([]float32, n), make([]float32, n)
			special(x)
			special(y)
			one := make([]float32, 1)
			for _, c := range []float32{0, float32(math.Copysign(0, -1)), 0.5, math.Float32frombits(0x7fc00123), math.Float32frombits(0xffc00456)} {
				one[0] = c
				shape, single := shapes.Make(dtypes.Float32, n), shapes.Make(dtypes.Float32)
				for _, operands := range [][2]any{{x, one[:1]}, {one[:1], x}, {x, y}} {
					ls, rs := shape, shape
					if len(operands[0].([]float32)) == 1 && n != 1 {
						ls = single
					}
					if len(operands[1].([]float32)) == 1 && n != 1 {
						rs = single
					}
					node := &gobackend.Node{OpType: compute.OpTypeMax, Shape: shape}
					run := func(exec gobackend.NodeExecutor) []float32 {
						o, err := exec(b, node, []*gobackend.Buffer{
							fastTestBuffer(t, b, ls, slices.Clone(operands[0].([]float32))),
							fastTestBuffer(t, b, rs, slices.Clone(operands[1].([]float32)))}, []bool{false, false})
						if err != nil {
							t.Fatal(err)
						}
						return o.Flat.([]float32)
					}
					want, got := run(execMax), run(execMaxFast)
					for i := range want {
						if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
							t.Fatalf("%s Max %s x %s, value %d: fast %08x, generic %08x", kernel, ls, rs, i,
								math.Float32bits(got[i]), math.Float32bits(want[i]))
						}
					}
				}
			}
		}
	}
}
