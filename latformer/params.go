// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/layers"
)

// Hyperparameters of the model and its training: model.Store keys, set with --set "key=value;..." or
// NewStore's settings. The table params declares their defaults and allowed values. Each doc comment
// ends with the default in brackets (TestDocDefaults). The expert and layer hyperparameters are in
// packages experts and layers.
const (
	// ParamDim is the model dimension d [32].
	ParamDim = "model_dim"
	// ParamNumLayers is the number of LatFormer layers [1].
	ParamNumLayers = "model_layers"
	// ParamSmoothing adds the smoothed-mask prediction of Section 4.2 to the training loss [false].
	ParamSmoothing = "mask_smoothing"
	// ParamNoise is the one-hot noise level w of Appendix B.4 applied to the inputs [0].
	ParamNoise = "input_noise"
	// ParamNoiseRandom replaces the all-ones vector of Appendix B.4's noise, ((1-w) onehot + w 1) W, by a
	// random u ~ U(0,1)^11 drawn anew for every cell of every input, in training and in prediction. The
	// formula as written adds the same vector to every cell, an affine change of the embedding that the
	// model can undo for any w < 1 (docs/noise.md) [false].
	ParamNoiseRandom = "input_noise_random"

	// ParamSteps is the maximum number of training steps per task [500].
	ParamSteps = "train_steps"
	// ParamAugment is the number of color-permuted copies of the training pairs in every step. The first
	// copy keeps the original colors; Appendix B.2 uses 10 [10].
	ParamAugment = "augment_copies"
	// ParamAugmentKeepBlack keeps color 0 (black) fixed in the augmentation's permutations, since ARC's
	// background rules depend on it [true].
	ParamAugmentKeepBlack = "augment_keep_black"
	// ParamAugmentFixOutputColors keeps fixed the colors that the training outputs create and no training
	// input has (datasets.OutputOnlyColors). They are a rule's constant colors: permuting them would make
	// each copy a different rule (docs/arc-ablations.md, "A rule's constant colors") [true].
	ParamAugmentFixOutputColors = "augment_fix_output_colors"
	// ParamFitPatience stops training after this many consecutive steps with every training canvas
	// predicted exactly. 0 disables early stopping [3].
	ParamFitPatience = "fit_patience"
	// ParamSeed seeds the initialization and the augmentation [1].
	ParamSeed = "seed"
	// ParamRestarts is the number of training runs per task, each from its own initialization. Fit keeps
	// the best (Learner.Fit) [3].
	ParamRestarts = "train_restarts"
	// ParamMaxCells is the largest canvas (rows·cols) that gets the costly training; 0 means no limit. On a
	// larger canvas only the first restart runs, and those started at a proposal. A task there for which the
	// lattice search finds no element is not trained and counts as unsolved, as with
	// arcsolver.ParamSearchScreen. A step's cost grows with the square of the cells (docs/arc-search.md) [81].
	ParamMaxCells = "train_max_cells"
	// ParamHardSteps is the most steps a restart trains with its gates held at their discretized values
	// (their gradient cut) when its hard gates do not fit the training pairs after ParamSteps. The rest of
	// the model then learns the exact action that prediction uses, not a soft mixture
	// (docs/arc-ablations.md, "How the defaults were chosen"). 0 disables this hard phase [0].
	ParamHardSteps = "train_hard_steps"
	// ParamHardPatience, when > 0, ends the held training after the gate beam or the hard phase early once
	// it stalls: when the mean loss of its last this-many steps is not 5% below the mean of the as many
	// steps before. A restart that fits does so while its loss still falls; one that stalls is undone
	// anyway, so its last steps are spent for nothing. 0 trains all ParamHardSteps steps [0].
	ParamHardPatience = "train_hard_patience"
	// ParamRestartExperts chooses, restart by restart, which experts' gates may learn; the others are held
	// at the identity (experts.Expert.FreeGates). It is a comma-separated list, and restart r uses entry r
	// modulo its length. An entry is "all" or letters of t (translation), z (translation started at the
	// centre of its zero-fill shifts, experts.Expert.ZeroFillStart), v and h (z on the rows' or the columns'
	// axis only), r (rotation), f (reflection) and s (scaling). A restart started at a proposal keeps the
	// proposal's gates. "all,t" makes every second restart translation-only, since the full expert often
	// misses a translation by first opening a rotation or scaling that fits part of the task
	// (docs/arc-ablations.md, "How the defaults were chosen") [all].
	ParamRestartExperts = "train_restart_experts"
	// ParamGateBeam, when > 0, replaces the hard phase by a beam over elements. A restart not started at a
	// proposal whose hard gates do not fit after its soft steps holds in turn each of this many elements
	// its soft gates make most probable (the settings of the gates left near 0.5,
	// experts.Expert.LikelyElements), ParamGateBeamSteps steps each. It then trains the one with the lowest
	// loss, held, up to ParamHardSteps steps in all; with ParamBatchPairs the loss is the mean over the
	// probe (docs/arc-ablations.md, "Without the search: the recipe"). 0 disables the beam [0].
	ParamGateBeam = "train_gate_beam"
	// ParamGateBeamSteps is the number of steps each element of the gate beam (ParamGateBeam) is held
	// before the best one is chosen [30].
	ParamGateBeamSteps = "train_gate_beam_steps"
	// ParamGateBeamNeighbors adds to the gate beam the elements one translation step away from its first
	// element on one axis (experts.Expert.ShiftNeighbors), each held ParamGateBeamSteps steps. The gates
	// hold a shift in binary, so soft gates one cell off (8 for 7: 1000 for 0111) differ in every bit,
	// out of the beam's reach (docs/sample-efficiency.md, "Translations without the search") [false].
	ParamGateBeamNeighbors = "train_gate_beam_neighbors"
	// ParamBatchPairs, when > 0, trains on minibatches: every step takes this many training pairs, each in
	// ParamAugment color copies, from shuffled passes over all pairs. Tasks with at most this many pairs
	// train on all of them. It is meant for training sets of hundreds or thousands of pairs (the synthetic
	// tasks of Figure 5); the fit checks that stop training early still predict every training pair. 0
	// trains on all pairs in every step [0].
	ParamBatchPairs = "train_batch_pairs"
	// ParamGateInitMargin is the magnitude of the gate logits that start a restart at a proposal
	// (arcsolver.ParamGateInit "search"): sigmoid gates start at sigmoid(±margin), and the scaling
	// softmax's chosen factor at margin against -margin for the others [3.0].
	ParamGateInitMargin = "gate_init_margin"
	// ParamGateInitTrain says how a restart that starts at a proposal trains (arcsolver.ParamGateInit
	// "search"). "hard" holds the gates at the proposal's element for the whole restart: the forward pass
	// uses the discretized gates, the gating FFN is not updated, and the rest of the model learns that
	// element's color table. "soft" trains the gates from sigmoid(±ParamGateInitMargin) as the paper does;
	// then a mixture of elements can fit the training pairs in place of the element (docs/arc-search.md,
	// "Why the soft mask blocks the fit") [hard].
	ParamGateInitTrain = "gate_init_train"
	// ParamHeldSteps is the step budget of a restart that starts at a proposal with its gates held there
	// (ParamGateInitTrain "hard"). It is at most ParamSteps; 0 means ParamSteps. A held restart fits the
	// training pairs within a few dozen steps or its element is wrong, and the next restart starts at the
	// next proposal [200].
	ParamHeldSteps = "train_held_steps"
	// ParamUnproposedSteps is the soft-step budget of a restart that does not start at a proposal, with
	// arcsolver.ParamGateInit "search": a task without a proposal, or the restarts after the proposals.
	// Such a restart otherwise trains as with "paper". The budget is at most ParamSteps; 0 means ParamSteps.
	// Where no element fits, the network rarely fits the pairs anyway, so these restarts get a short budget
	// (docs/arc.md, "ARC-AGI-1's evaluation split") [100].
	ParamUnproposedSteps = "train_unproposed_steps"
	// ParamPadPairs pads a task's training pairs to a multiple of this number with masked-out copies, which
	// take no part in the loss or the fit checks. Tasks with different numbers of pairs then share one
	// compiled training graph (LearnerCache). 1 pads nothing [1].
	ParamPadPairs = "train_pad_pairs"
)

