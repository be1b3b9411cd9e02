// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

// permutationMatrix returns the n x n matrix P with (P v) = v with its lattice axes transposed by perm
// (axis a of the result is axis perm[a] of v).
func permutationMatrix(dims, perm []int) *lattice.Matrix {
	n := 1
	for _, l := range dims {
		n *= l
	}
	pd := make([]int, len(dims))
	for a, p := range perm {
		pd[a] = dims[p]
	}
	m := lattice.NewMatrix(n, n)
	q := make([]int, len(dims))
	for out := range n {
		r := out
		for a := len(pd) - 1; a >= 0; a-- {
			q[a] = r % pd[a]
			r /= pd[a]
		}
		src := 0
		c := make([]int, len(dims))
		for a, p := range perm {
			c[p] = q[a]
		}
		for a := range dims {
			src = src*dims[a] + c[a]
		}
		m.Set(out, src, 1)
	}
	return m
}

// denseKron builds Σ_t w_t (⊗ F_a) P_t as a [batch, n, n] node (the reference for the factored path).
func denseKron(dims []int, batch int, weights []*Node, factors [][]*Node, perms [][]int) *Node {
	m := len(dims)
	n := 1
	for _, l := range dims {
		n *= l
	}
	var sum *Node
	for t := range factors {
		pd := dims
		if perms[t] != nil {
			pd = make([]int, m)
			for a, p := range perms[t] {
				pd[a] = dims[p]
			}
		}
		var k *Node
		for a, f := range factors[t] {
			shape := make([]int, 1+2*m)
			for i := range shape {
				shape[i] = 1
			}
			shape[0], shape[1+a], shape[1+m+a] = batch, pd[a], pd[a]
			full := append([]int{batch}, append(append([]int{}, pd...), pd...)...)
			fa := BroadcastToDims(Reshape(f, shape...), full...)
			if k == nil {
				k = fa
			} else {
				k = Mul(k, fa)
			}
		}
		k = Reshape(k, batch, n, n)
		if perms[t] != nil {
			p := ConstTensor(k.Graph(), experts.MatrixTensor(permutationMatrix(dims, perms[t])))
			k = Einsum("bij,jk->bik", k, p)
		}
		if weights[t] != nil {
			k = Mul(k, Reshape(weights[t], batch, 1, 1))
		}
		if sum == nil {
			sum = k
		} else {
			sum = Add(sum, k)
		}
	}
	return sum
}

