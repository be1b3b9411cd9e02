// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/regularizer"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/nn"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Dense is GoMLX's layers.Dense (same variables "dense/weights" [in, out] and "dense/biases" [out] under
// scope, same initialization and regularization, same forward computation) with a hand-written gradient:
//
//	dx = dy Wᵀ,   dW = xᵀ dy,   db = 1ᵀ dy
//
// each one matrix product whose operands the Go backend takes as they are, but for one transposed copy of
// the smaller of x and dy for dW. GoMLX's generic gradient of the same product transposes both operands
// of dW, copies dx and dW once more through identity transposes and sums db element by element: copies
// that weigh on the small layers of ARC canvases, where the matrix products themselves are cheap (the
// docs/archive/bench-history.md measures the step with and without them).
func Dense(scope *model.Scope, x *Node, useBias bool, outputDimensions ...int) *Node {
	scope = scope.In("dense")
	g := x.Graph()
	if x.Rank() == 0 || len(outputDimensions) == 0 {
		exceptions.Panicf(
			"fastgraph.Dense: input %s must have rank >= 1 and at least one output dimension must be given",
			x.Shape())
	}
	in := x.Shape().Dimensions[x.Rank()-1]
	out := 1
	for _, d := range outputDimensions {
		out *= d
	}
	weightsVar := scope.VariableWithShape("weights", shapes.Make(x.DType(), in, out))
	if reg := regularizer.FromScope(scope); reg != nil {
		reg(g, weightsVar)
	}
	inputs := []*Node{x, weightsVar.NodeValue(g)}
	if useBias {
		inputs = append(inputs, scope.VariableWithShape("biases", shapes.Make(x.DType(), out)).NodeValue(g))
	}
	rows := x.Shape().Size() / in
	outDims := append(append([]int{}, x.Shape().Dimensions[:x.Rank()-1]...), outputDimensions...)
	var x2, w *Node
	forward := func(stopped []*Node) []*Node {
		x2, w = Reshape(stopped[0], rows, in), stopped[1]
		var bias *Node
		if useBias {
			bias = stopped[2]
		}
		return []*Node{Reshape(nn.Dense(x2, stopped[1], bias, compute.DenseLayoutInputOutputs), outDims...)}
	}
	backward := func(dOutputs []*Node) []*Node {
		dy := Reshape(dOutputs[0], rows, out)
		grads := make([]*Node, len(inputs))
		// [rows, out] x [in, out] contracting out: both in the backend's "transposed" layout.
		grads[0] = Reshape(DotGeneral(dy, []int{1}, nil, w, []int{1}, nil), x.Shape().Dimensions...)
		if in <= out {
			// xᵀ [in, rows] x dy [rows, out]
			grads[1] = DotGeneral(transposeNarrow(x2), []int{1}, nil, dy, []int{0}, nil)
		} else {
			// (dyᵀ [out, rows] x x [rows, in])ᵀ: the transposed copies are of dy and of W's size.
			grads[1] = TransposeAllDims(DotGeneral(transposeNarrow(dy), []int{1}, nil, x2, []int{0}, nil), 1, 0)
		}
		if useBias {
			ones := Ones(g, shapes.Make(dy.DType(), 1, rows))
			grads[2] = Reshape(DotGeneral(ones, []int{1}, nil, dy, []int{0}, nil), out)
		}
		return grads
	}
	return WithCustomVJP(inputs, forward, backward)[0]
}

// Relu is activation.Relu, max(x, 0), with the zero a scalar instead of a tensor of x's shape (ZerosLike):
// the same values and the same gradient (GoMLX's gradient of Max), without the backend filling and reading
// a tensor of zeros as large as x in the forward pass and subtracting it in the backward pass.
func Relu(x *Node) *Node {
	return Max(x, ScalarZero(x.Graph(), x.DType()))
}

// transposeNarrow returns xᵀ [w, rows] of x [rows, w]. For a narrow x (w <= 64) it is the product I xᵀ with
// the w x w identity, a constant: the Go backend's matrix product packs its operands with SIMD copies, which
// move the cells about twice as fast as its element-by-element Transpose (BenchmarkTransposeNarrow). The
// values are x's, exactly: each output cell is 1·x plus zeros (x finite; a -0 comes back +0).
func transposeNarrow(x *Node) *Node {
	if x.Rank() != 2 || x.Shape().Dimensions[1] > 64 || !x.DType().IsFloat() {
		return TransposeAllDims(x, 1, 0)
	}
	w := x.Shape().Dimensions[1]
	return DotGeneral(identityConst(x.Graph(), x.DType(), w), []int{1}, nil, x, []int{1}, nil)
}

// identityConst is the n x n identity as a constant of the given dtype.
func identityConst(g *Graph, dtype dtypes.DType, n int) *Node {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, n, n))
	tensors.MustMutableFlatData[float32](t, func(f []float32) {
		for i := range n {
			f[i*n+i] = 1
		}
	})
	return ConvertDType(ConstTensor(g, t), dtype)
}
