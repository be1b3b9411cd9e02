// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"fmt"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Hyperparameters of the solver's policy, set with --set like the model's; ParamsFor joins both tables.
// Each doc comment ends with the default in brackets (TestDocDefaults).
const (
	// ParamGateInit chooses where the restarts' gates start:
	//   - "search": restart r starts at the r-th element that the training pairs determine (Proposals: one
	//     color table f(g·x, x) → y consistent over all training pairs), with the gates' logits at
	//     ±latformer.ParamGateInitMargin and the gating FFN's last weights at zero. The restarts beyond the
	//     elements found, all of them when none is found, start as with "paper".
	//   - "paper": every restart starts at the paper's initialization (the experts' gate init
	//     hyperparameters), as in the paper's protocol.
	//
	// The Solver reads it, runs the search and gives its elements to latformer.Learner.Fit [search].
	ParamGateInit = "gate_init"
	// ParamSearchLattices is how far the lattice search goes, with ParamGateInit "search", for a task whose
	// training pairs no element of the canvas fits:
	//   - experts.LatticeCanvas: no further.
	//   - experts.LatticeGrid: then the size-relative elements of each input's own grid (flips, turns and
	//     circular shifts of the grid, experts.ParamLattice "grid"). When one fits, the task trains with
	//     that expert.
	//   - experts.LatticeAnchored: then also, when no element of the grid fits with a plain color table, the
	//     anchor-relative elements (search.Group.Anchored: g(x) = T(a(x)) ∘ B, a base acting on a box read
	//     off each input and placed against another), trained with the anchored expert.
	//
	// The Solver chooses the expert per task; LatticeProposals says which [anchored].
	ParamSearchLattices = "search_lattices"
	// ParamSearchFallback predicts with the search's top proposal when the kept restart's hard gates do not
	// fit every training pair but a proposal does (its element and color table map every training input to
	// its output), with ParamGateInit "search". The prediction then comes from a model that fits the
	// training pairs, the network's when it fits them. Read by the Solver [true].
	ParamSearchFallback = "search_fallback"
	// ParamSearchScreen skips the training of a task where the lattice search (the canvas, then the
	// lattices of ParamSearchLattices) finds no element, whatever ParamGateInit: the task counts as
	// unsolved. It is the protocol of the evaluation split, where most tasks are beyond the group. Read by
	// the Solver [false].
	ParamSearchScreen = "search_screen"
	// ParamFrameCopies is the number of color-permuted copies in the search-free solver's fit on candidate
	// frames (experts.ParamFrameCandidates). It has its own key because, at K candidates, each copy costs
	// about K/13 times what it costs in the canvas fit. 0 means latformer.ParamAugment's value [0].
	ParamFrameCopies = "augment_frame_copies"
	// ParamShiftRestarts is the restart schedule of the search-free solver's third fit (fitShifts), one
	// restart per comma-separated entry, read as latformer.ParamRestartExperts reads its entries. Where
	// neither the canvas fit's hard gates nor the candidate frames' fit, the canvas learner fits again with
	// its translation gates a softmax over each axis's shifts (experts.ParamTranslationGates "softmax"),
	// where neighbouring shifts are neighbouring parameters. Empty means no third fit [].
	ParamShiftRestarts = "train_shift_restarts"
)

// Gate initializations (ParamGateInit).
const (
	// GateInitPaper starts every restart's gates at the paper's initialization.
	GateInitPaper = "paper"
	// GateInitSearch starts the first restarts at the elements the training pairs determine (Proposals).
	GateInitSearch = "search"
)

// params declares the solver's hyperparameters with their defaults and the values each accepts.
var params = hparams.NewTable(
	hparams.Def(ParamGateInit, GateInitSearch).OneOf(GateInitSearch, GateInitPaper),
	hparams.Def(ParamSearchLattices, experts.LatticeAnchored).
		OneOf(experts.LatticeCanvas, experts.LatticeGrid, experts.LatticeAnchored),
	hparams.Def(ParamSearchFallback, true),
	hparams.Def(ParamSearchScreen, false),
	hparams.Def(ParamFrameCopies, 0).AtLeast(0),
	hparams.Def(ParamShiftRestarts, "").Checked(checkShiftRestarts),
)

