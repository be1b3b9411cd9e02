// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"strings"
	"testing"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
)

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }

// TestFormerKeys checks that the keys issue 45 renamed or folded still read, as the settings that keep
// their meaning (an expert equal to the one the old keys built), with a warning naming each, and that a
// removed key is an error saying why.
func TestFormerKeys(t *testing.T) {
	testutil.CheckFormerKeys(t, Params(), [][2]string{
		{"gate_init_steps=150", "train_held_steps=150"},
		{"gate_init_unproposed_steps=7", "train_unproposed_steps=7"},
		{"train_restarts_max_cells=0", "train_max_cells=0"},
		{"gate_init_unproposed_max_cells=9", "train_max_cells=9"},
		{"expert_grid_lattice=true", "expert_lattice=grid"},
		{"expert_anchored=true", "expert_lattice=anchored"},
		{"expert_grid_lattice=true;expert_anchored=false", "expert_lattice=grid"},
		{"expert_rotation=false;expert_reflection=false;expert_scaling=false", "experts=translation"},
		{"expert_scaling=false;expert_scaling=true", "experts=all"},
		{"expert_translation=false", "experts=rotation,reflection,scaling"},
	}, []string{"gate_init_steps", "expert_anchored", "expert_rotation"})
	// The experts the old switches built are the new keys' (ExpertFromScope).
	old, now := expertOf(t, "expert_rotation=false;expert_anchored=true"), expertOf(t, "experts=translation,reflection,scaling;expert_lattice=anchored")
	if old != now || old.Rotation || old.Lattice != experts.Anchored || !old.Scaling {
		t.Errorf("the old switches build %+v, the new keys %+v", old, now)
	}
	for _, removed := range []string{"expert_gate_anneal=10", "expert_gate_noise=1", "augment_task_colors=true", "expert_hard_gates=true", "train_restarts_stop_at_fit=false"} {
		if _, err := ParseSettings(removed); err == nil || !strings.Contains(err.Error(), "was removed: ") {
			t.Errorf("%s: error %v, want one saying it was removed and why", removed, err)
		}
	}
	if _, err := ParseSettings("experts=translation,zoom"); err == nil || !strings.Contains(err.Error(), `unknown expert "zoom"`) {
		t.Errorf("experts=translation,zoom: error %v, want one naming the unknown expert", err)
	}
}

// expertOf is the expert of a 6 x 6 canvas under settings.
func expertOf(t *testing.T, settings string) experts.Expert {
	t.Helper()
	s, err := ParseSettings(settings)
	if err != nil {
		t.Fatal(err)
	}
	store, err := NewStore(s)
	if err != nil {
		t.Fatal(err)
	}
	return experts.ExpertFromScope(store.RootScope(), 6, 6)
}
