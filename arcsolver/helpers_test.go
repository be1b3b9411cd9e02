// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// newTestLearner returns a learner for a side x side canvas with the model's hyperparameters of settings;
// the solver's (gate_init) are kept for searchFor.
func newTestLearner(t testing.TB, backend compute.Backend, settings string, side int) *latformer.Learner {
	t.Helper()
	own, learning, err := split(latformer.LatFormerArchitecture(), parse(t, settings))
	if err != nil {
		t.Fatal(err)
	}
	store, err := latformer.NewStore(learning)
	if err != nil {
		t.Fatal(err)
	}
	l, err := latformer.NewLearner(backend, store, side, side)
	if err != nil {
		t.Fatal(err)
	}
	policies.Store(l, own)
	return l
}

// policies holds the solver's settings of each learner newTestLearner made.
var policies sync.Map

// parse reads settings in the --set syntax (ParseSettings), failing t on an error.
func parse(t testing.TB, text string) hparams.Settings {
	t.Helper()
	s, err := ParseSettings(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// examples returns num pairs of the action on grid x grid inputs placed on a canvas x canvas canvas, and
// the outputs.
func examples(t testing.TB, rng *rand.Rand, action lattice.Action, canvas, grid, num int) ([]latformer.Example, []datasets.Canvas) {
	t.Helper()
	_, ins, outs, err := datasets.ActionExamples(rng, action, canvas, canvas, grid, grid, num)
	if err != nil {
		t.Fatal(err)
	}
	ex := make([]latformer.Example, num)
	for i := range ex {
		ex[i] = latformer.Example{Input: ins[i], Output: outs[i]}
	}
	return ex, outs
}

// searchFor returns the starts the Solver gives Fit on train for the learner's settings: the lattice search's
// proposals on the canvas with gate_init=search (nil with gate_init=paper or a model without mask experts).
func searchFor(t *testing.T, l *latformer.Learner, train []latformer.Example) *latformer.Starts {
	t.Helper()
	own, ok := policies.Load(l)
	if !ok || param[string](own.(policy), ParamGateInit) != GateInitSearch ||
		l.Architecture().Name != latformer.LatFormerArchitecture().Name {
		return nil
	}
	search, err := searchLattice(l.Expert(), train, latformer.Param[int](l.Store(), latformer.ParamRestarts), false, false)
	if err != nil {
		t.Fatal(err)
	}
	return search.starts(train)
}

// fitPredict fits the learner on train, started as the Solver starts it (searchFor), and returns the fit
// and the predictions for test.
func fitPredict(t *testing.T, l *latformer.Learner, train, test []latformer.Example) (latformer.FitResult, []latformer.Prediction) {
	t.Helper()
	fit, err := l.Fit(train, searchFor(t, l, train), nil)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := l.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	return fit, preds
}

// fitAndPredict fits the learner on train and returns the fit and the predicted cells of test.
func fitAndPredict(t *testing.T, l *latformer.Learner, train, test []latformer.Example) (latformer.FitResult, [][]int32) {
	t.Helper()
	fit, preds := fitPredict(t, l, train, test)
	cells := make([][]int32, len(preds))
	for i, p := range preds {
		cells[i] = p.Canvas.Cells
	}
	return fit, cells
}

// perCell is a model without mask experts: every cell's logits from its own token only.
func perCell() latformer.Architecture {
	return latformer.Architecture{
		Name:   "per_cell",
		Params: hparams.NewTable(hparams.Def("per_cell_dim", 16).AtLeast(1)),
		Build: func(scope *model.Scope, rows, cols int, tokens, cond *Node) *latformer.Outputs {
			d := model.GetParamOr(scope, "per_cell_dim", 16)
			x := layers.Embedding(scope.In("embed"), tokens, dtypes.Float32, datasets.NumTokens, d)
			return &latformer.Outputs{Logits: layers.Dense(scope.In("head"), x, true, datasets.NumTokens)}
		},
	}
}

// mustStore returns a store of the architecture's hyperparameters with settings on top.
func mustStore(t *testing.T, arch latformer.Architecture, settings string) *model.Store {
	t.Helper()
	parsed, err := ParseSettingsFor(arch, settings)
	if err != nil {
		t.Fatal(err)
	}
	_, learning, err := split(arch, parsed)
	if err != nil {
		t.Fatal(err)
	}
	s, err := latformer.NewStoreFor(arch, learning)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
