// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/latformer/latformer/internal/testutil"
)

// goldenTolerance is the largest absolute difference allowed between our float32 encoder and the
// golden vectors (computed in float64 by scripts/t5_fixture.py; PyTorch in float32 lands within 1e-5).
const goldenTolerance = 1e-4

// golden is testdata/<model>/golden.json, written by scripts/t5_fixture.py.
type golden struct {
	Reference string `json:"reference"`
	Texts     []struct {
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

// TestGolden checks both tiny checkpoints (T5 v1.0 ReLU with the embedding stored twice, v1.1
// gated-GELU with shared.weight only) against the reference: token ids equal to the sentencepiece
// Python package's plus </s>, every hidden state and mean within goldenTolerance, for texts alone and
// for a padded batch (whose real rows and masked means must match the texts alone).
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
			texts := make([]string, len(g.Texts))
			for i, c := range g.Texts {
				texts[i] = c.Text
				if got := enc.Tokenizer.Encode(c.Text); !slices.Equal(got, c.IDs) {
					t.Errorf("%q: ids %v, want %v (sentencepiece)", c.Text, got, c.IDs)
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
			t.Logf("%s: max |ours - reference| = %.2g over %d texts and a batch of %d (reference: %s)", name, worst, len(texts), len(g.Batch.Texts), g.Reference)
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
