// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/fastgraph"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

func flat64(t *tensors.Tensor) []float64 {
	var out []float64
	for _, v := range tensors.MustCopyFlatData[float32](t) {
		out = append(out, float64(v))
	}
	return out
}

// TestTheorem1 checks Theorem 1 (Existence) numerically: with Q = K = V = X and M = M_g, the masked
// attention output equals g applied to X, for every action of lattice.AllActions on a 1-D lattice
// (n = 7), 2-D lattices (5x5 and 4x6) and a 3-D lattice (3x4x5), on GoMLX's Go backend. Down-scaling is
// checked on up-scaled inputs, where it is the exact left inverse of up-scaling.
func TestTheorem1(t *testing.T) {
	backend := testutil.Backend(t)
	for _, dims := range [][]int{{7}, {5, 5}, {4, 6}, {3, 4, 5}} {
		actions := lattice.AllActions(dims)
		checks, err := CheckTheorem1(backend, dims, actions, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		// At least the translations, a reflection per axis and the identity; one check per action.
		if want := minActions(dims); len(actions) < want || len(checks) != len(actions) {
			t.Fatalf("dims %v: %d actions, %d checks; want at least %d actions, one check each", dims, len(actions),
				len(checks), want)
		}
		worst := 0.0
		for _, c := range checks {
			worst = max(worst, c.MaxErr)
			if c.MaxErr > 1e-5 {
				t.Errorf("dims %v, action %v: max |MaskedAttention(X; M_g) - g·X| = %.3g > 1e-5", dims, c.Action, c.MaxErr)
			}
		}
		t.Logf("dims %v: %d actions, worst max abs error %.2e", dims, len(actions), worst)
	}
}

// minActions is a floor on the number of actions lattice.AllActions lists on dims: the identity, every
// single-axis translation and a reflection of each axis.
func minActions(dims []int) int {
	n := 1
	for _, d := range dims {
		n += d - 1 + 1
	}
	return n
}

// TestMaskedAttentionGradient checks the custom-gradient implementation against the decomposed
// formula (A = softmax(S) ⊙ M, output = (A / A 1 1^T) V) with GoMLX's automatic differentiation: the
// outputs and the gradients with respect to Q, K, V and M agree within 1e-5, for shared and per-example
// masks and two heads.
func TestMaskedAttentionGradient(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(3, 4))
	const batch, heads, n, d = 2, 2, 6, 3
	reference := func(q, k, v, m *Node) *Node {
		s := MulScalar(Einsum("bhqd,bhkd->bhqk", q, k), 1/math.Sqrt(d))
		a := Mul(Softmax(s, -1), m)
		return Div(Einsum("bhqk,bhkd->bhqd", a, v), ReduceAndKeep(a, ReduceSum, -1))
	}
	for _, perExample := range []bool{false, true} {
		exec := MustNewExec(backend, func(q, k, v, m, dy *Node) []*Node {
			m4 := m
			if m.Rank() == 3 {
				m4 = ExpandAxes(m, 1)
			} else {
				m4 = Reshape(m, 1, 1, n, n)
			}
			m4 = BroadcastToDims(m4, batch, heads, n, n)
			ours := MaskedAttentionCore(q, k, v, m)
			ref := reference(q, k, v, m4)
			gOurs := Gradient(ReduceAllSum(Mul(ours, dy)), q, k, v, m)
			gRef := Gradient(ReduceAllSum(Mul(ref, dy)), q, k, v, m)
			return append(append([]*Node{ours, ref}, gOurs...), gRef...)
		})
		mdims := []int{n, n}
		if perExample {
			mdims = []int{batch, n, n}
		}
		mask := tensors.FromShape(shapes.Make(dtypes.Float32, mdims...))
		tensors.MustMutableFlatData[float32](mask, func(f []float32) {
			for i := range f {
				f[i] = float32(0.05 + 0.95*rng.Float64())
			}
		})
		outs := exec.MustCall(testutil.NormalTensor(rng, batch, heads, n, d), testutil.NormalTensor(rng, batch, heads, n, d),
			testutil.NormalTensor(rng, batch, heads, n, d), mask, testutil.NormalTensor(rng, batch, heads, n, d))
		names := []string{"output", "dQ", "dK", "dV", "dM"}
		pairs := [][2]int{{0, 1}, {2, 6}, {3, 7}, {4, 8}, {5, 9}}
		for i, p := range pairs {
			a, b := flat64(outs[p[0]]), flat64(outs[p[1]])
			maxErr := 0.0
			for j := range a {
				maxErr = max(maxErr, math.Abs(a[j]-b[j]))
			}
			t.Logf("perExample=%v %s: max abs diff %.2e", perExample, names[i], maxErr)
			if maxErr > 1e-5 {
				t.Errorf("perExample=%v: %s differs from the decomposed formula by %.3g", perExample, names[i], maxErr)
			}
		}
	}
}

