// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
)

// TestLatFormerShapesAndConditioning builds the layer with and without conditioning and smoothing, and
// checks output shapes, that the conditioning vector changes the output, and that every trainable
// variable (projections, norms, FFN, gate FFN) gets a gradient.
func TestLatFormerShapesAndConditioning(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(13, 14))
	const batch, rows, cols, d, dc = 2, 4, 4, 8, 5
	x := testutil.NormalTensor(rng, batch, rows*cols, d)
	c1, c2 := testutil.NormalTensor(rng, batch, dc), testutil.NormalTensor(rng, batch, dc)
	store := model.NewStore()
	expert := experts.DefaultExpert(rows, cols)
	exec := model.MustNewExec(backend, store, func(scope *model.Scope, x, cond *Node) []*Node {
		out := LatFormer(scope, x, expert).WithConditioning(cond).WithSmoothing(true).Done()
		loss := ReduceAllSum(Square(out.Output))
		grads := scope.BuildTrainableVariablesGradientsGraph(loss)
		zeroGrads := ScalarZero(x.Graph(), x.DType())
		for _, g := range grads {
			zeroGrads = Add(zeroGrads, ConvertDType(Equal(ReduceAllMax(Abs(g)), ScalarZero(x.Graph(), g.DType())), x.DType()))
		}
		return []*Node{out.Output, out.Smoothed, zeroGrads, Const(x.Graph(), int32(len(grads)))}
	})
	o1 := exec.MustCall(x, c1)
	o2 := exec.MustCall(x, c2)
	if got := o1[0].Shape().Dimensions; got[0] != batch || got[1] != rows*cols || got[2] != d {
		t.Fatalf("output shape %v", got)
	}
	if got := o1[1].Shape(); !got.Equal(o1[0].Shape()) {
		t.Fatalf("smoothed output shape %s", got)
	}
	a, b := flat64(o1[0]), flat64(o2[0])
	diff := 0.0
	for i := range a {
		diff = max(diff, math.Abs(a[i]-b[i]))
	}
	if diff < 1e-4 {
		t.Errorf("conditioning vector has no effect (max diff %g)", diff)
	}
	zero := tensors.ToScalar[float32](o1[2])
	numVars := tensors.ToScalar[int32](o1[3])
	t.Logf("%d trainable variables, %v with an all-zero gradient; conditioning changes the output by up to %.3f", numVars, zero, diff)
	if zero != 0 {
		t.Errorf("%v of %d trainable variables get an all-zero gradient", zero, numVars)
	}
}

// ExampleLatFormer builds a LatFormer layer (Figure 3a) with all four mask experts on a 3x3 canvas with a
// 4-dimensional model, and prints the output shape and the number of parameters (attention projections,
// layer norms, FFN and the experts' gating FFN, whose gates include the translation expert's zero-fill gates;
// the expert kernels are frozen constants).
func ExampleLatFormer() {
	backend, _ := compute.NewWithConfig("go:ops_sequential") // one graph node at a time
	store := model.NewStore()
	expert := experts.DefaultExpert(3, 3)
	x := tensors.FromShape(shapes.Make(dtypes.Float32, 1, 9, 4))
	out := model.MustExecOnce(backend, store, func(scope *model.Scope, x *Node) *Node {
		return LatFormer(scope, x, expert).WithFFNDim(16).Done().Output
	}, x)
	fmt.Println("output shape:", out.Shape())
	trainable := 0 // not NumParameters: the experts' free-gate masks and the random-number state are variables too
	for v := range store.IterVariables() {
		if v.Trainable {
			trainable += v.Shape().Size()
		}
	}
	fmt.Println("trainable parameters:", trainable)
	// Output:
	// output shape: (Float32)[1, 9, 4]
	// trainable parameters: 2124
}
