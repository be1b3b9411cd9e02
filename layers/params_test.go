// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"testing"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/testutil"
)

// TestParam checks the layer's hyperparameters: on an empty store Param gives every key the default of
// DefaultParams (heads 1, FFN width 0, full attention, one action); a value set in the store wins, also
// one set at the root and read from a sub-scope, and an int given as a float64 (as --set may give it) is
// converted; changing the map DefaultParams returns changes no default.
func TestParam(t *testing.T) {
	want := map[string]any{ParamNumHeads: 1, ParamFFNDim: 0, ParamAttention: AttentionFull, ParamActions: 1}
	defaults := DefaultParams()
	if len(defaults) != len(want) {
		t.Fatalf("DefaultParams has %d keys, want %d: %v", len(defaults), len(want), defaults)
	}
	root := model.NewStore().RootScope()
	for key, w := range want {
		if defaults[key] != w {
			t.Errorf("DefaultParams()[%q] = %v, want %v", key, defaults[key], w)
		}
		var got any
		if _, isString := w.(string); isString {
			got = Param[string](root, key)
		} else {
			got = Param[int](root, key)
		}
		if got != w {
			t.Errorf("Param(%q) on an empty store = %v, want %v", key, got, w)
		}
	}
	defaults[ParamActions] = 7 // a copy: Param keeps the default
	if got := Param[int](root, ParamActions); got != 1 {
		t.Errorf("Param(%q) after changing DefaultParams' map = %d, want 1", ParamActions, got)
	}

	store := model.NewStore()
	store.RootScope().SetParams(map[string]any{ParamNumHeads: 4, ParamActions: 2.0, ParamAttention: AttentionMaskOnly})
	sub := store.RootScope().In("latformer_0")
	if got := Param[int](sub, ParamNumHeads); got != 4 {
		t.Errorf("Param(%q) set to 4 = %d", ParamNumHeads, got)
	}
	if got := Param[int](sub, ParamActions); got != 2 {
		t.Errorf("Param(%q) set to float64 2 = %d, want 2", ParamActions, got)
	}
	if got := Param[string](sub, ParamAttention); got != AttentionMaskOnly {
		t.Errorf("Param(%q) = %q, want %q", ParamAttention, got, AttentionMaskOnly)
	}
	if got := Param[int](sub, ParamFFNDim); got != 0 {
		t.Errorf("Param(%q) not set = %d, want the default 0", ParamFFNDim, got)
	}
}

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }
