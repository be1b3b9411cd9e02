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

func fastTestBackend(t testing.TB) *gobackend.Backend {
	t.Helper()
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b.(*gobackend.Backend)
}

// fastTestValues fills x with values over e^±9, signed zeros and, when special is set, infinities and NaNs of
// distinct payloads.
func fastTestValues(rng *rand.Rand, x []float32, special bool) {
	for i := range x {
		x[i] = float32(rng.NormFloat64() * math.Exp(rng.Float64()*18-9))
		switch u := rng.IntN(100); {
		case u == 0:
			x[i] = float32(math.Copysign(0, -1))
		case u == 1:
			x[i] = 0
		case special && u == 2:
			x[i] = float32(math.Inf(1 - 2*rng.IntN(2)))
		case special && u == 3:
			x[i] = math.Float32frombits(0x7fc00000 | uint32(rng.IntN(1<<22)))
		}
	}
}

func fastTestBuffer(t testing.TB, b *gobackend.Backend, shape shapes.Shape, flat any) *gobackend.Buffer {
	t.Helper()
	buf, err := b.BufferFromFlatData(0, flat, shape)
	if err != nil {
		t.Fatal(err)
	}
	return buf.(*gobackend.Buffer)
}

// sameFloat32s reports the first index where got and want differ in their bits, -1 if none; with nanEqual,
// two NaNs of different payloads count as the same.
func sameFloat32s(got, want []float32, nanEqual bool) int {
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(nanEqual && got[i] != got[i] && want[i] != want[i]) {
			return i
		}
	}
	return -1
}

// randomDims returns rank random dimensions in 1..maxDim, a third of them 1.
func randomDims(rng *rand.Rand, rank, maxDim int) []int {
	dims := make([]int, rank)
	for i := range dims {
		dims[i] = 1 + rng.IntN(maxDim)
		if rng.IntN(3) == 0 {
			dims[i] = 1
		}
	}
	return dims
}

// TestFastBinaryMatchesGeneric checks Add, Sub, Mul and Div on float32 against the generic executors, bit for
// bit (NaN payloads aside, where two NaNs meet), on 400 random shapes of rank 0 to 5 with every broadcast
// pattern (each operand's axes of size 1 at random), scalars on either side, and the step's shapes; with the
// scalar row kernels and with those in use (AVX2 where the CPU has it).
func TestFastBinaryMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(3, 5))
	type pair = binaryCase
	cases := []pair{
		{[]int{16, 900, 32}, []int{16, 900, 32}}, {[]int{16, 900, 32}, []int{1, 1, 32}}, {[]int{16, 900, 1}, []int{16, 900, 32}},
		{[]int{16, 1, 900, 900}, []int{16, 1, 900, 1}}, {[]int{}, []int{}}, {[]int{7}, []int{1}}, {[]int{1}, []int{9}},
		{[]int{2, 1, 3}, []int{1, 4, 1}}, {[]int{1, 1}, []int{1, 1}},
		// A scalar against a tensor of another rank (Adam's and the layers' constants).
		{[]int{16, 900, 32}, []int{}}, {[]int{}, []int{16, 900, 32}}, {[]int{5}, []int{}}, {[]int{}, []int{3, 1, 4}},
		// Every layout of f32BinaryRows (a value per row on either side, a row for all on either side), with rows
		// of whole vectors, a partial vector only and both: the loss' [16, 900, 11] - [16, 900, 1].
		{[]int{16, 900, 11}, []int{16, 900, 1}}, {[]int{3, 17, 1}, []int{3, 17, 24}}, {[]int{40, 8}, []int{40, 1}},
		{[]int{5, 3}, []int{1, 3}}, {[]int{1, 19}, []int{6, 19}}, {[]int{4, 1, 33}, []int{4, 5, 33}}, {[]int{9, 1}, []int{9, 5}},
	}
	for range 400 {
		rank := rng.IntN(6)
		out := randomDims(rng, rank, 7)
		l, r := slices.Clone(out), slices.Clone(out)
		for i := range out {
			switch rng.IntN(4) {
			case 0:
				l[i] = 1
			case 1:
				r[i] = 1
			}
		}
		cases = append(cases, pair{l, r})
	}
	vectorKernels, vectorRows := f32Kernels, f32BinaryRows
	defer func() { f32Kernels, f32BinaryRows, f32BinaryRowsEnabled = vectorKernels, vectorRows, true }()
	for _, kernels := range []string{"scalar", "in use", "in use, a call per row", "in use, generic rows"} {
		f32Kernels, f32BinaryRows, f32BinaryRowsEnabled = f32ScalarKernels, f32BinaryRowsGeneric, true
		if kernels != "scalar" {
			f32Kernels, f32BinaryRows = vectorKernels, vectorRows
		}
		switch kernels {
		case "in use, a call per row":
			f32BinaryRowsEnabled = false
		case "in use, generic rows":
			f32BinaryRows = f32BinaryRowsGeneric
		}
		testFastBinaryCases(t, b, rng, cases, kernels)
	}
}