// params declares this package's hyperparameters with their defaults and allowed values. It also
// declares the GoMLX optimizer keys whose defaults differ from GoMLX's.
var params = hparams.NewTable(
	hparams.Def(ParamDim, 32).AtLeast(1),
	hparams.Def(ParamNumLayers, 1).AtLeast(1),
	hparams.Def(ParamSmoothing, false),
	hparams.Def(ParamNoise, 0.0).AtLeast(0),
	hparams.Def(ParamNoiseRandom, false),
	hparams.Def(ParamSteps, 500).AtLeast(0),
	hparams.Def(ParamAugment, 10),
	hparams.Def(ParamAugmentKeepBlack, true),
	hparams.Def(ParamAugmentFixOutputColors, true),
	hparams.Def(ParamFitPatience, 3),
	hparams.Def(ParamSeed, 1),
	hparams.Def(ParamRestarts, 3).AtLeast(1),
	hparams.Def(ParamMaxCells, 81).AtLeast(0),
	hparams.Def(ParamHardSteps, 0).AtLeast(0),
	hparams.Def(ParamHardPatience, 0).AtLeast(0),
	hparams.Def(ParamRestartExperts, "all").Checked(CheckRestartExperts),
	hparams.Def(ParamBatchPairs, 0).AtLeast(0),
	hparams.Def(ParamGateBeam, 0).AtLeast(0),
	hparams.Def(ParamGateBeamSteps, 30).AtLeast(1),
	hparams.Def(ParamGateBeamNeighbors, false),
	hparams.Def(ParamPadPairs, 1).AtLeast(1),
	hparams.Def(ParamGateInitMargin, 3.0),
	hparams.Def(ParamGateInitTrain, ProposalTrainHard).OneOf(ProposalTrainHard, ProposalTrainSoft),
	hparams.Def(ParamHeldSteps, 200).AtLeast(0),
	hparams.Def(ParamUnproposedSteps, 100).AtLeast(0),
	hparams.Def(optimizer.ParamOptimizer, "adam").OneOf(optimizerNames()...), // GoMLX's default is "adamw"
	hparams.Def(optimizer.ParamLearningRate, 1e-3),
)

