// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/experts"
)

// How a restart that starts at a proposal trains its gates (ParamGateInitTrain).
const (
	// ProposalTrainHard holds the gates at the proposal's element: discretized in the forward pass and
	// left out of the update.
	ProposalTrainHard = "hard"
	// ProposalTrainSoft trains the soft gates from the proposal, as the paper trains them.
	ProposalTrainSoft = "soft"
)

// hasMaskExperts reports whether the learner's model has a mask expert that proposals can start. It
// reads the variables, so it only answers after prepare.
func (l *Learner) hasMaskExperts() bool {
	for v := range l.store.IterVariables() {
		if firstExpertGate(v.Path()) == experts.GateBiases {
			return true
		}
	}
	return false
}

// startAt makes the hard gates of every layer's first mask expert select el, whatever the input. It
// sets the gating FFN's last biases to el's logits ±margin (experts.Expert.LogitsFor) and its last
// weights to zero. The input-dependent part of the logits then starts at zero, and only the gradient
// moves the gates from el.
func (l *Learner) startAt(el experts.Element, margin float64) error {
	expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
	return l.setGateLogits(expert.LogitsFor(el, float32(margin)), true)
}

// setGateLogits sets the last gating biases of every layer's first mask expert to bias. With
// zeroWeights it zeroes the weights, so the logits start at bias whatever the input.
func (l *Learner) setGateLogits(bias []float32, zeroWeights bool) error {
	for v := range l.store.IterVariables() {
		path := v.Path()
		var value *tensors.Tensor
		switch {
		case firstExpertGate(path) == experts.GateBiases:
			if v.Shape().Size() != len(bias) {
				return fmt.Errorf("variable %s has %d gates, the expert %d", path, v.Shape().Size(), len(bias))
			}
			value = tensors.FromValue(bias)
		case zeroWeights && firstExpertGate(path) == experts.GateWeights:
			value = tensors.FromShape(v.Shape()) // zeros
		default:
			continue
		}
		if err := v.SetValue(value); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// startZeroFill sets the gate-logit biases of every layer's first mask expert to
// experts.Expert.ZeroFillStart, so the restart searches the zero-fill translations.
func (l *Learner) startZeroFill() error {
	expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
	bias := expert.ZeroFillStart()
	if bias == nil {
		return fmt.Errorf("the expert has no zero-fill translations (%s, %s)",
			experts.ParamExperts, experts.ParamZeroFill)
	}
	return l.setGateLogits(bias, false)
}