// TestKroneckerMaskAttentionMatchesDense checks that the factored mask-only attention equals the paper's
// masked attention (MaskedAttentionCore) with a uniform softmax (zero queries and keys) on the dense mask
// Σ_t w_t (⊗ F_a) P_t, on 1-D, 2-D and 3-D lattices, with soft factors and with hard (permutation)
// factors, with and without axis permutations, for the output and for the gradients with respect to
// the values, the factors and the weights.
func TestKroneckerMaskAttentionMatchesDense(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(11, 12))
	const batch, heads, dv = 2, 2, 3
	cases := []struct {
		dims  []int
		perms [][]int
	}{
		{[]int{7}, [][]int{nil, nil}},
		{[]int{4, 5}, [][]int{nil}},
		{[]int{4, 4}, [][]int{nil, {1, 0}}},
		{[]int{2, 3, 4}, [][]int{nil, nil}},
		{[]int{3, 3, 2}, [][]int{nil, {1, 0, 2}}},
	}
	for _, c := range cases {
		for _, hard := range []bool{false, true} {
			name := fmt.Sprintf("dims=%v perms=%v hard=%v", c.dims, c.perms, hard)
			n := 1
			for _, l := range c.dims {
				n *= l
			}
			var inputs []any
			randT := func(dims ...int) *tensors.Tensor { return testutil.UniformTensor(rng, dims...) }
			inputs = append(inputs, randT(batch, heads, n, dv), randT(batch, heads, n, dv)) // values, output cotangent
			for range c.perms {
				inputs = append(inputs, randT(batch))
				for a := range c.dims {
					l := c.dims[a]
					if hard { // a random hard factor: a shift, a flip or the identity, per example
						f := tensors.FromShape(shapes.Make(dtypes.Float32, batch, l, l))
						tensors.MustMutableFlatData[float32](f, func(d []float32) {
							for b := range batch {
								var mm *lattice.Matrix
								switch rng.IntN(3) {
								case 0:
									mm = lattice.TranslationMask1D(l, rng.IntN(l))
								case 1:
									mm = lattice.ReflectionMask1D(l)
								default:
									mm = lattice.IdentityMatrix(l)
								}
								for i, v := range mm.Data {
									d[b*l*l+i] = float32(v)
								}
							}
						})
						inputs = append(inputs, f)
					} else {
						inputs = append(inputs, randT(batch, l, l))
					}
				}
			}
			nt := len(c.perms)
			m := len(c.dims)
			outs := MustExecOnceN(backend, func(ins []*Node) []*Node {
				v, cot := ins[0], ins[1]
				var weights []*Node
				var factors [][]*Node
				var terms []KroneckerTerm
				k := 2
				for ti := range nt {
					w := ins[k]
					fs := ins[k+1 : k+1+m]
					k += 1 + m
					weights = append(weights, w)
					factors = append(factors, fs)
					terms = append(terms, KroneckerTerm{Weight: w, Factors: fs, Perm: c.perms[ti]})
				}
				// The factored path takes [batch, n, heads*dv]; the dense one [batch, heads, n, dv].
				fact := KroneckerMaskAttention(Reshape(TransposeAllDims(v, 0, 2, 1, 3), batch, n, heads*dv), c.dims, terms)
				fact = TransposeAllDims(Reshape(fact, batch, n, heads, dv), 0, 2, 1, 3)
				zeros := ZerosLike(v)
				dense := MaskedAttentionCore(zeros, zeros, v, denseKron(c.dims, batch, weights, factors, c.perms))
				wrt := append([]*Node{v}, ins[2:]...)
				gf := Gradient(ReduceAllSum(Mul(fact, cot)), wrt...)
				gd := Gradient(ReduceAllSum(Mul(dense, cot)), wrt...)
				res := []*Node{ReduceAllMax(Abs(Sub(fact, dense)))}
				for i := range gf {
					res = append(res, ReduceAllMax(Abs(Sub(gf[i], gd[i]))))
				}
				return res
			}, inputs...)
			worst := 0.0
			for i, o := range outs {
				d := float64(tensors.ToScalar[float32](o))
				tol := 2e-5
				if nt == 1 && i == 2 {
					// With a single term the output does not depend on its weight (it cancels in the row
					// normalization): both gradients are rounding noise around 0, of sums of O(100) terms.
					tol = 1e-3
				}
				if d > tol || math.IsNaN(d) {
					t.Errorf("%s: output %d (0: values, then gradients) differs by %g", name, i, d)
				}
				worst = max(worst, d)
			}
			t.Logf("%s: max |factored - dense| over output and %d gradients = %.2g", name, len(outs)-1, worst)
		}
	}
}

// TestMaskOnlyMatchesDenseExpertMask checks the factored path on the experts' own masks: for the default
// expert on a 5x5 canvas (all four experts, rotation terms included), with soft gates, hard gates and the
// smoothed mask, and for a grid-lattice expert (per-example reversals), KroneckerMaskAttention of
// LatticeMaskTerms equals MaskedAttentionCore with a uniform softmax on the dense mask.
func TestMaskOnlyMatchesDenseExpertMask(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const batch, heads, dv, l = 3, 2, 4, 5
	for _, grid := range []bool{false, true} {
		e := experts.DefaultExpert(l, l)
		if grid {
			e.Lattice = experts.Grid
		}
		logits := make([][]float32, batch)
		for b := range logits {
			logits[b] = make([]float32, e.NumGates())
			for i := range logits[b] {
				logits[b][i] = 4*rng.Float32() - 2
			}
		}
		extents := [][]int32{{3, 4}, {5, 5}, {2, 2}}
		v := testutil.UniformTensor(rng, batch, heads, l*l, dv)
		for _, mode := range []string{"soft", "hard", "smoothed"} {
			diff := MustExecOnce(backend, func(lg, ex, v *Node) *Node {
				gates := e.GatesFromLogits(lg, mode == "hard")
				gates.Extent = ex
				lm := e.Mask(gates)
				if mode == "smoothed" {
					lm = e.SmoothedMask(gates)
				}
				fact := KroneckerMaskAttention(Reshape(TransposeAllDims(v, 0, 2, 1, 3), batch, l*l, heads*dv), []int{l, l}, LatticeMaskTerms(lm))
				fact = TransposeAllDims(Reshape(fact, batch, l*l, heads, dv), 0, 2, 1, 3)
				zeros := ZerosLike(v)
				dense := MaskedAttentionCore(zeros, zeros, v, lm.Dense())
				return ReduceAllMax(Abs(Sub(fact, dense)))
			}, logits, extents, v)
			if d := tensors.ToScalar[float32](diff); d > 1e-5 {
				t.Errorf("grid=%v %s gates: factored and dense differ by %g", grid, mode, d)
			}
		}
	}
}

