// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package baselines holds the neural baselines of the paper's Table 2 (Section 5.2) as
// latformer.Architecture values, so that a latformer.Learner trains them task by task with exactly
// LatFormer's protocol (color augmentation, steps, early stopping, restarts, prediction):
//
//	cnn              a residual stack of 3 x 3 convolutions (layers.Convolution's variables, computed
//	                 as one matrix product, which the pure-Go backend runs on its SIMD kernels)
//	pixelcnn         a conditional PixelCNN: masked 3 x 3 convolutions (type A, then residual type B)
//	                 over the output canvas so far, the input added through unmasked convolutions;
//	                 trained by teacher forcing, decoded cell by cell (Architecture.BuildAutoregressive)
//	attention_abs    one self-attention layer with learned absolute positional embeddings
//	                 (GoMLX attention.SelfAttention and attention/pos.Learned), post-LN with a ReLU FFN
//	                 like the LatFormer layer
//	attention_rel    the same layer with relative positional encodings (Shaw et al. 2018) in two
//	                 dimensions: the key term q_i·(a_r[Δrow] + a_c[Δcol]), clipped offsets
//	transformer      a Transformer encoder (GoMLX ml/zoo/transformer: pre-LN, GELU, no causal mask,
//	                 learned absolute positions)
//	transformer_aug  the Transformer with data augmentation: the input's images under the rotations,
//	                 reflections and scalings of the canvas are extra inputs, one embedding table each,
//	                 summed into every cell's embedding
//	dnc              the Differentiable Neural Computer (Graves et al. 2016): an LSTM controller with an
//	                 external memory (content addressing, usage-based allocation, temporal links; one write
//	                 and two read heads) reading the canvas's cells twice, with the spectral regularization
//	                 of Kolev et al. added to the training loss
//
// Every model maps tokens [batch, rows*cols] (colors 0..9 and the pad token) to per-cell logits
// [batch, rows*cols, 11] and has no mask experts (latformer.Outputs.Gates is nil). Their sizes are
// hyperparameters (Params) with defaults of the size of a one-layer LatFormer (d = 32); docs/arc-baselines.md
// lists them with their parameter counts.
package baselines

import (
	"fmt"
	"maps"
	"sort"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/hparams"

	"github.com/latformer/latformer/latformer"
)

// Hyperparameter keys (model.Store keys, settable with --set). Defaults in brackets.
const (
	// ParamDim is the model (embedding) dimension of every baseline [32].
	ParamDim = "baseline_dim"
	// ParamLayers is the number of layers: convolutions of the CNN, encoder layers of the Transformers,
	// attention layers of the attention baselines [4 for the CNN and the Transformers, 1 for attention:
	// see Default].
	ParamLayers = "baseline_layers"
	// ParamHeads is the number of attention heads [4].
	ParamHeads = "baseline_heads"
	// ParamMaxRelative clips the relative offsets of attention_rel to ±this many cells per axis [29].
	ParamMaxRelative = "baseline_max_relative"
)

// sharedParams declares the hyperparameters the baselines share, with their defaults and the values they
// accept, the one place they are written; ParamLayers' default is per model (params).
var sharedParams = hparams.NewTable(
	hparams.Def(ParamDim, 32).AtLeast(1),
	hparams.Def(ParamHeads, 4).AtLeast(1),
	hparams.Def(ParamMaxRelative, 29).AtLeast(0),
)

// defaultParams holds the defaults of sharedParams.
var defaultParams = sharedParams.Defaults()

// params are the hyperparameters a baseline declares (latformer.Architecture.Params): sharedParams and
// ParamLayers with the model's default, layers.
func params(layers int) hparams.Table {
	p := maps.Clone(sharedParams)
	p[ParamLayers] = hparams.Def(ParamLayers, layers).AtLeast(1)
	return p
}

// param returns the baseline hyperparameter key (ParamDim, ParamHeads or ParamMaxRelative) from scope,
// or its default from defaultParams.
func param[T any](scope *model.Scope, key string) T {
	return model.GetParamOr(scope, key, defaultParams[key].(T))
}

// numLayers returns ParamLayers from scope, or the model's default defaultLayers.
func numLayers(scope *model.Scope, defaultLayers int) int {
	return model.GetParamOr(scope, ParamLayers, defaultLayers)
}

// registry maps the architecture names to their constructors.
var registry = map[string]func() latformer.Architecture{
	"cnn":             CNN,
	"pixelcnn":        PixelCNN,
	"attention_abs":   AttentionAbs,
	"attention_rel":   AttentionRel,
	"transformer":     Transformer,
	"transformer_aug": TransformerAug,
	"dnc":             DNC,
}

// Names lists the baselines, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ByName returns the architecture called name: "latformer" or one of Names.
func ByName(name string) (latformer.Architecture, error) {
	if name == "latformer" {
		return latformer.LatFormerArchitecture(), nil
	}
	if f, ok := registry[name]; ok {
		return f(), nil
	}
	return latformer.Architecture{}, fmt.Errorf("unknown model %q: want latformer or one of %v", name, Names())
}

// check panics with a clear message when tokens do not fit the canvas.
func check(name string, rows, cols int, tokensShape []int) {
	if len(tokensShape) != 2 || tokensShape[1] != rows*cols {
		panic(fmt.Sprintf("baselines.%s: tokens must be [batch, %d] for a %dx%d canvas, got %v", name, rows*cols,
			rows, cols, tokensShape))
	}
}
