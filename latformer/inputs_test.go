// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// TestInputLayouts checks that the exec inputs unpack to what was packed for every layout (with and
// without conditioning, padding rows and autoregressive decoding), that an input the layout leaves out is
// neither passed nor unpacked, and that the compiled shapes come in the same order as the arguments.
func TestInputLayouts(t *testing.T) {
	for _, condDim := range []int{0, 3} {
		for _, padPairs := range []int{1, 4} {
			for _, autoregressive := range []bool{false, true} {
				l := &Learner{rows: 2, cols: 3, condDim: condDim, padPairs: padPairs}
				if autoregressive {
					l.arch.BuildAutoregressive = func(*model.Scope, int, int, *Node, *Node, *Node) *Outputs { return nil }
				}
				step := stepInputs[int]{tokens: 1, targets: 2, cond: 3, rows: 4}
				want := stepInputs[int]{tokens: 1, targets: 2}
				if condDim > 0 {
					want.cond = 3
				}
				if padPairs > 1 {
					want.rows = 4
				}
				list := step.list(l)
				if got := stepInputsOf(l, list); got != want {
					t.Errorf("cond %d, pad %d: step inputs %v unpack to %+v, want %+v", condDim, padPairs, list, got, want)
				}
				shapes := stepInputShapes(l, 5)
				if len(shapes) != len(list) || shapes[1].Dimensions[1] != 6 || (padPairs > 1) != (shapes[len(shapes)-1].Rank() == 1) {
					t.Errorf("cond %d, pad %d: step shapes %v for the inputs %v", condDim, padPairs, shapes, list)
				}
				pred := predictInputs[int]{tokens: 1, previous: 2, cond: 3}
				wantPred := predictInputs[int]{tokens: 1}
				if autoregressive {
					wantPred.previous = 2
				}
				if condDim > 0 {
					wantPred.cond = 3
				}
				list = pred.list(l)
				if got := predictInputsOf(l, list); got != wantPred {
					t.Errorf("cond %d, autoregressive %v: prediction inputs %v unpack to %+v, want %+v", condDim, autoregressive, list, got, wantPred)
				}
				predShapes := predictInputShapes(l)
				if len(predShapes) != len(list) || predShapes[0].Dimensions[0] != predictChunk || (condDim > 0) != (predShapes[len(predShapes)-1].DType == dtypes.Float32) {
					t.Errorf("cond %d, autoregressive %v: prediction shapes %v for the inputs %v", condDim, autoregressive, predShapes, list)
				}
			}
		}
	}
}
