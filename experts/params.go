// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"maps"
	"math/bits"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"
)

// Hyperparameters of the mask experts, read from the model.Store by ExpertFromScope and Gates (Param),
// so that notebooks and the CLI can change them with --set "key=value;...". Defaults in brackets.
const (
	// ParamTranslation enables the translation expert [true].
	ParamTranslation = "expert_translation"
	// ParamRotation enables the rotation expert (C4, square canvases only) [true].
	ParamRotation = "expert_rotation"
	// ParamReflection enables the reflection expert (one flip gate per axis) [true].
	ParamReflection = "expert_reflection"
	// ParamScaling enables the scaling expert (up-scaling factors 1..MaxScale per axis, plus the transpose
	// gate for down-scaling) [true].
	ParamScaling = "expert_scaling"
	// ParamTranslationLayers is L, the number of gated shift layers per axis: shifts 0..2^L-1 [5].
	ParamTranslationLayers = "expert_translation_layers"
	// ParamMaxScale is the largest up-/down-scaling factor [5].
	ParamMaxScale = "expert_max_scale"
	// ParamGateHidden is the hidden width of the gating FFN [64].
	ParamGateHidden = "expert_gate_hidden"
	// ParamSmoothingTime is the diffusion time t of the heat kernels used by SmoothedMask [1.0].
	ParamSmoothingTime = "expert_smoothing_time"
	// ParamFlipGateInit is the initial logit of the reflection and rotation gates, so they start at
	// sigmoid(init) (docs/hyperparameters.md says how the default was chosen) [-2].
	ParamFlipGateInit = "expert_flip_gate_init"
	// ParamTranslationGateInit is the initial logit of the translation gates: 0 starts every shift bit at
	// 0.5 (all 2^L shifts mixed evenly), a negative value starts the expert near the identity, which the
	// ARC ablations on the dev half preferred (docs/arc-ablations.md, "How the defaults were chosen") [-2].
	ParamTranslationGateInit = "expert_translation_gate_init"
	// ParamZeroFill adds a zero-fill choice to the translation expert: per axis a gate γ makes the shifts
	// fill with zeros (lattice.Shift) instead of wrapping around the canvas, and a gate δ makes them go
	// backwards. A zero-fill shift is not a group element (lattice.Shift says what that means for the
	// masks and the attention). The zero-fill shifts act on the canvas, also for a GridLattice expert.
	// Overlays of two halves of a grid need them on a per-task canvas [true].
	ParamZeroFill = "expert_zero_fill"
	// ParamZeroFillGateInit is the initial logit of the zero-fill gates γ (δ starts at 0.5) [0].
	ParamZeroFillGateInit = "expert_zero_fill_gate_init"
	// ParamGridLattice makes the flips, the 180° rotation and the translations act on each example's
	// own grid (the non-pad top-left rectangle of its input, see GridExtents) instead of the whole canvas,
	// and the 90° rotation rotate that grid; the grid is then also scaled last (A_a = S_a T_a F_a G). A
	// mirror of an H x W grid is then the same group element whatever H and W are, where on the canvas it
	// is a flip followed by a translation that depends on the grid's size. Outputs larger than the input
	// (tilings) need the canvas lattice [false].
	ParamGridLattice = "expert_grid_lattice"
	// ParamAnchored makes a GridLattice expert anchor-relative (Expert.Anchored): its grid is a box read
	// off each input (a frame: the box cropped, and the shift that places the result), so that the element
	// follows the input, g(x) = T(a(x)) ∘ B. The frames are an input of the model (latformer.Example.Frame);
	// the lattice search chooses the rule that reads them per task [false].
	ParamAnchored = "expert_anchored"
	// ParamHardGates makes Gates discretize the gates (Section 4.1, "at inference time, the values of the
	// gates can be discretized"); it is usually set as a graph parameter for prediction only [false].
	ParamHardGates = "expert_hard_gates"
	// ParamStraightThrough trains with straight-through hard gates: the forward pass uses the
	// discretized gates (the exact mask of one group element, as at prediction) and the backward pass the
	// gradient of the soft gates. A soft mixture of actions can fit training pairs that no single action
	// fits (and then predicts wrongly with hard gates); straight-through gates cannot [false].
	ParamStraightThrough = "expert_straight_through"
	// ParamGateNoise is the scale s of the noise added to the gate logits in training graphs (graphs the
	// store marks as training, model.Store.SetTraining): logistic noise s·log(u/(1-u)) on the sigmoid
	// gates (the binary concrete relaxation) and Gumbel noise -s·log(-log u) on the scaling softmax
	// (Gumbel-softmax), u ~ U(0, 1), drawn anew at every step for every example. The noise explores
	// actions the gradient alone does not reach; 0 turns it off [0].
	ParamGateNoise = "expert_gate_noise"
	// ParamGateAnneal > 1 anneals the temperature of the soft gates: their logits are divided by a
	// non-trainable variable (TemperatureVariable) that starts at this value, so that every sigmoid gate
	// starts near 0.5 (a mixture of many group elements), and that the learner lowers step by step to 1
	// over a restart's soft steps (latformer.Learner.Fit), when the gates are the plain ones. The hard
	// gates (their sign) do not depend on it. 0 or 1: no temperature in the graph [0].
	ParamGateAnneal = "expert_gate_anneal"
)

