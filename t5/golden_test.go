// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/testutil"
)

// goldenTolerance is the largest absolute difference allowed between our float32 encoder and the
// golden vectors (transformers' T5EncoderModel run in float64 by scripts/t5_hf_fixture.py; the same model
// in float32 lands within about 1e-6 of them, golden.json's float32_max_abs_diff).
const goldenTolerance = 1e-5

// golden is testdata/<model>/golden.json, written by scripts/t5_hf_fixture.py.
type golden struct {
	Reference  string            `json:"reference"`
	Tokenizer  string            `json:"tokenizer"`
	Versions   map[string]string `json:"versions"`
	Float32Off float64           `json:"float32_max_abs_diff"`
	Texts      []struct {
		Text   string      `json:"text"`
		IDs    []int       `json:"ids"`
		Hidden [][]float64 `json:"hidden"`
		Mean   []float64   `json:"mean"`
	} `json:"texts"`
	Batch struct {
		Texts  []string      `json:"texts"`
		IDs    [][]int       `json:"ids"`
		Mask   [][]int       `json:"mask"`
		Hidden [][][]float64 `json:"hidden"`
		Mean   [][]float64   `json:"mean"`
	} `json:"batch"`
	Buckets struct {
		NumBuckets  int   `json:"num_buckets"`
		MaxDistance int   `json:"max_distance"`
		Relative    []int `json:"relative_position"`
		Bucket      []int `json:"bucket"`
	} `json:"relative_position_buckets"`
}

func loadGolden(t *testing.T, name string) golden {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name, "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Texts) == 0 || len(g.Batch.Texts) == 0 {
		t.Fatalf("%s: golden.json has no texts", name)
	}
	return g
}

// maxDiff returns the largest |a[i] - b[i]|, or +Inf if the lengths differ.
func maxDiff(a []float32, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(float64(a[i])-b[i]))
	}
	return d
}