// The keys this package no longer declares (hparams.Retire): what each became, or why it went.
var _ = hparams.Retire(
	hparams.Removed("augment_task_colors",
		"its ablation lost, 4 of 31 dev tasks against 9 (docs/arc-ablations.md, \"How the defaults were chosen\")"),
	hparams.Removed("train_restarts_stop_at_fit",
		"no run set it false: the restarts always stop at the first whose hard gates fit"),
	hparams.Renamed("gate_init_steps", 200, ParamHeldSteps),
	hparams.Renamed("gate_init_unproposed_steps", 100, ParamUnproposedSteps),
	hparams.Folded("train_restarts_max_cells", 81,
		"now "+ParamMaxCells+", which limits the restarts and the tasks without a proposal alike",
		func(v any, _ hparams.Settings) hparams.Setting { return hparams.Setting{Key: ParamMaxCells, Value: v} }),
	hparams.Folded("gate_init_unproposed_max_cells", 81,
		"now "+ParamMaxCells+", which limits the restarts and the tasks without a proposal alike",
		func(v any, _ hparams.Settings) hparams.Setting { return hparams.Setting{Key: ParamMaxCells, Value: v} }),
)

// CheckRestartExperts checks a value of ParamRestartExperts (or another restart schedule in its form,
// such as arcsolver's ParamShiftRestarts): comma-separated entries of experts.Expert.FreeGates.
func CheckRestartExperts(v any) error {
	for _, entry := range strings.Split(v.(string), ",") {
		if err := experts.CheckFamilies(strings.TrimSpace(entry)); err != nil {
			return err
		}
	}
	return nil
}

// optimizerNames are the optimizers GoMLX's optimizer.FromScope knows, sorted.
func optimizerNames() []any {
	var names []any
	for _, n := range slices.Sorted(maps.Keys(optimizer.KnownOptimizers)) {
		names = append(names, n)
	}
	return names
}

// defaultParams holds the defaults of params.
var defaultParams = params.Defaults()

// Params returns the declarations of every hyperparameter of the model, its layers (layers.Params),
// experts (experts.Params) and training: the keys --set accepts for LatFormer, with their defaults and
// the values each accepts. ParamsFor adds an architecture's own.
func Params() hparams.Table { return must(hparams.Join(params, layers.Params(), experts.Params())) }

// ParamsFor returns Params and the hyperparameters of arch (Architecture.Params); an architecture that
// declares a key of Params again is an error.
func ParamsFor(arch Architecture) (hparams.Table, error) {
	t, err := hparams.Join(Params(), arch.Params)
	if err != nil {
		return nil, fmt.Errorf("architecture %q: %w", arch.Name, err)
	}
	return t, nil
}

// must returns t, panicking on err (the tables of this module's packages are disjoint).
func must(t hparams.Table, err error) hparams.Table {
	if err != nil {
		panic(err)
	}
	return t
}

// DefaultParams returns every hyperparameter of the model, its layers, experts and training, with its
// default. It fills a model.Store before settings apply. The optimizer is GoMLX's, chosen by
// optimizer.ParamOptimizer ("adam") and configured by its own keys, such as
// optimizer.ParamLearningRate. The map is the caller's to change.
func DefaultParams() map[string]any { return Params().Defaults() }

// Param returns the value of the hyperparameter key of this package (one of its Param* constants) in
// store, or its default (DefaultParams) when store does not set it. T must be the default's type.
func Param[T any](store *model.Store, key string) T { return param[T](store.RootScope(), key) }

// param reads a hyperparameter of this package from scope, with its default from defaultParams.
func param[T any](scope *model.Scope, key string) T {
	return model.GetParamOr(scope, key, defaultParams[key].(T))
}

// ParseSettings reads LatFormer's settings in GoMLX's --set syntax, "key=value;key=value", once: every
// key must be one of Params (an unknown one is an error naming the nearest), every value of its type
// and one it accepts (hparams.Table.Parse). ParseSettingsFor reads those of another architecture.
func ParseSettings(text string) (hparams.Settings, error) { return Params().Parse(text) }

// ParseSettingsFor is ParseSettings for an architecture (ParamsFor).
func ParseSettingsFor(arch Architecture, text string) (hparams.Settings, error) {
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	return t.Parse(text)
}

// NewStore returns a model.Store holding DefaultParams with settings on top. An unknown key or a value
// its key does not accept is an error.
func NewStore(settings hparams.Settings) (*model.Store, error) {
	return NewStoreFor(LatFormerArchitecture(), settings)
}
