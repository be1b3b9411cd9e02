// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"
)

// Hyperparameters of the mask experts, read from the model.Store by ExpertFromScope and Gates. Notebooks
// and the CLI set them with --set "key=value;...". Defaults in brackets.
const (
	// ParamExperts lists the mask experts that compose, comma-separated: translation, rotation (C4, square
	// canvases only), reflection (one flip gate per axis) and scaling (up-scaling factors 1..MaxScale per
	// axis, and a transpose gate for down-scaling). "all" means the four [all].
	ParamExperts = "experts"
	// ParamTranslationLayers is L, the number of gated shift layers per axis: shifts 0..2^L-1 [5].
	ParamTranslationLayers = "expert_translation_layers"
	// ParamTranslationGates is how the translation gates hold a shift. TranslationGatesBits is the
	// paper's: L gated layers per axis, shifting by 2^k each, so a shift is a binary number and neighbouring
	// shifts can differ in every bit (7 = 0111, 8 = 1000). TranslationGatesSoftmax is one softmax per axis
	// over the signed shifts -(m-1)..m-1, m the longer side: the factor is a Toeplitz mixture of shifts,
	// and every shift is one logit away from the start [bits].
	ParamTranslationGates = "expert_translation_gates"
	// ParamMaxScale is the largest up- or down-scaling factor [5].
	ParamMaxScale = "expert_max_scale"
	// ParamGateHidden is the hidden width of the gating FFN [64].
	ParamGateHidden = "expert_gate_hidden"
	// ParamTranslationGateInit is the initial logit of the translation gates. 0 starts every shift bit at
	// 0.5, mixing all 2^L shifts evenly; a negative value starts the expert near the identity, which solves
	// more ARC tasks (docs/arc-ablations.md, "How the defaults were chosen") [-2].
	ParamTranslationGateInit = "expert_translation_gate_init"
	// ParamZeroFill adds a zero-fill choice to the translation expert: per axis, a gate γ makes the shifts
	// fill with zeros (lattice.Shift) instead of wrapping around the canvas, and a gate δ reverses them. A
	// zero-fill shift is not a group element; lattice.Shift says what that means for the masks and the
	// attention. The zero-fill shifts act on the canvas, also for a size-relative expert. Overlays of two
	// halves of a grid need them [true].
	ParamZeroFill = "expert_zero_fill"
	// ParamLattice is the lattice the actions act on:
	//   - LatticeCanvas: the whole canvas.
	//   - LatticeGrid: each example's own grid, the non-pad top-left rectangle of its input (GridExtents).
	//     The flips, the 180° rotation and the translations act on that grid, the 90° rotation rotates it,
	//     and scaling comes last (A_a = S_a T_a F_a G). A mirror of an H x W grid is then one group element
	//     whatever H and W are; on the canvas it is a flip followed by a translation that depends on the
	//     grid's size. Outputs larger than the input (tilings) need the canvas.
	//   - LatticeAnchored: the grid is a box read off each input (a frame: the box cropped, and the shift
	//     that places the result; Expert.Lattice Anchored), so the element follows the input,
	//     g(x) = T(a(x)) ∘ B. The frames are an input of the model (latformer.Example.Frame).
	//
	// The lattice search chooses the lattice, and the rule that reads the frames, per task [canvas].
	ParamLattice = "expert_lattice"
	// ParamStraightThrough trains with straight-through hard gates: the forward pass uses the discretized
	// gates (the exact mask of one group element, as at prediction), the backward pass the soft gates'
	// gradient. The gates then cannot fit the training pairs with a soft mixture of actions that predicts
	// wrongly with hard gates. It is off for ARC, where it solves fewer tasks; two actions need it
	// (latformer.TestTwoActions; docs/arc-ablations.md, "How the defaults were chosen") [false].
	ParamStraightThrough = "expert_straight_through"
	// ParamFrameCandidates is the most candidate frames per input, with LatticeAnchored, among which a
	// softmax gate learns the one the task uses (Expert.FrameCandidates). The candidates come from the
	// inputs alone (search.FrameCandidates) and are given in latformer.Example.Frames. With another
	// lattice, an arcsolver.Solver that does not search fits such an expert after a canvas fit whose hard
	// gates did not fit. 0 means none [0].
	ParamFrameCandidates = "expert_frame_candidates"
)

// params declares every Param* key of this package with its default and allowed values.
var params = hparams.NewTable(
	hparams.Def(ParamExperts, "all").Checked(checkExperts),
	hparams.Def(ParamTranslationLayers, 5).AtLeast(1),
	hparams.Def(ParamTranslationGates, TranslationGatesBits).OneOf(TranslationGatesBits, TranslationGatesSoftmax),
	hparams.Def(ParamMaxScale, 5).AtLeast(1),
	hparams.Def(ParamGateHidden, 64).AtLeast(1),
	hparams.Def(ParamTranslationGateInit, -2.0),
	hparams.Def(ParamZeroFill, true),
	hparams.Def(ParamLattice, LatticeCanvas).OneOf(LatticeCanvas, LatticeGrid, LatticeAnchored),
	hparams.Def(ParamStraightThrough, false),
	hparams.Def(ParamFrameCandidates, 0).AtLeast(0),
)