// TestGolden checks both tiny checkpoints, as transformers' save_pretrained wrote them (T5 v1.0 ReLU with
// tied embeddings and only tokenizer.json, normalized by SentencePiece's nmt_nfkc map as the real T5; v1.1
// gated-GELU with spiece.model beside tokenizer.json, a small user-defined normalization; both with
// shared.weight only and the decoder's tensors to skip), against transformers: token ids equal to its T5
// tokenizer's (which equal the sentencepiece package's plus </s>), every hidden state and mean within
// goldenTolerance of T5EncoderModel's, for texts alone and for a padded batch (whose real rows and masked
// means must match the texts alone).
func TestGolden(t *testing.T) {
	backend := testutil.Backend(t)
	for _, name := range []string{"tiny", "tiny-gated"} {
		t.Run(name, func(t *testing.T) {
			g := loadGolden(t, name)
			enc, err := Load(backend, filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			defer enc.Close()
			// Which tokenizer file Load read: tiny has no spiece.model (transformers 5 writes none).
			wantFile := map[string]string{"tiny": "tokenizer.json", "tiny-gated": "spiece.model"}[name]
			if enc.Tokenizer.file != wantFile {
				t.Errorf("%s: tokenizer read from %s, want %s", name, enc.Tokenizer.file, wantFile)
			}
			texts := make([]string, len(g.Texts))
			for i, c := range g.Texts {
				texts[i] = c.Text
				if got := enc.Tokenizer.Encode(c.Text); !slices.Equal(got, c.IDs) {
					t.Errorf("%q: ids %v, want %v (transformers)", c.Text, got, c.IDs)
				}
			}
			hidden, err := enc.Encode(texts)
			if err != nil {
				t.Fatal(err)
			}
			means, err := enc.Embed(texts)
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i, c := range g.Texts {
				if len(hidden[i]) != len(c.Hidden) {
					t.Errorf("%q: %d hidden rows, want %d", c.Text, len(hidden[i]), len(c.Hidden))
					continue
				}
				for j := range c.Hidden {
					worst = max(worst, maxDiff(hidden[i][j], c.Hidden[j]))
				}
				worst = max(worst, maxDiff(means[i], c.Mean))
			}
			// The batch: texts of different lengths padded together.
			bh, err := enc.Encode(g.Batch.Texts)
			if err != nil {
				t.Fatal(err)
			}
			bm, err := enc.Embed(g.Batch.Texts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range g.Batch.Texts {
				for j, m := range g.Batch.Mask[i] {
					if m == 1 {
						worst = max(worst, maxDiff(bh[i][j], g.Batch.Hidden[i][j]))
					}
				}
				worst = max(worst, maxDiff(bm[i], g.Batch.Mean[i]))
			}
			t.Logf("%s: max |ours - reference| = %.2g over %d texts and a batch of %d (reference: %s; transformers in float32: %.2g; versions %v)",
				name, worst, len(texts), len(g.Batch.Texts), g.Reference, g.Float32Off, g.Versions)
			if worst > goldenTolerance {
				t.Errorf("%s: max difference %g from the reference, want <= %g", name, worst, goldenTolerance)
			}
		})
	}
}

// TestRelativePositionBucket checks the buckets against those transformers' formula gives (golden),
// and T5's defaults (32 buckets, distance 128) at a few points of each regime.
func TestRelativePositionBucket(t *testing.T) {
	g := loadGolden(t, "tiny")
	for i, rel := range g.Buckets.Relative {
		if got := RelativePositionBucket(rel, g.Buckets.NumBuckets, g.Buckets.MaxDistance); got != g.Buckets.Bucket[i] {
			t.Errorf("bucket(%d) = %d, want %d", rel, got, g.Buckets.Bucket[i])
		}
	}
	// t5-small: 16 buckets a side, exact below 8, log-spaced to 128, clamped after.
	for rel, want := range map[int]int{0: 0, -1: 1, -7: 7, 1: 17, 7: 23, -8: 8, -128: 15, -1000: 15, 1000: 31, 12: 25, -12: 9} {
		if got := RelativePositionBucket(rel, 32, 128); got != want {
			t.Errorf("t5-small bucket(%d) = %d, want %d", rel, got, want)
		}
	}
}

// TestTokenizerJSON checks the tokenizer.json reader against the spiece.model reader on the same model
// (tiny-gated ships both, as the Hub's T5 repositories do): the same ids as transformers on every golden
// text; and that tokenizer.json files this reader cannot follow are errors naming what it does not support.
func TestTokenizerJSON(t *testing.T) {
	g := loadGolden(t, "tiny-gated")
	path := filepath.Join("testdata", "tiny-gated", "tokenizer.json")
	fromJSON, err := LoadTokenizerJSON(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	fromSPM, err := LoadTokenizer(filepath.Join("testdata", "tiny-gated"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if fromSPM.file != "spiece.model" || fromJSON.Size != fromSPM.Size+100 {
		t.Errorf("spiece.model read from %s with %d pieces, tokenizer.json %d: want spiece.model and 100 more (<extra_id_N>)", fromSPM.file, fromSPM.Size, fromJSON.Size)
	}
	for _, c := range g.Texts {
		if got := fromJSON.Encode(c.Text); !slices.Equal(got, c.IDs) {
			t.Errorf("%q: tokenizer.json ids %v, want %v (transformers)", c.Text, got, c.IDs)
		}
		if a, b := fromJSON.Normalize(c.Text), fromSPM.Normalize(c.Text); a != b {
			t.Errorf("%q: normalized %q from tokenizer.json, %q from spiece.model", c.Text, a, b)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	// The normalizer as older transformers converters wrote it (the Hub's t5-small): the character map in a
	// Sequence with a Replace of runs of spaces; the same ids.
	var older map[string]any
	_ = json.Unmarshal(data, &older)
	older["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{older["normalizer"],
		map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": " {2,}"}, "content": " "}}}
	olderPath := filepath.Join(t.TempDir(), "tokenizer.json")
	if out, err := json.Marshal(older); err != nil || os.WriteFile(olderPath, out, 0o644) != nil {
		t.Fatal("writing the older tokenizer.json")
	}
	fromOlder, err := LoadTokenizerJSON(olderPath, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Texts {
		if got := fromOlder.Encode(c.Text); !slices.Equal(got, c.IDs) {
			t.Errorf("%q: ids %v with the older normalizer, want %v", c.Text, got, c.IDs)
		}
	}
	for _, tc := range []struct {
		name, want string
		edit       func(j map[string]any)
	}{
		{"BPE model", "Unigram", func(j map[string]any) { j["model"].(map[string]any)["type"] = "BPE" }},
		{"NFKC normalizer", "normalizer \"NFKC\"", func(j map[string]any) { j["normalizer"] = map[string]any{"type": "NFKC"} }},
		{"other Replace", "normalizer \"Replace\"", func(j map[string]any) {
			j["normalizer"] = map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": "a"}, "content": "b"}
		}},
		{"byte-level pre-tokenizer", "pre-tokenizer \"ByteLevel\"", func(j map[string]any) { j["pre_tokenizer"] = map[string]any{"type": "ByteLevel"} }},
		{"bad vocab entry", "vocab entry 3", func(j map[string]any) { j["model"].(map[string]any)["vocab"].([]any)[3] = "x" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c map[string]any
			_ = json.Unmarshal(data, &c)
			tc.edit(c)
			out, _ := json.Marshal(c)
			p := filepath.Join(t.TempDir(), "tokenizer.json")
			if err := os.WriteFile(p, out, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadTokenizerJSON(p, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error mentioning %q, got %v", tc.want, err)
			}
		})
	}
}
