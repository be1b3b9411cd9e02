// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"testing"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/internal/testutil"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
)

// TestSolverArchitecture checks that a Solver trains the architecture it is given, the autoregressive
// PixelCNN included (a Solver without one trains LatFormer), and that the result names it.
func TestSolverArchitecture(t *testing.T) {
	backend := testutil.Backend(t)
	g := func(a, b, c, d int) datasets.Grid { return datasets.Grid{{a, b}, {c, d}} }
	task := datasets.Task{ID: "t", Train: []datasets.Pair{{Input: g(1, 2, 3, 4), Output: g(2, 1, 4, 3)}, {Input: g(5, 6, 7, 8), Output: g(6, 5, 8, 7)}},
		Test: []datasets.Pair{{Input: g(1, 3, 5, 7), Output: g(3, 1, 7, 5)}}}
	for _, name := range []string{"", "pixelcnn", "cnn"} {
		s, err := NewSolver(backend, Options{Model: name, Settings: parse(t, "train_steps=3;augment_copies=1;train_restarts=1")})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(task, nil, nil)
		s.Close()
		want := name
		if want == "" {
			want = "latformer"
		}
		if err != nil || res.Model != want || res.TestTotal != 1 || len(res.Predictions) != 1 {
			t.Errorf("architecture %q: model %q, %d tests, %d predictions, %v", name, res.Model, res.TestTotal, len(res.Predictions), err)
		}
	}
}

// parse reads LatFormer's settings in the --set syntax (arcsolver.ParseSettings), failing t on an error.
func parse(t testing.TB, text string) hparams.Settings {
	t.Helper()
	s, err := arcsolver.ParseSettings(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
