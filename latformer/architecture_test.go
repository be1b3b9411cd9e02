// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/lattice"
)

// perCell is a model without mask experts: every cell's logits from its own token only (an embedding
// and a dense layer), with one hyperparameter of its own.
func perCell() Architecture {
	return Architecture{
		Name:   "per_cell",
		Params: hparams.NewTable(hparams.Def("per_cell_dim", 16).AtLeast(1)),
		Build: func(scope *model.Scope, rows, cols int, tokens, cond *Node) *Outputs {
			d := model.GetParamOr(scope, "per_cell_dim", 16)
			x := layers.Embedding(scope.In("embed"), tokens, dtypes.Float32, datasets.NumTokens, d)
			return &Outputs{Logits: layers.Dense(scope.In("head"), x, true, datasets.NumTokens)}
		},
	}
}

// TestArchitecture checks that a Learner trains another architecture with the same protocol: a per-cell
// model fits an identity task and predicts its training pairs, its predictions carry no gates, its own hyperparameter
// is settable, and restarts restricted to an expert family are an error for it.
func TestArchitecture(t *testing.T) {
	arch := perCell()
	if _, err := ParseSettingsFor(arch, "per_cell_dim=8;train_steps=3"); err != nil {
		t.Fatalf("own and common hyperparameters: %v", err)
	}
	if _, err := ParseSettingsFor(arch, "per_cell_dims=8"); err == nil {
		t.Error("an unknown key was accepted")
	}
	if _, err := ParseSettingsFor(arch, "per_cell_dim=0"); err == nil || !strings.Contains(err.Error(), ">= 1") {
		t.Errorf("a value its declaration refuses: error %v", err)
	}
	clash := arch
	clash.Params = hparams.NewTable(hparams.Def(ParamSteps, 3))
	if _, err := NewStoreFor(clash, nil); err == nil || !strings.Contains(err.Error(), ParamSteps) {
		t.Errorf("redefining %s: error %v", ParamSteps, err)
	}

	backend := testutil.Backend(t)
	store, err := NewStoreFor(arch, hparams.Settings{{Key: ParamSteps, Value: 200}, {Key: ParamAugment, Value: 4}, {Key: optimizer.ParamLearningRate, Value: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLearnerFor(arch, backend, store, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(41, 42))
	identity := lattice.Translation{Deltas: []int{0, 0}}
	train, wants := examples(t, rng, identity, 5, 4, 3)
	fit, preds := fitPredict(t, l, train, train)
	if !fit.Fitted {
		t.Errorf("the per-cell model did not fit the identity task: loss %.4f", fit.Loss)
	}
	for i, p := range preds {
		if p.Gates != nil || p.Action != nil {
			t.Errorf("prediction %d of a model without experts has gates %v, action %v", i, p.Gates, p.Action)
		}
		if !slices.Equal(p.Canvas.Cells, wants[i].Cells) {
			t.Errorf("training pair %d is predicted wrongly though the model fitted:\n got %v\nwant %v", i, p.Canvas.Cells, wants[i].Cells)
		}
	}
	if l.Architecture().Name != "per_cell" {
		t.Errorf("Architecture().Name = %q", l.Architecture().Name)
	}
	bad, err := NewLearnerFor(arch, backend, mustStore(t, arch, "train_steps=2;train_restart_experts=t"), 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Fit(train, nil, nil); err == nil || !strings.Contains(err.Error(), "no mask expert") {
		t.Errorf("restarts restricted to translations on a model without experts: error %v", err)
	}
}

func mustStore(t *testing.T, arch Architecture, settings string) *model.Store {
	t.Helper()
	parsed, err := ParseSettingsFor(arch, settings)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStoreFor(arch, parsed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestArchitectureRegularization checks that the training loss adds the terms an architecture registers
// with GoMLX's train.AddRegularizationLoss while building (as the DNC baseline does): a per-cell model with
// the term 100 + (s - 5)² of a variable s that nothing else uses reports a loss above 100, and training
// moves s to 5, which only the term's gradient can do.
func TestArchitectureRegularization(t *testing.T) {
	arch := perCell()
	build := arch.Build
	var s *model.Variable
	arch.Build = func(scope *model.Scope, rows, cols int, tokens, cond *Node) *Outputs {
		out := build(scope, rows, cols, tokens, cond)
		g := tokens.Graph()
		s = scope.VariableWithShape("s", shapes.Make(dtypes.Float32))
		train.AddRegularizationLoss(AddScalar(Square(AddScalar(s.NodeValue(g), -5)), 100))
		return out
	}
	backend := testutil.Backend(t)
	l, err := NewLearnerFor(arch, backend, mustStore(t, arch, "train_steps=300;augment_copies=1;train_restarts=1;fit_patience=0;learning_rate=0.05"), 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(43, 44))
	pairs, _ := examples(t, rng, lattice.Translation{Deltas: []int{0, 0}}, 4, 3, 2)
	fit, err := l.Fit(pairs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := float64(tensors.ToScalar[float32](s.MustValue()))
	t.Logf("loss %.4f, s = %.4f", fit.Loss, got)
	if fit.Loss < 100 || fit.Loss > 105 {
		t.Errorf("training loss %.4f, want the cross-entropy plus 100", fit.Loss)
	}
	if math.Abs(got-5) > 0.1 {
		t.Errorf("s = %.4f after training, want 5 (the regularization term's minimum)", got)
	}
}
