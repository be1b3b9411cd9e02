// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/lattice"
)

// newTestLearner returns a learner for a side x side canvas with the hyperparameters of settings.
func newTestLearner(t testing.TB, backend compute.Backend, settings string, side int) *Learner {
	t.Helper()
	store, err := NewStore(parse(t, settings))
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLearner(backend, store, side, side)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// parse reads settings in the --set syntax (ParseSettings), failing t on an error.
func parse(t testing.TB, text string) hparams.Settings {
	t.Helper()
	s, err := ParseSettings(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func examples(t testing.TB, rng *rand.Rand, action lattice.Action, canvas, grid, num int) ([]Example, []datasets.Canvas) {
	t.Helper()
	_, ins, outs, err := datasets.ActionExamples(rng, action, canvas, canvas, grid, grid, num)
	if err != nil {
		t.Fatal(err)
	}
	ex := make([]Example, num)
	for i := range ex {
		ex[i] = Example{Input: ins[i], Output: outs[i]}
	}
	return ex, outs
}

// TestLearnerLearnsActions trains a fresh LatFormer per task on 8 example pairs of a small canvas and
// checks that it predicts 30 held-out pairs exactly and that the discretized gates read back an element
// that acts on the test inputs as the true one.
func TestLearnerLearnsActions(t *testing.T) {
	backend := testutil.Backend(t)
	tasks := []struct {
		action lattice.Action
		grid   int
	}{
		{lattice.Translation{Deltas: []int{1, 2}}, 4},
		{lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, 6},
	}
	for i, task := range tasks {
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		train, _ := examples(t, rng, task.action, 6, task.grid, 8)
		test, want := examples(t, rng, task.action, 6, task.grid, 30)
		learner := newTestLearner(t, backend, "train_steps=400;augment_copies=4", 6)
		res, preds := fitPredict(t, learner, train, test)
		exact := 0
		for j, p := range preds {
			if fmt.Sprint(p.Canvas.Cells) == fmt.Sprint(want[j].Cells) {
				exact++
			}
		}
		// The learned element must act as the true one on the test inputs (with zero-fill shifts, the
		// default, a shift that moves no cell past the canvas' edge is as right as the circular translation).
		for j, ex := range test {
			got, err := datasets.ApplyAction(preds[j].Action, ex.Input)
			if err != nil {
				t.Fatal(err)
			}
			want, err := datasets.ApplyAction(task.action, ex.Input)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Cells, want.Cells) {
				t.Errorf("%v: test input %d: learned action %v acts differently", task.action, j, preds[j].Action)
				break
			}
		}
		t.Logf("%v: fitted=%v in %d steps (%s), test exact %d/%d, learned %v", task.action, res.Fitted, res.Steps,
			res.Elapsed.Round(1e6), exact, len(preds), preds[0].Action)
		if exact != len(preds) {
			t.Errorf("%v: only %d/%d test pairs exact", task.action, exact, len(preds))
		}
	}
}

// TestLearnerErrors checks the errors for examples that do not match the learner's canvas.
func TestLearnerErrors(t *testing.T) {
	backend := testutil.Backend(t)
	if _, err := NewLearner(backend, nil, 31, 5); err == nil || !strings.Contains(err.Error(), "1..30") {
		t.Errorf("canvas 31x5: want an error naming the range, got %v", err)
	}
	l, err := NewLearner(backend, nil, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := datasets.ToCanvas(datasets.NewGrid(2, 2, 1), 6, 6)
	if _, err := l.Fit([]Example{{Input: c, Output: c}}, nil, nil); err == nil || !strings.Contains(err.Error(), "6x6") {
		t.Errorf("6x6 canvas on a 5x5 learner: want an error naming the sizes, got %v", err)
	}
	if _, err := l.Fit(nil, nil, nil); err == nil {
		t.Errorf("no examples: want an error")
	}
}

// TestNewStore checks the --set parsing: defaults, overrides with type checking, unknown keys.
func TestNewStore(t *testing.T) {
	s, err := NewStore(parse(t, "model_dim=16;mask_smoothing=true;learning_rate=0.01"))
	if err != nil {
		t.Fatal(err)
	}
	if got := model.GetRootParamOr(s, ParamDim, 0); got != 16 {
		t.Errorf("model_dim = %d, want 16", got)
	}
	if got := model.GetRootParamOr(s, ParamSmoothing, false); !got {
		t.Errorf("mask_smoothing not set")
	}
	if got := model.GetRootParamOr(s, experts.ParamTranslationLayers, 0); got != 5 {
		t.Errorf("default expert_translation_layers = %d, want 5", got)
	}
	for _, bad := range []string{"no_such_key=1", "model_dim=abc", "model_dim"} {
		if _, err := ParseSettings(bad); err == nil {
			t.Errorf("ParseSettings(%q): want an error", bad)
		}
	}
}

// BenchmarkTrainStep times one training step (forward, backward, Adam) of the reference configuration
// (batch 16, d 32, d_ff 128, all four experts) per canvas side. `latformer bench` prints the same as a
// table, side by side with the PyTorch reference.
//
// It runs on the backend users get (backend.New: $GOMLX_BACKEND, else backend.DefaultGo), not the tests'.
func BenchmarkTrainStep(b *testing.B) {
	backend, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, canvas := range []int{10, 20, 30} {
		b.Run(fmt.Sprintf("canvas=%d", canvas), func(b *testing.B) {
			store, err := NewStore(parse(b, "model_dim=32;latformer_ffn_dim=128;augment_copies=1"))
			if err != nil {
				b.Fatal(err)
			}
			l, err := NewLearner(backend, store, canvas, canvas)
			if err != nil {
				b.Fatal(err)
			}
			n := canvas * canvas
			rng := rand.New(rand.NewPCG(1, 2))
			mk := func() *tensors.Tensor {
				t := tensors.FromShape(shapes.Make(dtypes.Int32, 16, n))
				tensors.MustMutableFlatData[int32](t, func(f []int32) {
					for i := range f {
						f[i] = int32(rng.IntN(datasets.NumTokens))
					}
				})
				return t
			}
			tokens, targets := mk(), mk()
			if _, err := l.TrainBatch(tokens, targets); err != nil { // compile
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := l.TrainBatch(tokens, targets); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
