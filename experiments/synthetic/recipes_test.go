// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/latformer"
)

// TestRecipeFig5NoSearch checks that RecipeFig5NoSearch is the Makefile's former FIG5_NOSEARCH_SETTINGS,
// value for value, that a latformer unit of Figure 5 trains with it on top of the model's settings (the
// paper's gate initialization kept), and that Recipes is latformer's and it, each found by its name.
func TestRecipeFig5NoSearch(t *testing.T) {
	const former = "train_steps=200;train_gate_beam=4;train_gate_beam_steps=25;train_hard_steps=100;train_restart_experts=t,all,all;train_gate_beam_neighbors=true"
	parsed, err := arcsolver.Params().Parse(former)
	if err != nil {
		t.Fatal(err)
	}
	r := RecipeFig5NoSearch
	if len(r.Settings) != len(parsed) {
		t.Fatalf("%s: %q, want %q", r.Name, r.Settings, parsed)
	}
	for i, s := range parsed {
		if r.Settings[i] != s {
			t.Errorf("%s: setting %d is %v (%T), want %v (%T)", r.Name, i, r.Settings[i], r.Settings[i].Value, s, s.Value)
		}
	}
	o := Options{Steps: 300, Settings: r.Settings}
	unit := o.settings(ModelLatFormer, 0)
	for key, want := range map[string]any{arcsolver.ParamGateInit: arcsolver.GateInitPaper, latformer.ParamSteps: 200,
		latformer.ParamRestarts: 3, latformer.ParamRestartExperts: "t,all,all", latformer.ParamGateBeamNeighbors: true} {
		if got, _ := unit.Get(key); got != want {
			t.Errorf("a latformer unit with %s: %s=%v, want %v", r.Name, key, got, want)
		}
	}
	book := Recipes()
	if want := append(arcsolver.Recipes().Names(), r.Name); !slices.Equal(book.Names(), want) {
		t.Errorf("Recipes: %v, want %v", book.Names(), want)
	}
	if got, err := book.Lookup(r.Name); err != nil || got.Name != r.Name {
		t.Errorf("Lookup(%q): %q, %v", r.Name, got.Name, err)
	}
	if _, err := arcsolver.Recipes().Lookup(r.Name); err == nil || !strings.Contains(err.Error(), "known: default, paper") {
		t.Errorf("arcsolver.Recipes().Lookup(%q): %v, want an unknown recipe", r.Name, err)
	}
}