// TemperatureVariable is the name of the non-trainable scalar variable, in the scope "gate_temperature"
// beside the gate logits', that divides them (ParamGateAnneal).
const TemperatureVariable = "temperature"

// params declares every Param* key of this package with its default and the values it accepts, the one
// place they are written.
var params = hparams.NewTable(
	hparams.Def(ParamTranslation, true),
	hparams.Def(ParamRotation, true),
	hparams.Def(ParamReflection, true),
	hparams.Def(ParamScaling, true),
	hparams.Def(ParamTranslationLayers, 5).AtLeast(1),
	hparams.Def(ParamMaxScale, 5).AtLeast(1),
	hparams.Def(ParamGateHidden, 64).AtLeast(1),
	hparams.Def(ParamSmoothingTime, 1.0),
	hparams.Def(ParamFlipGateInit, -2.0),
	hparams.Def(ParamTranslationGateInit, -2.0),
	hparams.Def(ParamZeroFill, true),
	hparams.Def(ParamZeroFillGateInit, 0.0),
	hparams.Def(ParamGridLattice, false),
	hparams.Def(ParamAnchored, false),
	hparams.Def(ParamHardGates, false),
	hparams.Def(ParamStraightThrough, false),
	hparams.Def(ParamGateNoise, 0.0).AtLeast(0),
	hparams.Def(ParamGateAnneal, 0.0).AtLeast(0),
)

// defaultParams holds the defaults of params.
var defaultParams = params.Defaults()

// Params returns the declarations of the mask experts' hyperparameters (the Param* keys).
func Params() hparams.Table { return maps.Clone(params) }

// DefaultParams returns the hyperparameters of the mask experts (the Param* keys) with their defaults,
// a new map on every call.
func DefaultParams() map[string]any { return params.Defaults() }

// Param returns the value of the expert hyperparameter key (one of the Param* constants) in scope, or
// its default (DefaultParams) when scope does not set it; a value of another type than T (an int given
// as a float64, say) is converted as model.GetParamOr converts it. T must be the type of the default:
// bool for the switches, int for ParamTranslationLayers, ParamMaxScale and ParamGateHidden, float64
// for the rest.
func Param[T any](scope *model.Scope, key string) T {
	return model.GetParamOr(scope, key, defaultParams[key].(T))
}

// ExpertFromScope returns the Expert for a rows x cols canvas configured by the hyperparameters of scope
// (see the Param* constants). Rotation is switched off on non-square canvases, and the number of
// translation layers is capped at the number of bits needed for shifts up to the canvas side.
func ExpertFromScope(scope *model.Scope, rows, cols int) Expert {
	e := Expert{
		Rows: rows, Cols: cols,
		Translation:         Param[bool](scope, ParamTranslation),
		Rotation:            Param[bool](scope, ParamRotation),
		Reflection:          Param[bool](scope, ParamReflection),
		Scaling:             Param[bool](scope, ParamScaling),
		TranslationLayers:   Param[int](scope, ParamTranslationLayers),
		MaxScale:            Param[int](scope, ParamMaxScale),
		GateHidden:          Param[int](scope, ParamGateHidden),
		SmoothingTime:       Param[float64](scope, ParamSmoothingTime),
		GridLattice:         Param[bool](scope, ParamGridLattice) || Param[bool](scope, ParamAnchored),
		Anchored:            Param[bool](scope, ParamAnchored),
		FlipGateInit:        Param[float64](scope, ParamFlipGateInit),
		TranslationGateInit: Param[float64](scope, ParamTranslationGateInit),
		ZeroFill:            Param[bool](scope, ParamZeroFill),
		ZeroFillGateInit:    Param[float64](scope, ParamZeroFillGateInit),
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