// TestMaskedAttentionZeroRow checks the guard for an all-zero mask row: that row outputs zeros and
// the other rows are unaffected (no NaN anywhere, also in the gradients).
func TestMaskedAttentionZeroRow(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 4, 2
	mask := lattice.IdentityMatrix(n)
	for j := range n {
		mask.Set(2, j, 0)
	}
	x := testutil.NormalTensor(rng, 1, 1, n, d)
	outs := MustNewExec(backend, func(x, m *Node) []*Node {
		y := MaskedAttentionCore(x, x, x, m)
		return []*Node{y, Gradient(ReduceAllSum(y), x)[0]}
	}).MustCall(x, experts.MatrixTensor(mask))
	y, gx, xv := flat64(outs[0]), flat64(outs[1]), flat64(x)
	for i := range n {
		for k := range d {
			want := xv[i*d+k]
			if i == 2 {
				want = 0
			}
			if math.Abs(y[i*d+k]-want) > 1e-6 {
				t.Errorf("row %d feature %d: got %g want %g", i, k, y[i*d+k], want)
			}
		}
	}
	for i, v := range gx {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("gradient element %d is %v", i, v)
		}
	}
}

// ExampleMaskedAttentionCore translates a 1-D sequence by one cell with the circulant mask of
// Section 3.2: masked self-attention with M_T^(1) outputs (x_4, x_0, x_1, x_2, x_3).
func ExampleMaskedAttentionCore() {
	backend, _ := compute.NewWithConfig("go:ops_sequential") // one graph node at a time
	mask := experts.MatrixTensor(lattice.TranslationMask1D(5, 1))
	x := tensors.FromValue([][][][]float32{{{{1}, {2}, {3}, {4}, {5}}}}) // [batch=1, heads=1, n=5, d=1]
	y := MustExecOnce(backend, func(x, m *Node) *Node { return MaskedAttentionCore(x, x, x, m) }, x, mask)
	fmt.Println(y.Value())
	// Output: [[[[5] [1] [2] [3] [4]]]]
}

