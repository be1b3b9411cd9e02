// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"fmt"
	"strings"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Recipe is a named way of solving a task. Its Settings say where the gates start and which phases a
// restart trains through. Doc says what it does step by step and where it was chosen. A caller's own
// settings go on top: New(backend, RecipeNoSearch.Settings.With(mine...), opts). On the command line it
// is --recipe NAME, with --set on top. docs/recipes.md describes each.
type Recipe struct {
	Name     string
	Doc      string
	Settings hparams.Settings
}

// RecipeBook is a list of recipes, looked up by name.
type RecipeBook []Recipe

// Names returns the recipes' names, in the book's order.
func (b RecipeBook) Names() []string {
	names := make([]string, len(b))
	for i, r := range b {
		names[i] = r.Name
	}
	return names
}

// Lookup returns the recipe called name, or an error naming the recipes of the book.
func (b RecipeBook) Lookup(name string) (Recipe, error) {
	for _, r := range b {
		if r.Name == name {
			return r, nil
		}
	}
	return Recipe{}, fmt.Errorf("unknown recipe %q (known: %s)", name, strings.Join(b.Names(), ", "))
}

// The recipes of ARC's Table 2 (docs/arc.md), each a row of `make arc` or `make arc-evaluation`.
var (
	// RecipeDefault is the library's defaults, no settings: the lattice search starts the gates.
	RecipeDefault = Recipe{
		Name: "default",
		Doc: "LatFormer started at the elements the training pairs determine, the library's defaults " +
			"(gate_init=search). The Solver runs the lattice search once: the canvas elements under which one color " +
			"table maps every training input to its output, else the size-relative elements of each input's grid " +
			"(search_lattices=grid), else the anchor-relative ones (search_lattices=anchored, the default), whose " +
			"expert the task then trains. A task with no element on a canvas above 81 cells is not trained " +
			"(train_max_cells). Restart r < min(3, proposals) starts at proposal r with the gates held at its " +
			"element (gate_init_train=hard) for up to 200 steps (train_held_steps): only the color table learns. The " +
			"restarts after them start at the paper's initialization with 100 soft steps (train_unproposed_steps); " +
			"the restarts stop at the first whose hard gates fit every training pair. When none fits, the search's " +
			"top proposal predicts instead (search_fallback). Chosen on the dev half of the annotated training tasks " +
			"(docs/arc.md, \"Table 2 with the lattice search\" and \"Why the soft mask blocks the fit\"); Table 2's " +
			"search row, results/arc_training_search.csv.",
	}
	// RecipePaper is the paper's protocol: the gates learn the element from their initialization.
	RecipePaper = Recipe{
		Name: "paper",
		Doc: "The paper's protocol (Section 5.2, Appendix B.2): no lattice search anywhere (gate_init=paper). Up to " +
			"3 restarts (train_restarts; after the first only on canvases of at most 81 cells, train_max_cells), " +
			"each from its own initialization with every gate near the identity, trains up to 500 steps " +
			"(train_steps) with soft gates on 10 color-permuted copies of the training pairs, stopping once every " +
			"copy is exact for 3 steps; no hard phase, no gate beam. The restarts stop at the first whose " +
			"discretized gates fit every training pair, the best restart is kept, and it predicts with its hard or " +
			"soft gates, whichever fits the training pairs better. The other defaults (initial gate logits, " +
			"augmentation, restarts) were chosen on the dev half (docs/arc.md, \"How the defaults were chosen\"); " +
			"Table 2's first row, results/arc_training.csv.",
		Settings: hparams.Settings{{Key: ParamGateInit, Value: GateInitPaper}},
	}
	// RecipeNoSearch is the best search-free recipe: the paper's start, then the gate beam held.
	RecipeNoSearch = Recipe{
		Name: "nosearch",
		Doc: "LatFormer without the search, gates from the paper's initialization (gate_init=paper), with the " +
			"training recipe that finds more elements by gradient descent. Two restarts on every canvas " +
			"(train_restarts=2, train_max_cells=0): the first frees the translation expert alone, its shift bits " +
			"started at 0.5 and its zero-fill gates at sigmoid(2) (the z family), the second every expert from near " +
			"the identity (train_restart_experts=z,all). Each trains 200 soft steps (train_steps) on 6 color-permuted " +
			"copies of the training pairs (augment_copies; with the paper's 10 and a 25-step beam the dev half " +
			"took 45 % more time for the same tasks solved); if its hard gates " +
			"do not fit the training pairs then, the gate beam holds each of the 4 elements its soft gates make most " +
			"probable for 15 steps (train_gate_beam=4, train_gate_beam_steps=15), the same element for every input, " +
			"and continues the one with the lowest loss, held, up to 300 steps (train_hard_steps) or until its loss " +
			"stalls over 20 steps (train_hard_patience); undone unless it fits. A fit ends after 20 steps with " +
			"every training canvas exact (fit_patience). Where no restart's hard gates fit, a second learner fits " +
			"the same way on frames: its expert " +
			"(turns, flips, scalings) acts on one of up to 64 candidate frames read off the inputs alone " +
			"(expert_frame_candidates; crops, in-place crops and crops scaled by the number of colors of every box a " +
			"selection reads), chosen by a learned softmax gate, with 4 color copies (augment_frame_copies); the " +
			"better fit predicts. A hard fit whose prediction of a test input is no grid counts as no fit. Where " +
			"neither fits, a third learner trains the translation expert alone, its gates a softmax over each " +
			"axis's shifts, two restarts from near the identity, each with its own random stream " +
			"(train_shift_restarts=t,t: the second found one more dev lattice task), and the best fit predicts. " +
			"Chosen on the dev half (docs/arc.md, \"Without the search\"); Table 2's no-search " +
			"row, results/arc_training_nosearch.csv.",
		Settings: hparams.Settings{
			{Key: ParamGateInit, Value: GateInitPaper},
			{Key: latformer.ParamSteps, Value: 200},
			{Key: latformer.ParamHardSteps, Value: 300},
			{Key: latformer.ParamHardPatience, Value: 20},
			{Key: latformer.ParamFitPatience, Value: 20},
			{Key: latformer.ParamRestarts, Value: 2},
			{Key: latformer.ParamMaxCells, Value: 0},
			{Key: latformer.ParamRestartExperts, Value: "z,all"},
			{Key: latformer.ParamGateBeam, Value: 4},
			{Key: latformer.ParamGateBeamSteps, Value: 15},
			{Key: latformer.ParamAugment, Value: 6},
			{Key: experts.ParamFrameCandidates, Value: 64},
			{Key: ParamFrameCopies, Value: 4},
			{Key: ParamShiftRestarts, Value: "t,t"},
		},
	}
	// RecipeEvaluation is RecipeDefault screened by the search: the protocol of the evaluation split.
	RecipeEvaluation = Recipe{
		Name: "evaluation",
		Doc: "The default recipe with the search as a screen (search_screen=true): a task where the lattice search " +
			"finds no element (canvas or grid) is not trained and counts as unsolved; the others train as the " +
			"default recipe does. The protocol of ARC-AGI-1's evaluation split, run once with the defaults chosen on " +
			"the training tasks (docs/arc.md, \"ARC-AGI-1's evaluation split\"); results/arc_evaluation_search.csv.",
		Settings: hparams.Settings{{Key: ParamSearchScreen, Value: true}},
	}
	// RecipePaperEvaluation is RecipePaper screened by the search.
	RecipePaperEvaluation = Recipe{
		Name: "paper-evaluation",
		Doc: "The paper's protocol with the search as a screen (gate_init=paper, search_screen=true): the search " +
			"only decides which tasks train (those where it finds an element), and they train as the paper recipe " +
			"does, from the gates' initialization; the others count as unsolved. The paper-protocol row of " +
			"ARC-AGI-1's evaluation split (docs/arc.md, \"ARC-AGI-1's evaluation split\"); " +
			"results/arc_evaluation.csv.",
		Settings: hparams.Settings{{Key: ParamGateInit, Value: GateInitPaper}, {Key: ParamSearchScreen, Value: true}},
	}
)