// Values of ParamTranslationGates.
const (
	TranslationGatesBits    = "bits"
	TranslationGatesSoftmax = "softmax"
)

// Values of ParamLattice, the words of the ARC results' lattice column.
const (
	LatticeCanvas   = "canvas"
	LatticeGrid     = "grid"
	LatticeAnchored = "anchored"
)

// expertNames are the experts ParamExperts names, in the order of Expert's switches.
var expertNames = []string{"translation", "rotation", "reflection", "scaling"}

// checkExperts checks a value of ParamExperts.
func checkExperts(v any) error {
	_, err := expertsOf(v.(string))
	return err
}

// expertsOf reads a value of ParamExperts: whether each of expertNames is on.
func expertsOf(list string) (map[string]bool, error) {
	on := map[string]bool{}
	if strings.TrimSpace(list) == "all" {
		for _, n := range expertNames {
			on[n] = true
		}
		return on, nil
	}
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if !slices.Contains(expertNames, n) {
			return nil, fmt.Errorf("unknown expert %q: want all, or a comma-separated list of %s", n,
				strings.Join(expertNames, ", "))
		}
		on[n] = true
	}
	return on, nil
}

// withExpert returns the ParamExperts list before (its default when unset) with name switched on or off,
// for the former keys expert_translation etc.
func withExpert(before hparams.Settings, name string, on bool) hparams.Setting {
	list := defaultParams[ParamExperts].(string)
	if v, ok := before.Get(ParamExperts); ok {
		list = v.(string)
	}
	set, _ := expertsOf(list)
	set[name] = on
	var names []string
	for _, n := range expertNames {
		if set[n] {
			names = append(names, n)
		}
	}
	if len(names) == len(expertNames) {
		names = []string{"all"}
	}
	return hparams.Setting{Key: ParamExperts, Value: strings.Join(names, ",")}
}

// FrameExperts returns the ParamExperts setting of an expert that acts on frames (ParamFrameCandidates): the
// experts of settings without the translation, since a frame places its crop itself (the anchored group's
// bases turn, flip and scale the crop, docs/arc-search.md); false when no expert is left.
func FrameExperts(settings hparams.Settings) (hparams.Setting, bool) {
	s := withExpert(settings, "translation", false)
	return s, s.Value.(string) != ""
}

// withLattice returns the ParamLattice setting that the former switches expert_grid_lattice (grid) and
// expert_anchored (anchored, which implied the grid) make of the value before.
func withLattice(before hparams.Settings, anchored, on bool) hparams.Setting {
	cur := defaultParams[ParamLattice].(string)
	if v, ok := before.Get(ParamLattice); ok {
		cur = v.(string)
	}
	switch {
	case anchored && on:
		cur = LatticeAnchored
	case anchored && cur == LatticeAnchored:
		cur = LatticeCanvas
	case !anchored && on && cur == LatticeCanvas:
		cur = LatticeGrid
	case !anchored && !on:
		cur = LatticeCanvas
	}
	return hparams.Setting{Key: ParamLattice, Value: cur}
}

// Fixed values of the experts: constants, not hyperparameters (docs/hyperparameters.md, "Former keys").
const (
	// SmoothingTime is the diffusion time t of the heat kernels used by SmoothedMask (Section 4.2).
	SmoothingTime = 1.0
	// FlipGateInit is the initial logit of the reflection and rotation gates, so they start at sigmoid(-2)
	// (docs/hyperparameters.md says how it was chosen).
	FlipGateInit = -2.0
	// ZeroFillGateInit is the initial logit of the zero-fill gates γ (δ starts at 0.5).
	ZeroFillGateInit = 0.0
	// HardGatesGraphParam is the graph parameter that makes Gates discretize the gates (Section 4.1, "at
	// inference time, the values of the gates can be discretized"): prediction and the held training phases
	// set it on their own graphs (model.Scope.SetGraphParam). It is not a hyperparameter.
	HardGatesGraphParam = "expert_hard_gates"
)

