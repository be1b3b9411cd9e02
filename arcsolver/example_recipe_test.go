// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver_test

import (
	"fmt"
	"log"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// ExampleRecipeBook_Lookup takes the search-free recipe by name and sets the seed on top, as
// `--recipe nosearch --set seed=2` does; the settings go to New or an experiment's Options.Settings.
func ExampleRecipeBook_Lookup() {
	recipe, err := arcsolver.Recipes().Lookup("nosearch")
	if err != nil {
		log.Fatal(err)
	}
	// The recipe first, your own settings on top (as --set on the command line).
	settings := recipe.Settings.With(hparams.Setting{Key: latformer.ParamSeed, Value: 2})
	if err := arcsolver.CheckSettings(latformer.LatFormerArchitecture(), settings); err != nil {
		log.Fatal(err)
	}
	fmt.Println(settings)
	fmt.Println(settings.Get(latformer.ParamGateBeam))

	_, err = arcsolver.Recipes().Lookup("nosaerch")
	fmt.Println(err)
	// Output:
	// gate_init=paper;train_steps=200;train_hard_steps=300;train_hard_patience=20;fit_patience=20;train_restarts=2;train_max_cells=0;train_restart_experts=z,all;train_gate_beam=4;train_gate_beam_steps=15;augment_copies=6;expert_frame_candidates=64;augment_frame_copies=4;train_shift_restarts=t,t;seed=2
	// 4 true
	// unknown recipe "nosaerch" (known: default, paper, nosearch, evaluation, paper-evaluation, nosearch-evaluation)
}
