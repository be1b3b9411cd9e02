// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/internal/testutil"
)

// TestBatchMatMulMatchesEinsum checks BatchMatMul against Einsum("bij,bjk->bik"): the product and the
// gradient with respect to a bit for bit, the gradient with respect to b within 1e-6 relative (the backend
// sums aᵀ dc in another layout, whose kernel may round the last bit otherwise), on square and rectangular
// operands (the mask experts' products are square; a rectangular one catches operands or gradients swapped
// or transposed).
func TestBatchMatMulMatchesEinsum(t *testing.T) {
	be := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dims := range [][4]int{{3, 16, 16, 16}, {2, 5, 7, 3}, {1, 1, 4, 9}} {
		a := testutil.NormalTensor(rng, dims[0], dims[1], dims[2])
		b := testutil.NormalTensor(rng, dims[0], dims[2], dims[3])
		var outs [2][]*tensors.Tensor
		for i, mm := range []func(a, b *Node) *Node{
			func(a, b *Node) *Node { return Einsum("bij,bjk->bik", a, b) }, BatchMatMul,
		} {
			outs[i] = MustExecOnceN(be, func(a, b *Node) []*Node {
				c := mm(a, b)
				cot := Sin(Reshape(Iota(a.Graph(), shapes.Make(c.DType(), c.Shape().Size()), 0), c.Shape().Dimensions...))
				return append([]*Node{c}, Gradient(ReduceAllSum(Mul(c, cot)), a, b)...)
			}, a, b)
		}
		for j, name := range []string{"product", "da", "db"} {
			if !outs[0][j].Shape().Equal(outs[1][j].Shape()) {
				t.Fatalf("%v %s: shape %s, Einsum's %s", dims, name, outs[1][j].Shape(), outs[0][j].Shape())
			}
			want, got := tensors.MustCopyFlatData[float32](outs[0][j]), tensors.MustCopyFlatData[float32](outs[1][j])
			for k := range want {
				exact := math.Float32bits(want[k]) == math.Float32bits(got[k])
				if close := math.Abs(float64(want[k]-got[k])) <= 1e-6*max(1, math.Abs(float64(want[k]))); !exact &&
					(name != "db" || !close) {
					t.Fatalf("%v %s[%d]: BatchMatMul %g, Einsum %g", dims, name, k, got[k], want[k])
				}
			}
		}
	}
}

// TestTransposeNarrow checks transposeNarrow(x) against TransposeAllDims(x, 1, 0), value for value, for narrow
// x of several shapes, with a +0 and a -0 (which comes back as +0: -0 + 0 is +0; a zero's sign changes no
// product it enters). Infinities are left out: 0·∞ is NaN.
func TestTransposeNarrow(t *testing.T) {
	be := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dims := range [][2]int{{300, 32}, {7, 5}, {5, 64}} {
		x := testutil.NormalTensor(rng, dims[0], dims[1])
		tensors.MustMutableFlatData[float32](x, func(f []float32) { f[0], f[1] = 0, float32(math.Copysign(0, -1)) })
		outs := MustExecOnceN(be, func(x *Node) []*Node {
			return []*Node{TransposeAllDims(x, 1, 0), transposeNarrow(x)}
		}, x)
		want, got := tensors.MustCopyFlatData[float32](outs[0]), tensors.MustCopyFlatData[float32](outs[1])
		if !outs[1].Shape().Equal(outs[0].Shape()) {
			t.Fatalf("%v: shape %s, want %s", dims, outs[1].Shape(), outs[0].Shape())
		}
		for k := range want {
			if want[k] != got[k] {
				t.Fatalf("%v [%d]: transposeNarrow %g, transpose %g", dims, k, got[k], want[k])
			}
		}
	}
}

// BenchmarkBatchMatMul: the forward and gradient of a chain of 8 products of [192, 16, 16] matrices (a mask
// expert's per-axis products at canvas 16, 12 examples), by Einsum and by BatchMatMul.
func BenchmarkBatchMatMul(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	x := testutil.NormalTensor(rand.New(rand.NewPCG(1, 1)), 192, 16, 16)
	for name, mm := range map[string]func(a, b *Node) *Node{
		"einsum": func(a, b *Node) *Node { return Einsum("bij,bjk->bik", a, b) }, "BatchMatMul": BatchMatMul,
	} {
		exec := MustNewExec(be, func(x *Node) []*Node {
			y := x
			for range 8 {
				y = mm(x, y)
			}
			return Gradient(ReduceAllSum(y), x)
		})
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				exec.MustExec(x)[0].FinalizeAll()
			}
		})
	}
}

// BenchmarkTransposeNarrow: the transposed copy of the Dense gradient's x [7680, 32] (canvas 16, 30
// examples), by Transpose and by transposeNarrow.
func BenchmarkTransposeNarrow(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	x := testutil.NormalTensor(rand.New(rand.NewPCG(1, 1)), 7680, 32)
	for name, tr := range map[string]func(x *Node) *Node{
		"transpose": func(x *Node) *Node { return TransposeAllDims(x, 1, 0) }, "transposeNarrow": transposeNarrow,
	} {
		exec := MustNewExec(be, tr)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				exec.MustExec(x)[0].FinalizeAll()
			}
		})
	}
}