// The keys this package no longer declares (hparams.Retire): what each became, or why it went.
var _ = hparams.Retire(
	foldedExpert("expert_translation"), foldedExpert("expert_rotation"), foldedExpert("expert_reflection"),
	foldedExpert("expert_scaling"),
	hparams.Folded("expert_grid_lattice", false, "now "+ParamLattice+"="+LatticeGrid,
		func(v any, before hparams.Settings) hparams.Setting {
			return withLattice(before, false, v.(bool))
		}),
	hparams.Folded("expert_anchored", false, "now "+ParamLattice+"="+LatticeAnchored,
		func(v any, before hparams.Settings) hparams.Setting {
			return withLattice(before, true, v.(bool))
		}),
	hparams.Removed("expert_smoothing_time", "no run set it; the heat kernel's time is experts.SmoothingTime = 1"),
	hparams.Removed("expert_flip_gate_init",
		"-4 and -1 lost to -2 (docs/hyperparameters.md, the notes under the table); experts.FlipGateInit = -2"),
	hparams.Removed("expert_zero_fill_gate_init", "no run set it; experts.ZeroFillGateInit = 0"),
	hparams.Removed(HardGatesGraphParam,
		"prediction discretizes the gates on its own graphs; as a setting it trained with hard gates from the "+
			"start, which from the paper's start stay at the identity (docs/arc.md, \"Without the search\")"),
	hparams.Removed("expert_gate_noise",
		"its ablation lost, 13 of 31 dev tasks against 14 (docs/arc-ablations.md, \"What else we tried\")"),
	hparams.Removed("expert_gate_anneal",
		"its ablation lost, 0 of 3 overlays (docs/arc-ablations.md, \"Without the search\"): tried, not used"),
)

// foldedExpert is the former switch key of one expert, "expert_<name>", now an entry of ParamExperts.
func foldedExpert(key string) hparams.Former {
	name := strings.TrimPrefix(key, "expert_")
	return hparams.Folded(key, true, "now an entry of "+ParamExperts,
		func(v any, before hparams.Settings) hparams.Setting {
			return withExpert(before, name, v.(bool))
		})
}

// defaultParams holds the defaults of params.
var defaultParams = params.Defaults()

// Params returns the declarations of the mask experts' hyperparameters (the Param* keys).
func Params() hparams.Table { return maps.Clone(params) }

// DefaultParams returns the mask experts' hyperparameters with their defaults, in a new map.
func DefaultParams() map[string]any { return params.Defaults() }

// Param returns the value of the expert hyperparameter key (a Param* constant) in scope, or its
// default. T must be the default's type: string for ParamExperts, ParamLattice and
// ParamTranslationGates, bool for the switches, int for the counts, float64 for the rest. A value of
// another type, such as an int given as a float64, is converted as model.GetParamOr does.
func Param[T any](scope *model.Scope, key string) T {
	return model.GetParamOr(scope, key, defaultParams[key].(T))
}

// ExpertFromScope returns the Expert for a rows x cols canvas configured by the hyperparameters of scope
// (see the Param* constants). Rotation is switched off on non-square canvases, and the number of
// translation layers is capped at the number of bits needed for shifts up to the canvas side.
func ExpertFromScope(scope *model.Scope, rows, cols int) Expert {
	on, err := expertsOf(Param[string](scope, ParamExperts))
	if err != nil {
		panic(fmt.Sprintf("experts.ExpertFromScope: %s: %v", ParamExperts, err)) // hparams checked it
	}
	lattice, err := ParseLattice(Param[string](scope, ParamLattice))
	if err != nil {
		panic(fmt.Sprintf("experts.ExpertFromScope: %v", err)) // hparams checked it
	}
	e := Expert{
		Rows: rows, Cols: cols,
		Translation:         on["translation"],
		Rotation:            on["rotation"],
		Reflection:          on["reflection"],
		Scaling:             on["scaling"],
		TranslationLayers:   Param[int](scope, ParamTranslationLayers),
		MaxScale:            Param[int](scope, ParamMaxScale),
		GateHidden:          Param[int](scope, ParamGateHidden),
		SmoothingTime:       SmoothingTime,
		Lattice:             lattice,
		FlipGateInit:        FlipGateInit,
		TranslationGateInit: Param[float64](scope, ParamTranslationGateInit),
		ZeroFill:            Param[bool](scope, ParamZeroFill),
		ZeroFillGateInit:    ZeroFillGateInit,
		ShiftSoftmax:        Param[string](scope, ParamTranslationGates) == TranslationGatesSoftmax,
	}
	if e.Lattice == Anchored {
		e.FrameCandidates = Param[int](scope, ParamFrameCandidates)
	}
	if rows != cols {
		e.Rotation = false
	}
	// Shifts of 2^k >= the side are redundant (translations are circular): use at most the layers needed
	// to reach every shift 0..side-1.
	need := bits.Len(uint(max(rows, cols) - 1))
	e.TranslationLayers = max(1, min(e.TranslationLayers, need))
	return e
}

// DefaultExpert returns the Expert with all four experts and the default hyperparameters.
func DefaultExpert(rows, cols int) Expert {
	return ExpertFromScope(model.NewStore().Scope(""), rows, cols)
}