type binaryCase struct{ l, r []int }

func testFastBinaryCases(t *testing.T, b *gobackend.Backend, rng *rand.Rand, cases []binaryCase, kernels string) {
	ops := []struct {
		opType        compute.OpType
		generic, fast gobackend.NodeExecutor
	}{
		{compute.OpTypeAdd, execAdd, execAddFast},
		{compute.OpTypeSub, execSub, execSubFast},
		{compute.OpTypeMul, execMul, execMulFast},
		{compute.OpTypeDiv, execDiv, execDivFast},
	}
	for ci, c := range cases {
		outDims := make([]int, len(c.l))
		switch {
		case len(c.l) == 0:
			outDims = slices.Clone(c.r)
		case len(c.r) == 0:
			outDims = slices.Clone(c.l)
		default:
			for i := range outDims {
				outDims[i] = max(c.l[i], c.r[i])
			}
		}
		special := ci%2 == 1
		ls, rs := shapes.Make(dtypes.Float32, c.l...), shapes.Make(dtypes.Float32, c.r...)
		lf, rf := make([]float32, ls.Size()), make([]float32, rs.Size())
		fastTestValues(rng, lf, special)
		fastTestValues(rng, rf, special)
		for _, op := range ops {
			node := &gobackend.Node{OpType: op.opType, Shape: shapes.Make(dtypes.Float32, outDims...)}
			run := func(exec gobackend.NodeExecutor) []float32 {
				inputs := []*gobackend.Buffer{fastTestBuffer(t, b, ls, slices.Clone(lf)), fastTestBuffer(t, b, rs, slices.Clone(rf))}
				out, err := exec(b, node, inputs, []bool{false, false})
				if err != nil {
					t.Fatal(err)
				}
				return out.Flat.([]float32)
			}
			want, got := run(op.generic), run(op.fast)
			if i := sameFloat32s(got, want, true); i >= 0 {
				t.Fatalf("%s kernels, %s %v op %v: output %d: fast %g (%#08x), generic %g (%#08x)", kernels, op.opType, c.l, c.r, i,
					got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}

// TestFastReduceSumMatchesGeneric checks ReduceSum on float32 against the generic executor bit for bit, on 300
// random shapes of rank 1 to 5 and random sets of axes (inner, outer, interleaved, all), and the step's shapes.
func TestFastReduceSumMatchesGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(5, 7))
	type reduceCase struct{ dims, axes []int }
	cases := []reduceCase{
		{[]int{16, 900, 32}, []int{0, 1}}, {[]int{16, 900, 32}, []int{2}}, {[]int{16, 1, 900, 900}, []int{3}},
		{[]int{16, 30, 30, 30, 2}, []int{0, 3}}, {[]int{5}, []int{0}}, {[]int{1, 1}, []int{0, 1}},
		// f32SumRows8: rows of whole tiles, of a partial tile after whole ones, row counts not a multiple of 8,
		// and a reduced axis outside the kept one (the same outputs summed again from their values).
		{[]int{16, 900, 11}, []int{2}}, {[]int{3, 21, 19}, []int{2}}, {[]int{4, 17, 8}, []int{0, 2}}, {[]int{2, 9, 24}, []int{2}},
		// f32SumColumns: rows of 1 to 3 vectors, partial vectors, more than 32 columns.
		{[]int{7, 33, 37}, []int{0, 1}}, {[]int{9, 5}, []int{0}}, {[]int{40, 70}, []int{0}}, {[]int{3, 4, 16}, []int{0, 1}}, {[]int{5, 29}, []int{0}}, {[]int{3, 2, 61}, []int{0, 1}},
	}
	for range 300 {
		dims := randomDims(rng, 1+rng.IntN(5), 9)
		var axes []int
		for a := range dims {
			if rng.IntN(2) == 0 {
				axes = append(axes, a)
			}
		}
		if len(axes) == 0 {
			axes = []int{rng.IntN(len(dims))}
		}
		cases = append(cases, reduceCase{dims, axes})
	}
	for ci, c := range cases {
		shape := shapes.Make(dtypes.Float32, c.dims...)
		x := make([]float32, shape.Size())
		fastTestValues(rng, x, ci%2 == 1)
		var outDims []int
		for a, d := range c.dims {
			if !slices.Contains(c.axes, a) {
				outDims = append(outDims, d)
			}
		}
		node := &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, outDims...), Data: c.axes}
		run := func(exec gobackend.NodeExecutor) []float32 {
			out, err := exec(b, node, []*gobackend.Buffer{fastTestBuffer(t, b, shape, slices.Clone(x))}, []bool{false})
			if err != nil {
				t.Fatal(err)
			}
			return out.Flat.([]float32)
		}
		want := run(execReduce)
		for _, kernels := range []bool{true, false} {
			f32ReduceKernelsEnabled = kernels
			got := run(execReduceSumFast)
			f32ReduceKernelsEnabled = true
			if i := sameFloat32s(got, want, true); i >= 0 {
				t.Fatalf("ReduceSum %v axes %v (row kernels %v): output %d: fast %g (%#08x), generic %g (%#08x)", c.dims, c.axes,
					kernels, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}

// TestFastTransposeAndSliceMatchGeneric checks Transpose and Slice against the generic executors, value for
// value, for float32, float64, int8 and bool, on 300 random shapes each (random permutations; random starts,
// limits and strides).
func TestFastTransposeAndSliceMatchGeneric(t *testing.T) {
	b := fastTestBackend(t)
	rng := rand.New(rand.NewPCG(9, 1))
	for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64, dtypes.Int8, dtypes.Bool} {
		for i := range 300 {
			dims := randomDims(rng, 1+rng.IntN(5), 8)
			if i == 0 {
				dims = []int{16, 900, 32}
			}
			shape := shapes.Make(dtype, dims...)
			flat := randomFlat(rng, dtype, shape.Size())

			perm := rng.Perm(len(dims))
			tDims := make([]int, len(dims))
			for a, p := range perm {
				tDims[a] = dims[p]
			}
			tNode := &gobackend.Node{OpType: compute.OpTypeTranspose, Shape: shapes.Make(dtype, tDims...), Data: perm}

			starts, limits, strides := make([]int, len(dims)), make([]int, len(dims)), make([]int, len(dims))
			sDims := make([]int, len(dims))
			for a, d := range dims {
				starts[a] = rng.IntN(d)
				limits[a] = starts[a] + 1 + rng.IntN(d-starts[a])
				strides[a] = 1
				if rng.IntN(3) == 0 {
					strides[a] = 1 + rng.IntN(3)
				}
				sDims[a] = (limits[a] - starts[a] + strides[a] - 1) / strides[a]
			}
			sNode := &gobackend.Node{OpType: compute.OpTypeSlice, Shape: shapes.Make(dtype, sDims...),
				Data: &sliceNode{starts: starts, limits: limits, strides: strides}}

			for _, c := range []struct {
				node          *gobackend.Node
				generic, fast gobackend.NodeExecutor
			}{{tNode, execTranspose, execTransposeFast}, {sNode, execSlice, execSliceFast}} {
				run := func(exec gobackend.NodeExecutor) any {
					out, err := exec(b, c.node, []*gobackend.Buffer{fastTestBuffer(t, b, shape, flat)}, []bool{false})
					if err != nil {
						t.Fatal(err)
					}
					return out.Flat
				}
				want, got := run(c.generic), run(c.fast)
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Fatalf("%s %s %v (perm %v; slice %v:%v:%v): fast %v, generic %v", c.node.OpType, dtype, dims, perm,
						starts, limits, strides, got, want)
				}
			}
		}
	}
}

func randomFlat(rng *rand.Rand, dtype dtypes.DType, n int) any {
	switch dtype {
	case dtypes.Float32:
		x := make([]float32, n)
		fastTestValues(rng, x, false)
		return x
	case dtypes.Float64:
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		return x
	case dtypes.Int8:
		x := make([]int8, n)
		for i := range x {
			x[i] = int8(rng.IntN(256) - 128)
		}
		return x
	default:
		x := make([]bool, n)
		for i := range x {
			x[i] = rng.IntN(2) == 0
		}
		return x
	}
}

// BenchmarkFastPaths times the generic and the fast executors on the training step's shapes at canvas 30
// (batch 16, n = 900 cells, d = 32): the scores' element-wise product, a bias-like broadcast add, the
// gradient's reduce-sum over the batch and cells and over the last axis, the dense layers' transpose and a
// slice of half the batch. One op, one core.
func BenchmarkFastPaths(b *testing.B) {
	be := fastTestBackend(b)
	rng := rand.New(rand.NewPCG(1, 1))
	f32 := func(dims ...int) (shapes.Shape, []float32) {
		s := shapes.Make(dtypes.Float32, dims...)
		x := make([]float32, s.Size())
		fastTestValues(rng, x, false)
		return s, x
	}
	type benchCase struct {
		name          string
		node          *gobackend.Node
		in            []shapes.Shape
		flats         []any
		generic, fast gobackend.NodeExecutor
	}
	sBig, xBig := f32(16, 1, 900, 900)
	sAct, xAct := f32(16, 900, 32)
	sBias, xBias := f32(1, 1, 32)
	sCol, xCol := f32(16, 900, 1)
	sLogit, xLogit := f32(16, 900, 11)
	sHidden, xHidden := f32(16, 900, 128)
	sFactor, xFactor := f32(16, 1, 30, 30)
	cases := []benchCase{
		{"Max_16x900x128_scalar", &gobackend.Node{OpType: compute.OpTypeMax, Shape: sHidden}, []shapes.Shape{sHidden, shapes.Make(dtypes.Float32)},
			[]any{xHidden, []float32{0}}, execMax, execMaxFast},
		{"Sign_16x900x128", &gobackend.Node{OpType: compute.OpTypeSign, Shape: sHidden}, []shapes.Shape{sHidden},
			[]any{xHidden}, execSign, execSignFast},
		{"BroadcastInDim_16x1x30x30_to_16x30x30x30", &gobackend.Node{OpType: compute.OpTypeBroadcastInDim,
			Shape: shapes.Make(dtypes.Float32, 16, 30, 30, 30), Data: []int{0, 1, 2, 3}}, []shapes.Shape{sFactor},
			[]any{xFactor}, execBroadcastInDim, execBroadcastInDimFast},
		{"Div_16x900x32/16x900x1", &gobackend.Node{OpType: compute.OpTypeDiv, Shape: sAct}, []shapes.Shape{sAct, sCol},
			[]any{xAct, xCol}, execDiv, execDivFast},
		{"Mul_16x900x1*16x900x32", &gobackend.Node{OpType: compute.OpTypeMul, Shape: sAct}, []shapes.Shape{sCol, sAct},
			[]any{xCol, xAct}, execMul, execMulFast},
		{"Sub_16x900x11-16x900x1", &gobackend.Node{OpType: compute.OpTypeSub, Shape: sLogit}, []shapes.Shape{sLogit, sCol},
			[]any{xLogit, xCol}, execSub, execSubFast},
		{"Mul_16x900x32*16x900x32", &gobackend.Node{OpType: compute.OpTypeMul, Shape: sAct}, []shapes.Shape{sAct, sAct},
			[]any{xAct, xAct}, execMul, execMulFast},
		{"Mul_16x1x900x900", &gobackend.Node{OpType: compute.OpTypeMul, Shape: sBig}, []shapes.Shape{sBig, sBig},
			[]any{xBig, xBig}, execMul, execMulFast},
		{"Add_16x900x32+1x1x32", &gobackend.Node{OpType: compute.OpTypeAdd, Shape: sAct}, []shapes.Shape{sAct, sBias},
			[]any{xAct, xBias}, execAdd, execAddFast},
		{"ReduceSum_16x900x32_axes01", &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, 32), Data: []int{0, 1}},
			[]shapes.Shape{sAct}, []any{xAct}, execReduce, execReduceSumFast},
		{"ReduceSum_16x900x32_axis2", &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, 16, 900), Data: []int{2}},
			[]shapes.Shape{sAct}, []any{xAct}, execReduce, execReduceSumFast},
		{"ReduceSum_16x900x11_axis2", &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, 16, 900), Data: []int{2}},
			[]shapes.Shape{sLogit}, []any{xLogit}, execReduce, execReduceSumFast},
		{"ReduceSum_16x1x900x900_axis3", &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, 16, 1, 900), Data: []int{3}},
			[]shapes.Shape{sBig}, []any{xBig}, execReduce, execReduceSumFast},
		{"Transpose_16x900x32_to_16x32x900", &gobackend.Node{OpType: compute.OpTypeTranspose, Shape: shapes.Make(dtypes.Float32, 16, 32, 900), Data: []int{0, 2, 1}},
			[]shapes.Shape{sAct}, []any{xAct}, execTranspose, execTransposeFast},
		{"Slice_16x900x32_first8", &gobackend.Node{OpType: compute.OpTypeSlice, Shape: shapes.Make(dtypes.Float32, 8, 900, 32),
			Data: &sliceNode{starts: []int{0, 0, 0}, limits: []int{8, 900, 32}, strides: []int{1, 1, 1}}},
			[]shapes.Shape{sAct}, []any{xAct}, execSlice, execSliceFast},
	}
	for _, c := range cases {
		inputs := make([]*gobackend.Buffer, len(c.in))
		for i := range c.in {
			inputs[i] = fastTestBuffer(b, be, c.in[i], c.flats[i])
		}
		owned := make([]bool, len(inputs))
		for _, impl := range []string{"generic", "fast"} {
			exec := c.generic
			if impl == "fast" {
				exec = c.fast
			}
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				for b.Loop() {
					out, err := exec(be, c.node, slices.Clone(inputs), owned)
					if err != nil {
						b.Fatal(err)
					}
					be.PutBuffer(out)
				}
			})
		}
	}
}
