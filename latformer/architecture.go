// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"
)

// Architecture is a model that a Learner trains task by task: LatFormer (LatFormerArchitecture, the
// default) or another with the same inputs and outputs, such as the baselines. All share the learner's
// training protocol.
type Architecture struct {
	// Name identifies the architecture (the CLI's --model flag, the results' model column).
	Name string
	// Params declares the architecture's own hyperparameters. NewStoreFor adds them to DefaultParams,
	// so that --set accepts and checks them.
	Params hparams.Table
	// Build builds the outputs for tokens [batch, rows*cols] int32 and optional conditioning cond
	// [batch, dc]. Outputs.Logits is required. A model without mask experts leaves Gates nil.
	Build func(scope *model.Scope, rows, cols int, tokens, cond *Node) *Outputs
	// BuildAutoregressive, when not nil, replaces Build for an autoregressive model such as the PixelCNN
	// baseline. It also gets previous [batch, rows*cols] int32, the output canvas so far. The logits of
	// cell k must depend on previous only through the cells before k (row-major). The learner trains it
	// with teacher forcing and predicts cell by cell, in rows*cols passes.
	BuildAutoregressive func(scope *model.Scope, rows, cols int, tokens, previous, cond *Node) *Outputs
}

// Autoregressive reports whether the architecture predicts its output cell by cell (BuildAutoregressive).
func (a Architecture) Autoregressive() bool { return a.BuildAutoregressive != nil }

// LatFormerArchitecture is the paper's model (Model.Build), what NewLearner trains.
func LatFormerArchitecture() Architecture {
	return Architecture{
		Name: "latformer",
		Build: func(scope *model.Scope, rows, cols int, tokens, cond *Node) *Outputs {
			return Model{Rows: rows, Cols: cols}.Build(scope, tokens, cond)
		},
	}
}

// NewStoreFor is NewStore for an architecture: the defaults of ParamsFor(arch), with settings on top.
func NewStoreFor(arch Architecture, settings hparams.Settings) (*model.Store, error) {
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	if settings, err = t.Check(settings); err != nil {
		return nil, err
	}
	store := model.NewStore()
	store.SetParams(t.Defaults())
	settings.Apply(store)
	return store, nil
}