// TestLatFormerMaskOnly builds the LatFormer layer with AttentionMaskOnly (and smoothing and conditioning):
// the output has the layer's shape, every trainable variable gets a gradient, and the attention has no
// query or key projection.
func TestLatFormerMaskOnly(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(15, 16))
	const batch, rows, cols, d, dc = 2, 4, 4, 8, 3
	x := testutil.NormalTensor(rng, batch, rows*cols, d)
	c := testutil.NormalTensor(rng, batch, dc)
	store := model.NewStore()
	expert := experts.DefaultExpert(rows, cols)
	out := model.MustNewExec(backend, store, func(scope *model.Scope, x, cond *Node) []*Node {
		o := LatFormer(scope, x, expert).WithAttention(AttentionMaskOnly).WithConditioning(cond).WithSmoothing(true).Done()
		loss := Add(ReduceAllSum(Square(o.Output)), ReduceAllSum(Square(o.Smoothed)))
		grads := scope.BuildTrainableVariablesGradientsGraph(loss)
		zero := ScalarZero(x.Graph(), x.DType())
		for _, g := range grads {
			zero = Add(zero, ConvertDType(Equal(ReduceAllMax(Abs(g)), ScalarZero(x.Graph(), g.DType())), x.DType()))
		}
		return []*Node{o.Output, zero}
	}).MustCall(x, c)
	if got := out[0].Shape().Dimensions; got[0] != batch || got[1] != rows*cols || got[2] != d {
		t.Fatalf("output shape %v", got)
	}
	if z := tensors.ToScalar[float32](out[1]); z != 0 {
		t.Errorf("%v trainable variables get an all-zero gradient", z)
	}
	for v := range store.IterVariables() {
		if strings.Contains(v.Path(), "/attention/query") || strings.Contains(v.Path(), "/attention/key") {
			t.Errorf("mask-only attention created %s", v.Path())
		}
	}
}

// TestKroneckerProductGradient checks kroneckerProduct's hand-written gradient against GoMLX's automatic
// differentiation of the same per-axis products (the forward without the custom gradient), on 1-D, 2-D and
// 3-D lattices with a square and non-square canvas: the outputs are the same products (equal), and the
// gradients with respect to the values and every factor are the same sums in another order, equal within
// 2e-6 relative to the largest gradient.
func TestKroneckerProductGradient(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 44))
	const batch, c = 3, 5
	for _, dims := range [][]int{{7}, {4, 6}, {30, 30}, {3, 4, 5}} {
		grid := append(append([]int{batch}, dims...), c)
		inputs := []any{testutil.UniformTensor(rng, grid...), testutil.UniformTensor(rng, grid...)} // x, cotangent
		for _, l := range dims {
			inputs = append(inputs, testutil.UniformTensor(rng, batch, l, l))
		}
		outs := MustExecOnceN(backend, func(ins []*Node) []*Node {
			x, cot, fs := ins[0], ins[1], ins[2:]
			plain := x // the same products, differentiated by GoMLX
			for a, f := range fs {
				l := dims[a]
				batchAxes := make([]int, a+1)
				for i := range batchAxes {
					batchAxes[i] = i
				}
				fb := f
				if a > 0 {
					fb = BroadcastToDims(Reshape(f, append(append([]int{batch}, ones(a)...), l, l)...), append(append([]int{batch}, plain.Shape().Dimensions[1:1+a]...), l, l)...)
				}
				plain = DotGeneral(fb, []int{a + 2}, batchAxes, plain, []int{a + 1}, batchAxes)
			}
			custom := kroneckerProduct(x, fs)
			wrt := append([]*Node{x}, fs...)
			gc := Gradient(ReduceAllSum(Mul(custom, cot)), wrt...)
			gp := Gradient(ReduceAllSum(Mul(plain, cot)), wrt...)
			res := []*Node{ReduceAllMax(Abs(Sub(custom, plain)))}
			for i := range gc {
				res = append(res, Div(ReduceAllMax(Abs(Sub(gc[i], gp[i]))), ReduceAllMax(Abs(gp[i]))))
			}
			return res
		}, inputs...)
		if d := tensors.ToScalar[float32](outs[0]); d != 0 {
			t.Errorf("dims %v: outputs differ by %g", dims, d)
		}
		for i, o := range outs[1:] {
			if d := tensors.ToScalar[float32](o); d > 2e-6 || math.IsNaN(float64(d)) {
				t.Errorf("dims %v: gradient %d (0: values, then the factors) differs by %g of its largest value", dims, i, d)
			}
		}
	}
}