// checkShiftRestarts checks a value of ParamShiftRestarts: empty, or a schedule in the form of
// latformer.ParamRestartExperts.
func checkShiftRestarts(v any) error {
	if v.(string) == "" {
		return nil
	}
	return latformer.CheckRestartExperts(v)
}

// The keys of the solver's policy that this package no longer declares (hparams.Retire).
var _ = hparams.Retire(
	hparams.Renamed("gate_init_fallback", true, ParamSearchFallback),
	hparams.Folded("gate_init_grid", true, "now "+ParamSearchLattices,
		func(v any, before hparams.Settings) hparams.Setting {
			return withSearchLattice(before, false, v.(bool))
		}),
	hparams.Folded("gate_init_anchored", true, "now "+ParamSearchLattices,
		func(v any, before hparams.Settings) hparams.Setting {
			return withSearchLattice(before, true, v.(bool))
		}),
)

// withSearchLattice returns the ParamSearchLattices setting that the former switches gate_init_grid (grid)
// and gate_init_anchored (anchored, read only with the grid) make of the value before.
func withSearchLattice(before hparams.Settings, anchored, on bool) hparams.Setting {
	cur := defaultParams[ParamSearchLattices].(string)
	if v, ok := before.Get(ParamSearchLattices); ok {
		cur = v.(string)
	}
	switch {
	case !anchored && !on:
		cur = experts.LatticeCanvas
	case !anchored && on && cur == experts.LatticeCanvas:
		cur = experts.LatticeAnchored // gate_init_anchored's default
	case anchored && on && cur == experts.LatticeGrid:
		cur = experts.LatticeAnchored
	case anchored && !on && cur == experts.LatticeAnchored:
		cur = experts.LatticeGrid
	}
	return hparams.Setting{Key: ParamSearchLattices, Value: cur}
}

// Params returns the declarations of the solver's hyperparameters and those of LatFormer (latformer.Params):
// the keys --set accepts for the ARC solver.
func Params() hparams.Table { return must(hparams.Join(latformer.Params(), params)) }

// ParamsFor is Params for an architecture (latformer.ParamsFor).
func ParamsFor(arch latformer.Architecture) (hparams.Table, error) {
	t, err := latformer.ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	return hparams.Join(t, params)
}

// ParseSettings reads the settings of the solver and of LatFormer in the --set syntax (Params).
func ParseSettings(text string) (hparams.Settings, error) { return Params().Parse(text) }

// ParseSettingsFor is ParseSettings for an architecture (ParamsFor).
func ParseSettingsFor(arch latformer.Architecture, text string) (hparams.Settings, error) {
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	return t.Parse(text)
}

// DefaultParams returns every hyperparameter of Params with its default.
func DefaultParams() map[string]any { return Params().Defaults() }

// defaultParams are the solver's own defaults.
var defaultParams = params.Defaults()

// policy is the solver's hyperparameters read from settings: this package's keys, each set or its default.
type policy map[string]any

// split checks settings against the architecture's table and the solver's (ParamsFor) and returns the
// solver's policy and the settings of the model and its training (the rest), in their order.
func split(arch latformer.Architecture, settings hparams.Settings) (policy, hparams.Settings, error) {
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, nil, err
	}
	if settings, err = t.Check(settings); err != nil {
		return nil, nil, err
	}
	own := policy(params.Defaults())
	var rest hparams.Settings
	for _, s := range settings {
		if _, ok := own[s.Key]; ok {
			own[s.Key] = s.Value // Check gave it its default's type
			continue
		}
		rest = append(rest, s)
	}
	return own, rest, nil
}

// param returns the solver's hyperparameter key (one of this package's Param* constants).
func param[T any](p policy, key string) T { return p[key].(T) }

// must returns t, panicking on err (the tables of this module's packages are disjoint).
func must(t hparams.Table, err error) hparams.Table {
	if err != nil {
		panic(fmt.Sprintf("arcsolver: %v", err))
	}
	return t
}

// CheckSettings checks settings against the hyperparameters of the solver and of the architecture (ParamsFor):
// every key known, every value one its key accepts.
func CheckSettings(arch latformer.Architecture, settings hparams.Settings) error {
	_, _, err := split(arch, settings)
	return err
}
