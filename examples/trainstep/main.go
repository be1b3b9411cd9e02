// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Command trainstep is the README's "Use it in your GoMLX model": a GoMLX model built around the
// LatFormer layer, trained for a few steps with GoMLX's own trainer and Adam. Copy this file into your
// module (see the README) and run it; its Example test runs the same code in CI.
package main

import (
	"fmt"
	"log"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	gomlxlayers "github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/layers"
)

// gridModel embeds the 11 tokens (10 colors + pad) of a rows x cols canvas, applies one LatFormer
// layer whose attention is masked by the lattice mask experts, and returns per-cell logits.
func gridModel(scope *model.Scope, tokens *Node, rows, cols int) *Node {
	x := gomlxlayers.Embedding(scope.In("embed"), tokens, dtypes.Float32, 11, 16) // [batch, rows*cols, 16]
	// The mask experts: translation, rotation, reflection, scaling.
	expert := experts.ExpertFromScope(scope, rows, cols)
	out := layers.LatFormer(scope.In("latformer"), x, expert).Done() // also out.Gates, out.Mask
	return gomlxlayers.Dense(scope.In("head"), out.Output, true, 11) // [batch, rows*cols, 11]
}

// trainSteps trains gridModel for the given steps on one batch of 2 canvases whose targets are the inputs
// shifted by one cell, and returns the loss of each step.
func trainSteps(backend compute.Backend, steps int) ([]float32, error) {
	const rows, cols = 6, 6
	store := model.NewStore()
	modelFn := func(scope *model.Scope, spec any, inputs []*Node) []*Node {
		return []*Node{gridModel(scope, inputs[0], rows, cols)}
	}
	trainer := train.NewTrainer(backend, store, modelFn, loss.SparseCategoricalCrossEntropyLogits,
		optimizer.Adam().LearningRate(1e-2).Done(), nil, nil)
	var losses []float32
	for range steps {
		tokens := tensors.FromShape(shapes.Make(dtypes.Int32, 2, rows*cols))
		targets := tensors.FromShape(shapes.Make(dtypes.Int32, 2, rows*cols, 1))
		tensors.MustMutableFlatData[int32](tokens, func(f []int32) {
			for i := range f {
				f[i] = int32(i % 10)
			}
		})
		tensors.MustMutableFlatData[int32](targets, func(f []int32) {
			for i := range f {
				f[i] = int32((i + 1) % 10)
			}
		})
		metrics, err := trainer.TrainStep(train.Batch{
			Inputs: []*tensors.Tensor{tokens},
			Labels: []*tensors.Tensor{targets},
		})
		if err != nil {
			return losses, err
		}
		losses = append(losses, tensors.ToScalar[float32](metrics[0]))
	}
	return losses, nil
}

func main() {
	b, err := backend.New() // GoMLX's pure-Go backend unless $GOMLX_BACKEND says otherwise
	if err != nil {
		log.Fatal(err)
	}
	losses, err := trainSteps(b, 5)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("backend %s: loss %.3f after the first step, %.3f after the fifth\n", backend.Config(), losses[0],
		losses[4])
}