// TestMaskedAttentionCoreFactoredMatchesDense checks the LatFormer layer's full attention on factored
// lattice masks, with its hand-written gradient, against the decomposed formula on the dense masks (built
// element-wise from the factors) differentiated by GoMLX: outputs and gradients with respect to the
// queries, keys, values and gate logits agree within 1e-5, for square (with rotation) and non-square
// canvases, the canvas and the grid lattice, soft and hard gates, one and two heads, and two masks at once
// (plain and smoothed, Section 4.2).
func TestMaskedAttentionCoreFactoredMatchesDense(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	const batch, dh = 3, 4
	for _, c := range []struct {
		rows, cols, heads int
		grid, hard        bool
	}{{4, 4, 1, false, false}, {4, 4, 2, false, true}, {4, 4, 1, true, false}, {3, 5, 2, false, false}, {5, 5, 1, true, true}} {
		e := experts.DefaultExpert(c.rows, c.cols)
		if c.grid {
			e.Lattice = experts.Grid
		}
		n := c.rows * c.cols
		logits := testutil.NormalTensor(rng, batch, e.NumGates())
		q, k, v := testutil.NormalTensor(rng, batch, c.heads, n, dh), testutil.NormalTensor(rng, batch, c.heads, n, dh), testutil.NormalTensor(rng, batch, c.heads, n, dh)
		cot := testutil.NormalTensor(rng, batch, c.heads, n, dh)
		extents := tensors.FromValue([][]int32{{int32(min(3, c.rows)), int32(min(4, c.cols))}, {int32(c.rows), int32(c.cols)}, {2, 2}})
		outs := MustExecOnceN(backend, func(in []*Node) []*Node {
			lg, q, k, v, cot, ex := in[0], in[1], in[2], in[3], in[4], in[5]
			lg = MulScalar(lg, 3)
			gates := e.GatesFromLogits(lg, c.hard)
			gates.Extent = ex
			masks := []*experts.LatticeMask{e.Mask(gates)}
			if c.rows == c.cols {
				masks = append(masks, e.SmoothedMask(gates))
			}
			// The reference: the dense masks by element-wise products of the factors and the attention by
			// the decomposed formula, both differentiated by GoMLX.
			ref := make([]*Node, len(masks))
			for i, m := range masks {
				l, rT := m.Factors()
				r := TransposeAllDims(rT, 0, 1, 2, 4, 3)
				terms := l.Shape().Dimensions[4]
				dense := ReduceSum(Mul(Reshape(l, batch, c.rows, c.cols, c.rows, 1, terms), Reshape(r, batch, c.rows, c.cols, 1, c.cols, terms)), -1)
				dense = BroadcastToDims(Reshape(dense, batch, 1, n, n), batch, c.heads, n, n)
				s := MulScalar(Einsum("bhqd,bhkd->bhqk", q, k), 1/math.Sqrt(dh))
				a := Mul(Softmax(s, -1), dense)
				sum := ReduceAndKeep(a, ReduceSum, -1) // hard gates may leave a row empty: it outputs zeros
				ref[i] = Div(Einsum("bhqk,bhkd->bhqd", a, v), Where(GreaterThan(sum, ZerosLike(sum)), sum, OnesLike(sum)))
			}
			loss := func(outs []*Node) *Node {
				var sum *Node
				for i, o := range outs {
					term := ReduceAllSum(Mul(o, MulScalar(cot, float64(i+1))))
					sum = addOrSet(sum, term)
				}
				return sum
			}
			fact := MaskedAttentionCoreFactored(q, k, v, masks)
			var diffs []*Node
			for i := range fact {
				diffs = append(diffs, ReduceAllMax(Abs(Sub(fact[i], ref[i]))))
			}
			gf := Gradient(loss(fact), lg, q, k, v)
			gr := Gradient(loss(ref), lg, q, k, v)
			for i := range gf {
				diffs = append(diffs, ReduceAllMax(Abs(Sub(gf[i], gr[i]))))
			}
			return diffs
		}, logits, q, k, v, cot, extents)
		names := []string{"output", "smoothed output", "d logits", "dQ", "dK", "dV"}
		if c.rows != c.cols {
			names = append(names[:1], names[2:]...)
		}
		for i, o := range outs {
			d := tensors.ToScalar[float32](o)
			t.Logf("%+v %s: max abs diff %.2e", c, names[i], d)
			if d > 1e-5 || math.IsNaN(float64(d)) {
				t.Errorf("%+v: %s of the factored and dense masked attention differ by %g", c, names[i], d)
			}
		}
	}
}

