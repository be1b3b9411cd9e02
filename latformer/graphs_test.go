// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
)

// TestCrossEntropyMasksRows checks the padded-rows loss (ParamPadPairs): with rows [true, false, true,
// false], crossEntropy equals the unmasked loss of rows 0 and 2 alone and the explicit mean over their
// cells of -log softmax(logits)[target]; its gradient is zero on the logits of the masked rows and
// equals the explicit formula's gradient on the real ones.
func TestCrossEntropyMasksRows(t *testing.T) {
	backend := testutil.Backend(t)
	const batch, n, k = 4, 5, datasets.NumTokens
	rng := rand.New(rand.NewPCG(3, 4))
	logits := make([]float32, batch*n*k)
	for i := range logits {
		logits[i] = float32(rng.NormFloat64() * 2)
	}
	targets := make([]int32, batch*n)
	for i := range targets {
		targets[i] = int32(rng.IntN(k))
	}
	rows := []bool{true, false, true, false}
	outs := MustExecOnceN(backend, func(logits, targets, rows *Node) []*Node {
		masked := crossEntropy(logits, targets, rows)
		pick := func(x *Node) *Node {
			return Concatenate([]*Node{Slice(x, AxisElem(0)), Slice(x, AxisElem(2))}, 0)
		}
		realOnly := crossEntropy(pick(logits), pick(targets), nil)
		// The explicit formula: -log softmax at the target, averaged over the real rows' cells.
		perCell := Neg(ReduceSum(Mul(OneHot(targets, k, dtypes.Float32), LogSoftmax(logits, -1)), -1))
		mask := BroadcastToDims(ExpandAxes(rows, -1), batch, n)
		explicit := MaskedReduceAllMean(perCell, mask)
		return []*Node{masked, realOnly, explicit, Gradient(masked, logits)[0], Gradient(explicit, logits)[0]}
	}, tensors.FromFlatDataAndDimensions(logits, batch, n, k), tensors.FromFlatDataAndDimensions(targets, batch, n), rows)
	masked, realOnly, explicit := tensors.ToScalar[float32](outs[0]), tensors.ToScalar[float32](outs[1]), tensors.ToScalar[float32](outs[2])
	t.Logf("masked %.9g, real rows only %.9g, explicit %.9g", masked, realOnly, explicit)
	if math.Abs(float64(masked-realOnly)) > 1e-6 || math.Abs(float64(masked-explicit)) > 1e-6 {
		t.Errorf("masked loss %g, want the real rows' loss %g = the explicit formula's %g", masked, realOnly, explicit)
	}
	grad, explicitGrad := tensors.MustCopyFlatData[float32](outs[3]), tensors.MustCopyFlatData[float32](outs[4])
	maxDiff, realNonZero := 0.0, 0
	for i, g := range grad {
		row := i / (n * k)
		if !rows[row] {
			if g != 0 {
				t.Fatalf("gradient %g on a logit of masked row %d", g, row)
			}
			continue
		}
		if g != 0 {
			realNonZero++
		}
		maxDiff = max(maxDiff, math.Abs(float64(g-explicitGrad[i])))
	}
	t.Logf("largest gradient difference from the explicit formula's: %g", maxDiff)
	if realNonZero == 0 || maxDiff > 1e-7 {
		t.Errorf("real rows: %d non-zero gradients, largest difference %g from the explicit formula's", realNonZero, maxDiff)
	}
}
