// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"os"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
)

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }

// TestHyperparametersPage checks that docs/hyperparameters.md has one row for every hyperparameter that
// Params declares (this package's, latformer's, layers' and experts'), with its default, and none for another key; and
// that the row of latformer.ParamRestartExperts explains every letter experts.CheckFamilies accepts, "x (...)".
func TestHyperparametersPage(t *testing.T) {
	const page = "../docs/hyperparameters.md"
	testutil.CheckParamsPage(t, page, DefaultParams())
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "| `"+latformer.ParamRestartExperts+"` |") {
			row = line
		}
	}
	letters := 0
	for c := 'a'; c <= 'z'; c++ {
		if experts.CheckFamilies(string(c)) != nil {
			continue
		}
		letters++
		if !strings.Contains(row, string(c)+" (") {
			t.Errorf("%s: the row of %s does not explain the letter %c, \"%c (...)\"", page, latformer.ParamRestartExperts, c, c)
		}
	}
	if letters < 7 {
		t.Errorf("experts.CheckFamilies accepts %d letters, want t, z, v, h, r, f, s at least", letters)
	}
}

// TestFormerKeys checks that the solver's keys issue 45 renamed or folded still read, as the settings that keep
// their meaning, with a warning naming each.
func TestFormerKeys(t *testing.T) {
	testutil.CheckFormerKeys(t, Params(), [][2]string{
		{"gate_init_fallback=false", "search_fallback=false"},
		{"gate_init_grid=false", "search_lattices=canvas"},
		{"gate_init_anchored=false", "search_lattices=grid"},
		{"gate_init_grid=true;gate_init_anchored=true", "search_lattices=anchored"},
	}, []string{"gate_init_fallback", "gate_init_grid", "gate_init_anchored"})
}

// TestKeyCount holds the number of hyperparameters to issue 45's target, moved to 45 by issue 67's
// expert_translation_gates, expert_frame_candidates, augment_frame_copies, train_hard_patience and
// train_shift_restarts: at most 45
// keys of this module (arcsolver's, latformer's, layers' and experts'; GoMLX's optimizer keys not counted). A
// new knob takes an old one's place, or says in docs/hyperparameters.md why the target moved.
func TestKeyCount(t *testing.T) {
	own := 0
	for k := range Params() {
		if k != optimizer.ParamOptimizer && k != optimizer.ParamLearningRate {
			own++
		}
	}
	if own > 45 {
		t.Errorf("%d hyperparameters (arcsolver, latformer, layers, experts), want at most 45", own)
	}
}
