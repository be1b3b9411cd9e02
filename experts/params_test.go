// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"testing"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/testutil"
)

// TestParam checks the experts' hyperparameters: on an empty store Param gives every key the default of
// DefaultParams, and ExpertFromScope builds the expert from them (5 translation layers capped at the 4
// a 16-cell side needs, 5 scales, 64 hidden gate units, flip and translation gates at -2); values set
// in the store win, an int given for a float64 key and a float64 for an int key (as --set may give
// them) are converted; changing the map DefaultParams returns changes no default.
func TestParam(t *testing.T) {
	root := model.NewStore().RootScope()
	defaults := DefaultParams()
	if len(defaults) != 10 {
		t.Errorf("DefaultParams has %d keys, want 10: %v", len(defaults), defaults)
	}
	for key, def := range defaults {
		var got any
		switch def.(type) {
		case bool:
			got = Param[bool](root, key)
		case int:
			got = Param[int](root, key)
		case float64:
			got = Param[float64](root, key)
		case string:
			got = Param[string](root, key)
		default:
			t.Fatalf("default of %q is a %T", key, def)
		}
		if got != def {
			t.Errorf("Param(%q) on an empty store = %v, want the default %v", key, got, def)
		}
	}
	e := ExpertFromScope(root, 16, 16)
	want := Expert{Rows: 16, Cols: 16, Translation: true, Rotation: true, Reflection: true, Scaling: true,
		TranslationLayers: 4, MaxScale: 5, GateHidden: 64, SmoothingTime: 1, FlipGateInit: -2, TranslationGateInit: -2,
		ZeroFill: true}
	if e != want {
		t.Errorf("ExpertFromScope with the defaults = %+v, want %+v", e, want)
	}
	defaults[ParamGateHidden] = 3 // a copy: Param keeps the default
	if got := Param[int](root, ParamGateHidden); got != 64 {
		t.Errorf("Param(%q) after changing DefaultParams' map = %d, want 64", ParamGateHidden, got)
	}

	store := model.NewStore()
	store.RootScope().SetParams(map[string]any{ParamExperts: "translation,reflection,scaling", ParamMaxScale: 3.0, ParamGateHidden: 8,
		ParamTranslationGates: TranslationGatesSoftmax})
	e = ExpertFromScope(store.RootScope().In("latformer_0"), 16, 16)
	if e.Rotation || e.MaxScale != 3 || e.GateHidden != 8 || !e.Reflection || !e.ShiftSoftmax {
		t.Errorf("ExpertFromScope with rotation off, max scale 3.0, 8 hidden units, softmax shifts = %+v", e)
	}
}

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }
