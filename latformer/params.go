package latformer

import (
	"fmt"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ui/commandline"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/layers"
)

// Training hyperparameters (model.Store keys). Defaults in brackets.
const (
	// ParamLearningRate is Adam's learning rate [0.001].
	ParamLearningRate = "learning_rate"
	// ParamSteps is the maximum number of training steps per task [500].
	ParamSteps = "train_steps"
	// ParamAugment is the number of color-permuted copies of the training pairs in every step
	// (Appendix B.2 uses 10; the first copy is the original colors) [10].
	ParamAugment = "augment_copies"
	// ParamFitPatience stops training after this many consecutive steps with every training canvas
	// predicted exactly (0 disables early stopping) [3].
	ParamFitPatience = "fit_patience"
	// ParamSeed seeds the initialization and the augmentation [1].
	ParamSeed = "seed"
)

// DefaultParams returns every hyperparameter of the model, its layers, experts and training with its
// default value: the single place where defaults are listed, used to fill a model.Store before
// parsing --set.
func DefaultParams() map[string]any {
	return map[string]any{
		ParamDim:                       32,
		ParamNumLayers:                 1,
		ParamSmoothing:                 false,
		ParamNoise:                     0.0,
		ParamLearningRate:              1e-3,
		ParamSteps:                     500,
		ParamAugment:                   10,
		ParamFitPatience:               3,
		ParamSeed:                      1,
		layers.ParamNumHeads:           1,
		layers.ParamFFNDim:             128,
		experts.ParamTranslation:       true,
		experts.ParamRotation:          true,
		experts.ParamReflection:        true,
		experts.ParamScaling:           true,
		experts.ParamTranslationLayers: 5,
		experts.ParamMaxScale:          5,
		experts.ParamGateHidden:        64,
		experts.ParamSmoothingTime:     1.0,
		experts.ParamHardGates:         false,
		experts.ParamGridLattice:       false,
		experts.ParamFlipGateInit:      -2.0,
	}
}

// NewStore returns a model.Store holding DefaultParams, with settings applied on top. settings uses
// GoMLX's --set syntax, "key=value;key=value" (unknown keys and malformed values are errors).
func NewStore(settings string) (*model.Store, error) {
	store := model.NewStore()
	store.SetParams(DefaultParams())
	if settings != "" {
		if _, err := commandline.ParseSettings(store, settings); err != nil {
			return nil, fmt.Errorf("parsing settings %q: %w", settings, err)
		}
	}
	return store, nil
}
