// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Config is the part of a Hugging Face T5 config.json that the encoder needs (transformers' T5Config
// field names). Fields missing from the file keep T5Config's defaults (DefaultConfig).
type Config struct {
	ModelType string `json:"model_type"`
	// VocabSize is the number of rows of the embedding table (at least the tokenizer's vocabulary).
	VocabSize int `json:"vocab_size"`
	// DModel is the width of the hidden states; DKV the width of one attention head's keys, queries and
	// values; DFF the hidden width of the feed-forward block.
	DModel int `json:"d_model"`
	DKV    int `json:"d_kv"`
	DFF    int `json:"d_ff"`
	// NumLayers is the number of encoder blocks, NumHeads the attention heads of each.
	NumLayers int `json:"num_layers"`
	NumHeads  int `json:"num_heads"`
	// RelativeBuckets and RelativeMaxDistance define the relative position buckets
	// (RelativePositionBucket) of the attention bias that the first block learns and all blocks share.
	RelativeBuckets     int `json:"relative_attention_num_buckets"`
	RelativeMaxDistance int `json:"relative_attention_max_distance"`
	// FeedForwardProj is "relu" (T5 v1.0, t5-small ...) or "gated-gelu" (T5 v1.1, flan-t5): the
	// feed-forward block is wo(ReLU(wi x)) or wo(gelu_new(wi_0 x) * wi_1 x).
	FeedForwardProj string `json:"feed_forward_proj"`
	// LayerNormEpsilon is the epsilon of the RMS layer norms.
	LayerNormEpsilon float64 `json:"layer_norm_epsilon"`
	PadTokenID       int     `json:"pad_token_id"`
	EOSTokenID       int     `json:"eos_token_id"`
}

// DefaultConfig returns the defaults of transformers' T5Config (those of t5-small).
func DefaultConfig() Config {
	return Config{ModelType: "t5", VocabSize: 32128, DModel: 512, DKV: 64, DFF: 2048, NumLayers: 6, NumHeads: 8,
		RelativeBuckets: 32, RelativeMaxDistance: 128, FeedForwardProj: "relu", LayerNormEpsilon: 1e-6,
		PadTokenID: 0, EOSTokenID: 1}
}

// Gated reports whether the feed-forward block is gated (FeedForwardProj "gated-gelu").
func (c Config) Gated() bool { return c.FeedForwardProj == "gated-gelu" }

// Validate returns an error naming the first field that makes no sense for the encoder.
func (c Config) Validate() error {
	switch {
	case c.ModelType != "" && c.ModelType != "t5" && c.ModelType != "mt5":
		return fmt.Errorf("model_type %q is not a T5 model", c.ModelType)
	case c.VocabSize < 2 || c.DModel < 1 || c.DKV < 1 || c.DFF < 1 || c.NumLayers < 1 || c.NumHeads < 1:
		return fmt.Errorf("vocab_size, d_model, d_kv, d_ff, num_layers and num_heads must be positive "+
			"(got %d, %d, %d, %d, %d, %d)", c.VocabSize, c.DModel, c.DKV, c.DFF, c.NumLayers, c.NumHeads)
	case c.RelativeBuckets < 2 || c.RelativeMaxDistance < 1:
		return fmt.Errorf("relative_attention_num_buckets must be >= 2 "+
			"and relative_attention_max_distance >= 1 (got %d, %d)", c.RelativeBuckets, c.RelativeMaxDistance)
	case c.FeedForwardProj != "relu" && c.FeedForwardProj != "gated-gelu":
		return fmt.Errorf("feed_forward_proj %q is not supported (relu or gated-gelu)", c.FeedForwardProj)
	case c.LayerNormEpsilon <= 0:
		return fmt.Errorf("layer_norm_epsilon must be > 0, got %g", c.LayerNormEpsilon)
	case c.PadTokenID < 0 || c.PadTokenID >= c.VocabSize || c.EOSTokenID < 0 || c.EOSTokenID >= c.VocabSize:
		return fmt.Errorf("pad_token_id %d and eos_token_id %d must be in [0, vocab_size %d)", c.PadTokenID,
			c.EOSTokenID, c.VocabSize)
	}
	return nil
}

// LoadConfig reads dir/config.json over DefaultConfig and validates it.
func LoadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, "config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("t5: %w", err)
	}
	c := DefaultConfig()
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, fmt.Errorf("t5: %s: %w", path, err)
	}
	// "gated-gelu" is also written "gated-gelu_new" by some exports; transformers maps both to gelu_new.
	if c.FeedForwardProj == "gated-gelu_new" {
		c.FeedForwardProj = "gated-gelu"
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("t5: %s: %w", path, err)
	}
	return c, nil
}
