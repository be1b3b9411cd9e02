// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// unlimitedTestBackend is a Go backend whose worker pool is unlimited (parallelism=-1, this project's default), the
// only kind gobackend.ParallelRange splits work on.
func unlimitedTestBackend(t testing.TB) *gobackend.Backend {
	t.Helper()
	b, err := gobackend.New("parallelism=-1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b.(*gobackend.Backend)
}

// TestParallelRange checks that gobackend.ParallelRange covers [0, n) exactly once with ranges starting at
// multiples of align, on the calling goroutine below 2*minPerWorker and split (on an unlimited pool with 2 or
// more cores) above it, and never split on a bounded pool (the executor's deadlock: see ParallelRange).
func TestParallelRange(t *testing.T) {
	b := unlimitedTestBackend(t)
	workers := b.Workers.AdjustedMaxParallelism()
	for _, n := range []int{0, 1, 63, 64, 1000, 1<<20 + 3} {
		for _, align := range []int{1, 4, 64} {
			for _, minPer := range []int{1, 100, 1 << 18} {
				var mu sync.Mutex
				var ranges [][2]int
				gobackend.ParallelRange(b, n, align, minPer, func(lo, hi int) {
					mu.Lock()
					ranges = append(ranges, [2]int{lo, hi})
					mu.Unlock()
				})
				slices.SortFunc(ranges, func(x, y [2]int) int { return x[0] - y[0] })
				next := 0
				for _, r := range ranges {
					if r[0] != next || r[1] <= r[0] && n > 0 || r[0]%align != 0 {
						t.Fatalf("n=%d align=%d min=%d: ranges %v do not tile [0, %d) at multiples of %d", n, align, minPer, ranges, n, align)
					}
					next = r[1]
				}
				if next != n {
					t.Fatalf("n=%d align=%d min=%d: ranges %v end at %d", n, align, minPer, ranges, next)
				}
				split := workers >= 2 && n >= 2*minPer && n >= 2*align
				if split != (len(ranges) > 1) {
					t.Fatalf("n=%d align=%d min=%d (%d workers): %d ranges", n, align, minPer, workers, len(ranges))
				}
			}
		}
	}
	bounded := fastTestBackend(t) // parallelism=4: a bounded pool
	calls := 0
	gobackend.ParallelRange(bounded, 1<<20, 1, 1, func(lo, hi int) { calls++ })
	if calls != 1 {
		t.Fatalf("a bounded pool: %d ranges, want the calling goroutine only", calls)
	}
}

// TestBinaryParallelMatchesGeneric: Mul and Add of two [16, 1, 400, 401] float32 tensors on an unlimited pool (split
// across the workers) give the generic executor's values.
func TestBinaryParallelMatchesGeneric(t *testing.T) {
	b := unlimitedTestBackend(t)
	rng := rand.New(rand.NewPCG(4, 7))
	shape := shapes.Make(dtypes.Float32, 16, 1, 400, 401)
	// Same shapes, then rows with a value per row (layer norm's gradient, split in f32BinaryRows) and a row for all.
	for _, dims := range [][2][]int{{shape.Dimensions, shape.Dimensions}, {{16, 900, 32}, {16, 900, 1}}, {{16, 900, 32}, {1, 1, 32}}} {
		lShape, rShape := shapes.Make(dtypes.Float32, dims[0]...), shapes.Make(dtypes.Float32, dims[1]...)
		l := fastTestBuffer(t, b, lShape, randomFlat(rng, dtypes.Float32, lShape.Size()))
		r := fastTestBuffer(t, b, rShape, randomFlat(rng, dtypes.Float32, rShape.Size()))
		for _, op := range []struct {
			opType        compute.OpType
			generic, fast gobackend.NodeExecutor
		}{{compute.OpTypeMul, execMul, execMulFast}, {compute.OpTypeAdd, execAdd, execAddFast}, {compute.OpTypeDiv, execDiv, execDivFast}} {
			node := &gobackend.Node{OpType: op.opType, Shape: lShape}
			run := func(exec gobackend.NodeExecutor) string {
				o, err := exec(b, node, []*gobackend.Buffer{l, r}, []bool{false, false})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(o.Flat)
			}
			if run(op.generic) != run(op.fast) {
				t.Fatalf("%s %v %v: split across the workers differs from the generic executor", op.opType, dims[0], dims[1])
			}
		}
	}
}

// TestExpParallelMatchesSerial: Exp of LatFormer's loss logits ([16, 900, 11], split across the workers) gives the
// bits of one loop over all values, float32 and float64.
func TestExpParallelMatchesSerial(t *testing.T) {
	b := unlimitedTestBackend(t)
	rng := rand.New(rand.NewPCG(8, 1))
	for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64} {
		shape := shapes.Make(dtype, 16, 900, 11)
		flat := randomFlat(rng, dtype, shape.Size())
		node := &gobackend.Node{OpType: compute.OpTypeExp, Shape: shape}
		out, err := execExp(b, node, []*gobackend.Buffer{fastTestBuffer(t, b, shape, flat)}, []bool{false})
		if err != nil {
			t.Fatal(err)
		}
		var want any
		switch x := flat.(type) {
		case []float32:
			w := make([]float32, len(x))
			execExpGeneric(x, w)
			want = w
		case []float64:
			w := make([]float64, len(x))
			execExpGeneric(x, w)
			want = w
		}
		if fmt.Sprint(want) != fmt.Sprint(out.Flat) {
			t.Fatalf("Exp %s %v: split across the workers differs from one loop", dtype, shape.Dimensions)
		}
	}
}

