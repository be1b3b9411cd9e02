// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// What Solve makes of a task (Solution), and step 5's part that is not the network's (doc.go): the top proposal's
// predictions (proposalPredictions), the fallback (fallBack, useProposal), the name of the frame the learner chose
// (nameFrame), and the alternatives.

import (
	"errors"
	"fmt"
	"slices"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
	"github.com/latformer/latformer/search"
)

// Sources of a Solution's predictions.
const (
	// SourceNetwork: the trained network predicted.
	SourceNetwork = "network"
	// SourceSearch: the lattice search's top proposal predicted (Options.SearchOnly, or the fallback
	// of ParamSearchFallback).
	SourceSearch = "search"
	// SourceUntrained: nothing predicted: the search found no element and the task was not trained
	// (ParamSearchScreen, ParamMaxCells).
	SourceUntrained = "untrained"
)

// Solution is what Solver.Solve made of a task.
type Solution struct {
	// Predictions are the predicted test canvases, one per test example, made by Source. An entry is nil
	// where there is none.
	Predictions []*datasets.Canvas
	Source      string
	// Action and Action2 are the group elements behind Predictions: the network's hard gates on the
	// first test input, or the top proposal's action. Action2 is set with two actions only.
	Action, Action2 lattice.Action
	// Network are the trained network's own predictions and Fit its training (nil and zero when no
	// network was trained).
	Network []latformer.Prediction
	Fit     latformer.FitResult
	// Search is the lattice search's result, nil when it did not run (ParamGateInit "paper" without
	// ParamSearchScreen, or a model without mask experts).
	Search *Search
	// Lattice is the lattice of the elements the task was solved over: "canvas", "grid" or "anchored"
	// (experts.ParamLattice, or chosen by ParamSearchLattices); "" when no search ran.
	Lattice string
	// Top is the search's top proposal when it competed with the network or predicted alone.
	Top *Proposal
	// Searched are Top's predictions of the test outputs, nil where its table cannot map the input.
	Searched []*datasets.Canvas
	// Anchor is the frame rule of an anchor-relative element (search.FrameRule.String), else "".
	Anchor string
}

// ActionName names the solution's group element, after an anchored element's frame rule. It is
// "g1 + g2" with two actions, "" for none.
func (s Solution) ActionName() string {
	name := latformer.ActionName(s.Action, s.Action2)
	if s.Anchor != "" && name != "" {
		return s.Anchor + "∘" + name
	}
	return name
}

// Alternative is a prediction of a test output other than the Solution's own, and what made it.
type Alternative struct {
	// Canvas is the predicted output canvas, nil where By has no prediction for the input.
	Canvas *datasets.Canvas
	// By is SourceNetwork, SourceSearch (the top proposal) or "proposal k" (the search's k-th, from 1).
	By string
}

// Alternatives returns, for each test example, the solution's other predictions of its output, best
// first. The other source's prediction comes first: the top proposal's where the network predicted, the
// network's where the proposal did. The search's next proposals follow in rank order. test are the
// examples Solve predicted. An entry may equal the solution's own prediction; ARC Prize's second
// attempt is the first that differs.
func (s Solution) Alternatives(test []latformer.Example) ([][]Alternative, error) {
	out := make([][]Alternative, len(test))
	add := func(by string, preds []*datasets.Canvas) {
		for i := range out {
			var c *datasets.Canvas
			if i < len(preds) {
				c = preds[i]
			}
			out[i] = append(out[i], Alternative{Canvas: c, By: by})
		}
	}
	switch {
	case s.Source == SourceNetwork && s.Top != nil:
		add(SourceSearch, s.Searched)
	case s.Source == SourceSearch && len(s.Network) > 0:
		network := make([]*datasets.Canvas, len(s.Network))
		for i := range s.Network {
			network[i] = &s.Network[i].Canvas
		}
		add(SourceNetwork, network)
	}
	if s.Search == nil {
		return out, nil
	}
	next := 0
	if s.Top != nil {
		next = 1 // the top proposal is above
	}
	for k := next; k < len(s.Search.Proposals); k++ {
		preds, err := proposalPredictions(s.Search.Proposals[k], test)
		if err != nil {
			return nil, fmt.Errorf("proposal %d: %w", k+1, err)
		}
		add(fmt.Sprintf("proposal %d", k+1), preds)
	}
	return out, nil
}

// fallBack also predicts the test outputs with the top proposal (sol.Top, sol.Searched). With
// ParamSearchFallback, useProposal decides whether it replaces the network's predictions.
func (s *Solver) fallBack(sol *Solution, learner *latformer.Learner, test []latformer.Example) error {
	top := sol.Search.Proposals[0]
	searched, err := proposalPredictions(top, test)
	if err != nil {
		return err
	}
	sol.Top, sol.Searched = &top, searched
	network := ""
	if len(sol.Network) > 0 {
		network = sol.Network[0].ActionName()
	}
	expert := learner.Expert()
	sameElement := network == expert.ActionOf(top.Element).String() // "g1 + g2" with two actions: never
	if s.fallback && useProposal(sol.Fit, sameElement, sol.Predictions, searched) {
		sol.Source, sol.Predictions, sol.Action, sol.Action2 = SourceSearch, searched, top.Action, nil
	}
	return nil
}

// useProposal is the fallback's rule (ParamSearchFallback). It gets the network's predictions, the top
// proposal's (searched), and whether the network's hard gates select the top proposal's element
// (sameElement). The proposal predicts only when its table maps every test input, so a network
// prediction is never replaced by an empty one. Then it predicts in two cases:
//   - No restart's hard gates fit the training pairs. One element and table that fit them all beat a
//     soft mixture, as Fit prefers a restart whose hard gates fit.
//   - They fit with the proposal's own element but predict otherwise. The two then differ only on color
//     keys no training cell has, which the search's table answers by explicit rules
//     (search.Proposal.Generalize).
//
// Where the hard gates fit another element, the network predicts (docs/arc-search.md, "The fallback").
func useProposal(fit latformer.FitResult, sameElement bool, network, searched []*datasets.Canvas) bool {
	for _, c := range searched {
		if c == nil {
			return false
		}
	}
	if !(fit.Fitted && fit.HardGates) {
		return true
	}
	if !sameElement {
		return false
	}
	for i, c := range searched {
		if i >= len(network) || network[i] == nil || !slices.Equal(network[i].Cells, c.Cells) {
			return true
		}
	}
	return false
}

// proposalPredictions applies a proposal, its table generalized, to the test inputs. An entry is nil
// where the table cannot map a cell (search.Proposal.Predict).
func proposalPredictions(top Proposal, test []latformer.Example) ([]*datasets.Canvas, error) {
	general := top.Generalize()
	preds := make([]*datasets.Canvas, len(test))
	for i, ex := range test {
		out, ok, err := general.Predict(ex.Input)
		if errors.Is(err, search.ErrNoBox) {
			continue // the anchor reads no box on this input: no prediction
		}
		if err != nil {
			return nil, fmt.Errorf("test pair %d: %w", i, err)
		}
		if ok {
			preds[i] = &out
		}
	}
	return preds, nil
}

// nameFrame sets sol.Anchor to the frame rule the hard gates chose on the first test input, when the
// learner acts on the candidate frames.
func nameFrame(sol *Solution, learner *latformer.Learner, rules []search.FrameRule) {
	if len(rules) == 0 || len(sol.Network) == 0 {
		return
	}
	expert := learner.Expert()
	if k := expert.ElementOf(sol.Network[0].Gates).Frame; k < len(rules) {
		sol.Anchor = rules[k].String()
	}
}