// TestMaskedAttentionBuilder checks the MaskedAttention builder with numbers, each graph on one store so
// that all share the variables: it equals the LatFormer layer's attention (MultiLatticeMaskedAttention on
// the factored mask) given the expert mask's Dense tensor, within 1e-5, for one and two heads; with the
// identity mask every cell attends only to itself, so the output is the value projection followed by the
// output projection; with no mask it is plain softmax attention, the same as with an all-ones mask; and
// WithOutputDim sets the output's last dimension.
func TestMaskedAttentionBuilder(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(31, 32))
	const batch, side, d = 2, 3, 4
	n := side * side
	e := experts.DefaultExpert(side, side)
	x := testutil.NormalTensor(rng, batch, n, d)
	logits := testutil.NormalTensor(rng, batch, e.NumGates())
	for _, heads := range []int{1, 2} {
		store := model.NewStore()
		// run builds one graph of x and the logits on the store and returns its output.
		run := func(f func(scope *model.Scope, x, lg *Node) *Node) *tensors.Tensor {
			return model.MustNewExec(backend, store, f).MustCall(x, logits)[0]
		}
		builder := func(scope *model.Scope, x *Node) *MaskedAttentionBuilder {
			return MaskedAttention(scope, x, x, x).WithNumHeads(heads).WithKeyQueryDim(d / heads).WithValueDim(d / heads)
		}
		expertMask := func(lg *Node) *experts.LatticeMask { return e.Mask(e.GatesFromLogits(lg, false)) }
		layer := run(func(scope *model.Scope, x, lg *Node) *Node {
			return MultiLatticeMaskedAttention(scope, x, []*experts.LatticeMask{expertMask(lg)}, heads)[0]
		})
		withMask := run(func(scope *model.Scope, x, lg *Node) *Node {
			return builder(scope, x).WithMask(expertMask(lg).Dense()).Done()
		})
		identity := run(func(scope *model.Scope, x, _ *Node) *Node {
			eye := ConstTensor(x.Graph(), experts.MatrixTensor(lattice.IdentityMatrix(n)))
			return builder(scope, x).WithMask(eye).Done()
		})
		valueThenOutput := run(func(scope *model.Scope, x, _ *Node) *Node {
			v := Reshape(fastgraph.Dense(scope.In("value"), x, true, heads, d/heads), batch, n, d)
			return fastgraph.Dense(scope.In("output"), v, true, d)
		})
		noMask := run(func(scope *model.Scope, x, _ *Node) *Node { return builder(scope, x).Done() })
		allOnes := run(func(scope *model.Scope, x, _ *Node) *Node {
			return builder(scope, x).WithMask(Ones(x.Graph(), shapes.Make(x.DType(), batch, n, n))).Done()
		})
		for _, c := range []struct {
			name string
			a, b *tensors.Tensor
		}{
			{"with the expert's dense mask vs MultiLatticeMaskedAttention", withMask, layer},
			{"with the identity mask vs the value and output projections", identity, valueThenOutput},
			{"with no mask vs an all-ones mask", noMask, allOnes},
		} {
			if diff := maxAbsDiff(c.a, c.b); diff > 1e-5 {
				t.Errorf("%d heads: MaskedAttention %s: they differ by %g", heads, c.name, diff)
			}
		}
		if diff := maxAbsDiff(identity, withMask); diff < 1e-3 {
			t.Errorf("%d heads: the identity and the expert's mask give the same output (%g apart): the mask is ignored", heads, diff)
		}
		wide := run(func(scope *model.Scope, x, _ *Node) *Node {
			return MaskedAttention(scope.In("wide"), x, x, x).WithOutputDim(7).Done()
		})
		if got := wide.Shape().Dimensions; !slices.Equal(got, []int{batch, n, 7}) {
			t.Errorf("WithOutputDim(7): output shape %v, want [%d %d 7]", got, batch, n)
		}
	}
}

// maxAbsDiff returns the largest |a[i] - b[i]| of two float32 tensors of the same size.
func maxAbsDiff(a, b *tensors.Tensor) float64 {
	fa, fb := tensors.MustCopyFlatData[float32](a), tensors.MustCopyFlatData[float32](b)
	if len(fa) != len(fb) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range fa {
		d = max(d, math.Abs(float64(fa[i]-fb[i])))
	}
	return d
}