// TestNegFloat32BitsMatchesNeg: float32 Neg by sign-bit flips gives the bits of -x for every value of fastTestValues
// (signed zeros, infinities, NaNs of distinct payloads).
func TestNegFloat32BitsMatchesNeg(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	in := make([]float32, 10001)
	fastTestValues(rng, in, true)
	want := make([]float32, len(in))
	execNegGeneric(in, want)
	// The integer loop and the kernel in use (vectorized where the CPU has it), on lengths with partial vectors.
	for _, neg := range []func(x, dst []float32){execNegFloat32Bits, f32NegRows} {
		for _, n := range []int{len(in), 13, 3} {
			got := make([]float32, n)
			neg(in[:n], got)
			for i := range got {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
					t.Fatalf("value %d of %d: -(%g) (%#08x): bits %#08x, -x %#08x", i, n, in[i], math.Float32bits(in[i]), math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}

// TestTransposeParallelMatchesGeneric: large 32-bit transposes split across the workers (LatFormer's [16, 30, 30,
// 32] with the middle axes swapped, the dense layers' [14400, 32] -> [32, 14400], and an odd outer size) give the
// generic executor's values.
func TestTransposeParallelMatchesGeneric(t *testing.T) {
	b := unlimitedTestBackend(t)
	rng := rand.New(rand.NewPCG(6, 2))
	for _, c := range []struct{ dims, perm []int }{
		{[]int{16, 30, 30, 32}, []int{0, 2, 1, 3}}, {[]int{14400, 32}, []int{1, 0}}, {[]int{7, 130, 150}, []int{2, 0, 1}},
	} {
		shape := shapes.Make(dtypes.Float32, c.dims...)
		outDims := make([]int, len(c.perm))
		for i, p := range c.perm {
			outDims[i] = c.dims[p]
		}
		in := fastTestBuffer(t, b, shape, randomFlat(rng, dtypes.Float32, shape.Size()))
		node := &gobackend.Node{OpType: compute.OpTypeTranspose, Shape: shapes.Make(dtypes.Float32, outDims...), Data: c.perm}
		run := func(exec gobackend.NodeExecutor) string {
			o, err := exec(b, node, []*gobackend.Buffer{in}, []bool{false})
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(o.Flat)
		}
		if run(execTranspose) != run(execTransposeFast) {
			t.Fatalf("Transpose %v perm %v: split across the workers differs from the generic executor", c.dims, c.perm)
		}
	}
}

// TestNegParallelMatchesGeneric: a float32 Neg split across the workers (the layer norm gradient's [16, 900, 32])
// gives -x's bits.
func TestNegParallelMatchesGeneric(t *testing.T) {
	b := unlimitedTestBackend(t)
	rng := rand.New(rand.NewPCG(6, 7))
	shape := shapes.Make(dtypes.Float32, 16, 900, 32)
	x := make([]float32, shape.Size())
	fastTestValues(rng, x, true)
	o, err := execNeg(b, &gobackend.Node{OpType: compute.OpTypeNeg, Shape: shape}, []*gobackend.Buffer{fastTestBuffer(t, b, shape, slices.Clone(x))}, []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	got := o.Flat.([]float32)
	for i, v := range x {
		if math.Float32bits(-v) != math.Float32bits(got[i]) {
			t.Fatalf("value %d: -(%g): bits %#08x, want %#08x", i, v, math.Float32bits(got[i]), math.Float32bits(-v))
		}
	}
}
