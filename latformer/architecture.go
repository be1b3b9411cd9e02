// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"
)

// Architecture is a model that a Learner trains task by task: LatFormer (the default, LatFormerArchitecture)
// or another with the same inputs and outputs, such as the baselines of package baselines. The learner's
// training protocol (augmentation, steps, early stopping, restarts, prediction) is the same for all.
type Architecture struct {
	// Name identifies the architecture (the CLI's --model flag, the results' model column).
	Name string
	// Params declares the architecture's own hyperparameters, with their defaults and the values each
	// accepts: NewStoreFor adds them to DefaultParams, so that --set accepts and checks them.
	Params hparams.Table
	// Build builds the outputs for tokens [batch, rows*cols] (int32 tokens 0..10, row-major canvas) and
	// the optional conditioning cond [batch, dc] (nil for none). Outputs.Logits is required; Gates (and
	// Gates2) are nil for a model without mask experts, whose predictions then carry no gates or action.
	Build func(scope *model.Scope, rows, cols int, tokens, cond *Node) *Outputs
	// BuildAutoregressive, when not nil, is used instead of Build for an autoregressive model (the
	// PixelCNN baseline): it also gets previous [batch, rows*cols] int32, the output canvas so far, and
	// must make the logits of cell k depend on previous only through the cells before k (row-major).
	// The learner trains it on the target canvas (teacher forcing) and predicts cell by cell: rows*cols
	// passes, each fixing one more cell of previous.
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