// RecipeNoSearchEvaluation is RecipeNoSearch screened by the search: the search-free row of the evaluation
// split.
var RecipeNoSearchEvaluation = Recipe{
	Name: "nosearch-evaluation",
	Doc: "The search-free recipe with the search as a screen (nosearch's settings, " + RecipeNoSearch.Settings.String() +
		", and search_screen=true): the " +
		"search only decides which tasks train (those where it finds an element, as for the training tasks that " +
		"the search determines), and they train as the nosearch recipe does, from the gates' initialization, " +
		"never started at the search's element; the others count as unsolved. The search-free row of ARC-AGI-1's " +
		"evaluation split, run once with the final nosearch recipe (docs/arc.md, \"ARC-AGI-1's evaluation " +
		"split\"); results/arc_evaluation_nosearch.csv.",
	Settings: append(append(hparams.Settings{}, RecipeNoSearch.Settings...),
		hparams.Setting{Key: ParamSearchScreen, Value: true}),
}

// Recipes returns the recipes of ARC. An experiment with recipes of its own adds them.
func Recipes() RecipeBook {
	return RecipeBook{RecipeDefault, RecipePaper, RecipeNoSearch, RecipeEvaluation, RecipePaperEvaluation,
		RecipeNoSearchEvaluation}
}
