// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/testutil"
)

// TestDenseMatchesLayersDense checks Dense against GoMLX's layers.Dense: the same variables and values
// (same initialization from the same seed), and outputs and gradients with respect to the input, the
// weights and the biases within 1e-5, for rank-2 and rank-3 inputs, several output dimensions, more
// inputs than outputs and fewer, with and without bias.
func TestDenseMatchesLayersDense(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		dims    []int
		outDims []int
		bias    bool
	}{{[]int{7, 5}, []int{12}, true}, {[]int{3, 4, 16}, []int{6}, true}, {[]int{2, 5, 8}, []int{2, 3}, false}, {[]int{9, 3}, []int{11}, false}} {
		x := testutil.NormalTensor(rng, c.dims...)
		var outs [2][]*tensors.Tensor
		for i, dense := range []func(*model.Scope, *Node, bool, ...int) *Node{layers.Dense, Dense} {
			store := model.NewStore()
			store.SetParam(model.ParamInitialSeed, int64(42))
			outs[i] = model.MustNewExec(backend, store, func(scope *model.Scope, x *Node) []*Node {
				layer := scope.In("layer")
				y := dense(layer, x, c.bias, c.outDims...)
				cot := Sin(Reshape(Iota(x.Graph(), shapes.Make(y.DType(), y.Shape().Size()), 0), y.Shape().Dimensions...))
				loss := ReduceAllSum(Mul(y, cot))
				w := layer.Store().GetVariable("/layer/dense/weights")
				wrt := []*Node{x, w.NodeValue(x.Graph())}
				if c.bias {
					wrt = append(wrt, layer.Store().GetVariable("/layer/dense/biases").NodeValue(x.Graph()))
				}
				return append([]*Node{y}, Gradient(loss, wrt...)...)
			}).MustCall(x)
		}
		names := []string{"output", "dx", "dW", "db"}
		for j := range outs[0] {
			if !outs[0][j].Shape().Equal(outs[1][j].Shape()) {
				t.Fatalf("%+v %s: shape %s, layers.Dense %s", c, names[j], outs[1][j].Shape(), outs[0][j].Shape())
			}
			a, b := tensors.MustCopyFlatData[float32](outs[0][j]), tensors.MustCopyFlatData[float32](outs[1][j])
			worst := 0.0
			for k := range a {
				worst = max(worst, math.Abs(float64(a[k]-b[k])))
			}
			if worst > 1e-5 {
				t.Errorf("%+v %s: max difference to layers.Dense %g", c, names[j], worst)
			}
		}
	}
}

// TestReluMatchesActivationRelu checks Relu bit for bit against max(x, zeros), GoMLX's activation.Relu up to
// v0.28.2, with which the committed results were computed: the output and the gradient with respect to the
// input, on values of both signs with +0, -0, infinities and a NaN. GoMLX v0.28.16's activation.Relu (a fused
// op on the Go backend) gives the same values but for the gradient at x = ±0 and NaN, which it sets to 0 where
// a max passes it on (and +0 for -0 where x < 0); that is checked too.
func TestReluMatchesActivationRelu(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, 3*257)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	copy(x, []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())})
	xt := tensors.FromFlatDataAndDimensions(x, 3, 257)
	decomposed := func(x *Node) *Node { return Max(x, ZerosLike(x)) }
	var outs [3][]*tensors.Tensor
	for i, relu := range []func(*Node) *Node{decomposed, Relu, activation.Relu} {
		outs[i] = MustExecOnceN(backend, func(x *Node) []*Node {
			y := relu(x)
			cot := Sin(Reshape(Iota(x.Graph(), shapes.Make(y.DType(), y.Shape().Size()), 0), y.Shape().Dimensions...))
			return []*Node{y, Gradient(ReduceAllSum(Mul(y, cot)), x)[0]}
		}, xt)
	}
	for j, name := range []string{"output", "gradient"} {
		want, got, fused := tensors.MustCopyFlatData[float32](outs[0][j]), tensors.MustCopyFlatData[float32](outs[1][j]), tensors.MustCopyFlatData[float32](outs[2][j])
		for k := range want {
			if math.Float32bits(want[k]) != math.Float32bits(got[k]) {
				t.Fatalf("%s %d (x = %g): Relu %g, max(x, zeros) %g", name, k, x[k], got[k], want[k])
			}
			if j == 1 && (x[k] == 0 || math.IsNaN(float64(x[k]))) {
				continue // the fused ReLU's gradient at ±0 and NaN
			}
			if fused[k] != got[k] && !(math.IsNaN(float64(fused[k])) && math.IsNaN(float64(got[k]))) {
				t.Errorf("%s %d (x = %g): Relu %g, activation.Relu %g", name, k, x[k], got[k], fused[k])
			}
		}
	}
}
