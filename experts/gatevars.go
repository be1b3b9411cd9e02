// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"strings"
)

// The scopes and variables of an expert's gating FFN (Expert.GateLogits), under the expert's scope.
// Other packages find them with GateVariableOf, never by writing the path.
const (
	// GateHiddenScope is the scope of the hidden layer.
	GateHiddenScope = "gate_hidden"
	// GateLogitsScope is the scope of the last layer and of the free-gate mask (FreeGatesVariable).
	GateLogitsScope = "gate_logits"
	// GateLogitsWeights and GateLogitsBiases are the last layer's variables.
	GateLogitsWeights = "weights"
	GateLogitsBiases  = "biases"
)

// GatePart says which part of an expert's gating a variable is.
type GatePart int

const (
	// GateHidden is a variable of the gating FFN's hidden layer (any under GateHiddenScope).
	GateHidden GatePart = iota + 1
	// GateWeights and GateBiases are the gating FFN's last layer: the logits are x·weights + biases.
	GateWeights
	GateBiases
	// GateFree is the free-gate mask (FreeGatesVariable, Expert.FreeGates).
	GateFree
)

// GateVariable is a model variable of a mask expert's gating, as GateVariableOf reads its path.
type GateVariable struct {
	// Expert is the scope path the expert was built in (Expert.Gates' scope), e.g. "/latformer_0/expert".
	Expert string
	Part   GatePart
}

// ExpertScopeName is the last element of the expert's scope path ("expert" for a LatFormer layer's first
// mask expert, layers.ExpertScope).
func (v GateVariable) ExpertScopeName() string {
	return v.Expert[strings.LastIndex(v.Expert, "/")+1:]
}

// GateVariableOf says whether the variable at path belongs to a mask expert's gating FFN, and which part.
func GateVariableOf(path string) (GateVariable, bool) {
	if k := strings.Index(path, "/"+GateHiddenScope+"/"); k > 0 {
		return GateVariable{Expert: path[:k], Part: GateHidden}, true // the hidden layer's own scopes and variables
	}
	i := strings.LastIndex(path, "/")
	if i < 0 {
		return GateVariable{}, false
	}
	name, scope := path[i+1:], path[:i]
	j := strings.LastIndex(scope, "/")
	if j <= 0 || scope[j+1:] != GateLogitsScope {
		return GateVariable{}, false
	}
	parts := map[string]GatePart{
		GateLogitsWeights: GateWeights, GateLogitsBiases: GateBiases, FreeGatesVariable: GateFree,
	}
	part, ok := parts[name]
	if !ok {
		return GateVariable{}, false
	}
	return GateVariable{Expert: scope[:j], Part: part}, true
}