// TestMaskedAttentionBatchChunks checks that computing the attention on slices of the batch
// (fastgraph.InBatchChunks, what both entry points do when the weights are large) changes nothing: for batches
// of 1 to 5 in 2, 3 and as many slices as examples (even and uneven slices), the factored attention's outputs and
// the gradients of the gate logits, queries, keys and values equal those of one maskedAttentionCore over the
// whole batch to 1e-6, and so do the dense attention's with a per-example mask and a shared one.
func TestMaskedAttentionBatchChunks(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(31, 32))
	const rows, cols, heads, dh = 4, 3, 2, 4
	n := rows * cols
	cases := 0
	for batch := 1; batch <= 5; batch++ {
		for _, slices := range []int{2, 3, batch} {
			e := experts.DefaultExpert(rows, cols)
			logits := testutil.NormalTensor(rng, batch, e.NumGates())
			q, k, v := testutil.NormalTensor(rng, batch, heads, n, dh), testutil.NormalTensor(rng, batch, heads, n, dh), testutil.NormalTensor(rng, batch, heads, n, dh)
			cot := testutil.NormalTensor(rng, batch, heads, n, dh)
			dense := testutil.NormalTensor(rng, batch, n, n)
			outs := MustExecOnceN(backend, func(in []*Node) []*Node {
				lg, q, k, v, cot, dm := in[0], in[1], in[2], in[3], in[4], in[5]
				dm = Sigmoid(dm)
				shared := Reshape(Slice(dm, AxisRange(0, 1)), n, n)
				mask := e.Mask(e.GatesFromLogits(MulScalar(lg, 3), false))
				whole := func() []*Node {
					l, rT := mask.Factors()
					return maskedAttentionCore(q, k, v, []coreMask{{l: l, rT: rT, rows: rows, cols: cols}})
				}
				pairs := [][2]*Node{
					{factoredAttentionInSlices(q, k, v, []*experts.LatticeMask{mask}, slices)[0], whole()[0]},
					{denseAttentionInSlices(q, k, v, dm, slices), maskedAttentionCore(q, k, v, []coreMask{{dense: dm}})[0]},
					{denseAttentionInSlices(q, k, v, shared, slices), maskedAttentionCore(q, k, v, []coreMask{{dense: shared}})[0]},
				}
				var diffs []*Node
				for _, p := range pairs {
					diffs = append(diffs, ReduceAllMax(Abs(Sub(p[0], p[1]))))
					ga := Gradient(ReduceAllSum(Mul(p[0], cot)), lg, q, k, v, dm)
					gb := Gradient(ReduceAllSum(Mul(p[1], cot)), lg, q, k, v, dm)
					for i := range ga {
						diffs = append(diffs, ReduceAllMax(Abs(Sub(ga[i], gb[i]))))
					}
				}
				return diffs
			}, logits, q, k, v, cot, dense)
			for i, o := range outs {
				d := tensors.ToScalar[float32](o)
				if d > 1e-6 || math.IsNaN(float64(d)) {
					t.Errorf("batch %d in %d slices: value %d (pair %d: output, d logits, dQ, dK, dV, d mask) differs by %g "+
						"between the sliced and the whole-batch attention", batch, slices, i, i/6, d)
				}
			}
			cases++
		}
	}
	if cases != 15 {
		t.Fatalf("%d cases ran, want 15", cases)
	}
}

// TestMaskedAttentionMaskShapeErrors checks that a dense mask of the wrong shape is refused with the
// whole batch's sizes in the message (the attention is computed on slices of the batch, whose sizes
// would say nothing to the caller).
func TestMaskedAttentionMaskShapeErrors(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(51, 52))
	const batch, heads, n, dh = 5, 1, 6, 4
	x := testutil.NormalTensor(rng, batch, heads, n, dh)
	for _, c := range []struct {
		dims []int
		want string
	}{
		{[]int{3, n, n}, "[batch=5, queryLen=6, keyLen=6]"},
		{[]int{n, n + 1}, "[queryLen=6, keyLen=6]"},
		{[]int{batch, 2, n, n}, "[batch=5, heads=1, queryLen=6, keyLen=6]"},
		{[]int{n}, "rank 2, 3 or 4"},
	} {
		mask := testutil.NormalTensor(rng, c.dims...)
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			MustExecOnce(backend, func(x, m *Node) *Node { return MaskedAttentionCore(x, x, x, m) }, x, mask)
			return ""
		}()
		if !strings.Contains(msg, c.want) {
			t.Errorf("mask %v: panic %q, want one naming %s", c.dims, msg, c.want)
		}
	}
}
