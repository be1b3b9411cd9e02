// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/testutil"
)

// TestGateVariableOf checks the typed access to the gate variables: every variable an expert's GateLogits
// creates (under "/layer_0/expert") reads as a gate variable of that expert, its hidden layer, last
// layer's weights and biases and free-gate mask each found once with the shapes GateLogits gives them;
// other paths (another layer's, an optimizer's moments of a gate variable, a bare name) are not.
func TestGateVariableOf(t *testing.T) {
	e := DefaultExpert(4, 4)
	store := model.NewStore()
	exec, err := model.NewExec(testutil.Backend(t), store, func(scope *model.Scope, x *Node) *Node {
		return e.GateLogits(scope.In("layer_0").In("expert"), x, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	exec.MustCall(tensors.FromShape(shapes.Make(dtypes.Float32, 2, e.N(), 8)))
	parts := map[GatePart]int{}
	for v := range store.IterVariables() {
		if v.Path() == "/"+model.RNGStateVariableName { // the store's random state, not the expert's
			continue
		}
		g, ok := GateVariableOf(v.Path())
		if !ok || g.Expert != "/layer_0/expert" || g.ExpertScopeName() != "expert" {
			t.Errorf("%s: GateVariableOf = %+v, %v; want a gate variable of /layer_0/expert", v.Path(), g, ok)
			continue
		}
		parts[g.Part]++
		if (g.Part == GateBiases || g.Part == GateFree) && v.Shape().Size() != e.NumGates() {
			t.Errorf("%s: %d values, want one per gate (%d)", v.Path(), v.Shape().Size(), e.NumGates())
		}
	}
	if parts[GateHidden] != 2 || parts[GateWeights] != 1 || parts[GateBiases] != 1 || parts[GateFree] != 1 {
		t.Errorf("gate variables by part %v, want 2 hidden, one each of weights, biases, free", parts)
	}
	for _, path := range []string{"/layer_0/attention/weights", "/adam/layer_0/expert/gate_logits/weights_1st_moment", "biases", "/gate_logits/biases"} {
		if g, ok := GateVariableOf(path); ok {
			t.Errorf("GateVariableOf(%q) = %+v, want no gate variable", path, g)
		}
	}
}
