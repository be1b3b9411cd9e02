// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"strings"
	"testing"
)

// TestRecipeLookup checks that every recipe of Recipes is found by its name, the names distinct, and that
// an unknown name is an error that names it and every known recipe.
func TestRecipeLookup(t *testing.T) {
	book := Recipes()
	seen := map[string]bool{}
	for _, r := range book {
		if seen[r.Name] {
			t.Errorf("recipe %q twice", r.Name)
		}
		seen[r.Name] = true
		got, err := book.Lookup(r.Name)
		if err != nil || got.Name != r.Name || got.Settings.String() != r.Settings.String() {
			t.Errorf("Lookup(%q) = %q %q, %v", r.Name, got.Name, got.Settings, err)
		}
	}
	for _, name := range []string{"default", "paper", "nosearch"} {
		if !seen[name] {
			t.Errorf("no recipe %q in %v", name, book.Names())
		}
	}
	_, err := book.Lookup("papr")
	if err == nil {
		t.Fatal(`Lookup("papr"): no error`)
	}
	for _, want := range append([]string{`unknown recipe "papr"`}, book.Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(\"papr\"): %v; want it to contain %q", err, want)
		}
	}
}

// TestRecipeSettings checks each recipe's settings against what they replace: RecipePaper is `--set
// gate_init=paper`, RecipeNoSearch the Makefile's former NOSEARCH_SETTINGS and issue 67's frames, the
// evaluation recipes the former settings of make arc-evaluation, the default nothing; every recipe's settings
// are accepted by Params unchanged (keys declared, values of their types) and its doc names each key it sets
// and the page where it was chosen.
func TestRecipeSettings(t *testing.T) {
	table := Params()
	want := map[string]string{
		"default": "",
		"paper":   "gate_init=paper",
		"nosearch": "gate_init=paper;train_steps=200;train_hard_steps=300;train_hard_patience=20;fit_patience=20;train_restarts=2;train_max_cells=0;train_restart_experts=z,all;train_gate_beam=4;train_gate_beam_steps=15;augment_copies=6;" +
			"expert_frame_candidates=64;augment_frame_copies=4;train_shift_restarts=t,t",
		"evaluation":       "search_screen=true",
		"paper-evaluation": "gate_init=paper;search_screen=true",
		"nosearch-evaluation": "gate_init=paper;train_steps=200;train_hard_steps=300;train_hard_patience=20;fit_patience=20;train_restarts=2;train_max_cells=0;train_restart_experts=z,all;train_gate_beam=4;train_gate_beam_steps=15;augment_copies=6;" +
			"expert_frame_candidates=64;augment_frame_copies=4;train_shift_restarts=t,t;search_screen=true",
	}
	if n := len(Recipes()); n != len(want) {
		t.Fatalf("%d recipes, want %d", n, len(want))
	}
	for _, r := range Recipes() {
		text, ok := want[r.Name]
		if !ok {
			t.Errorf("recipe %q: no settings to compare with", r.Name)
			continue
		}
		parsed, err := table.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if r.Settings.String() != parsed.String() || len(r.Settings) != len(parsed) {
			t.Errorf("recipe %s: settings %q, want %q", r.Name, r.Settings, parsed)
		}
		for i, s := range parsed {
			if r.Settings[i].Value != s.Value { // same type too: "200" would not be 200
				t.Errorf("recipe %s: %s=%v (%T), want %v (%T)", r.Name, s.Key, r.Settings[i].Value, r.Settings[i].Value, s.Value, s.Value)
			}
		}
		checked, err := table.Check(r.Settings)
		if err != nil || checked.String() != r.Settings.String() {
			t.Errorf("recipe %s: Params().Check: %q, %v", r.Name, checked, err)
		}
		for _, s := range r.Settings {
			if !strings.Contains(r.Doc, s.Key) {
				t.Errorf("recipe %s: its doc does not name %s", r.Name, s.Key)
			}
		}
		if !strings.Contains(r.Doc, "docs/") || !strings.Contains(r.Doc, "results/") {
			t.Errorf("recipe %s: its doc names no docs/ page (where it was chosen) or no results/ file", r.Name)
		}
	}
}
