// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/nn"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/internal/testutil"
)

// BenchmarkFFN times the LatFormer layer's FFN (Dense 32->128, ReLU, Dense 128->32), forward and gradient, on
// 16 x 100 and 16 x 900 cells: ours (Dense with its hand-written gradient, ReLU as a max with a scalar) against
// GoMLX's fused Dense with its fused gradient and its fused ReLU (docs/bench.md, "Per op on compute v0.1.14").
func BenchmarkFFN(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rows := range []int{1600, 14400} {
		x := testutil.NormalTensor(rng, rows, 32)
		fusedDense := func(scope *model.Scope, x *Node, act activation.Type, out int) *Node {
			scope = scope.In("dense")
			in := x.Shape().Dimensions[1]
			w := scope.VariableWithShape("weights", shapes.Make(x.DType(), in, out)).NodeValue(x.Graph())
			bias := scope.VariableWithShape("biases", shapes.Make(x.DType(), out)).NodeValue(x.Graph())
			return nn.Dense(x, w, bias, compute.DenseLayoutInputOutputs, act)
		}
		for name, ffn := range map[string]func(scope *model.Scope, x *Node) *Node{
			"ours": func(scope *model.Scope, x *Node) *Node {
				return Dense(scope.In("o"), Relu(Dense(scope.In("h"), x, true, 128)), true, 32)
			},
			"layers.Dense+activation.Relu": func(scope *model.Scope, x *Node) *Node {
				return layers.Dense(scope.In("o"), activation.Relu(layers.Dense(scope.In("h"), x, true, 128)), true, 32)
			},
			"nn.Dense(relu fused)": func(scope *model.Scope, x *Node) *Node {
				return fusedDense(scope.In("o"), fusedDense(scope.In("h"), x, activation.TypeRelu, 128), activation.TypeNone, 32)
			},
			"ours+activation.Relu": func(scope *model.Scope, x *Node) *Node {
				return Dense(scope.In("o"), activation.Relu(Dense(scope.In("h"), x, true, 128)), true, 32)
			},
		} {
			store := model.NewStore()
			exec := model.MustNewExec(be, store, func(scope *model.Scope, x *Node) []*Node {
				y := ffn(scope, x)
				loss := ReduceAllSum(Mul(y, y))
				wrt := []*Node{x}
				for v := range store.IterVariables() {
					wrt = append(wrt, v.NodeValue(x.Graph()))
				}
				return Gradient(loss, wrt...)
			})
			b.Run(fmt.Sprintf("rows=%d/%s", rows, name), func(b *testing.B) {
				for b.Loop() {
					for _, o := range exec.MustCall(x) {
						o.FinalizeAll()
					}
				}
			})
		}
	}
}
