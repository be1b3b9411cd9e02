// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/testutil"
)

// rawTensor is a tensor to write in a safetensors file: dtype "F32", "F16" or "BF16" and raw bytes.
type rawTensor struct {
	dtype string
	shape []int
	data  []byte
}

// writeSafetensors writes tensors in the safetensors format (header length, JSON header, data).
func writeSafetensors(t *testing.T, path string, ts map[string]rawTensor) {
	t.Helper()
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, n := range names {
		header[n] = map[string]any{"dtype": ts[n].dtype, "shape": ts[n].shape, "data_offsets": []int{len(data), len(data) + len(ts[n].data)}}
		data = append(data, ts[n].data...)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	for (8+len(h))%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), data...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// randomF32 returns n normal values (std 0.3) as F32 bytes.
func randomF32(rng *rand.Rand, n int) []byte {
	b := make([]byte, 0, 4*n)
	for range n {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(0.3*rng.NormFloat64())))
	}
	return b
}

// generateCheckpoint writes a random checkpoint of c into a new directory, with the tokenizer of
// testdata/tiny-gated (its spiece.model), and returns the directory and the tensors written.
func generateCheckpoint(t *testing.T, c Config) (string, map[string]rawTensor) {
	t.Helper()
	dir := t.TempDir()
	cfg, _ := json.Marshal(c)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := os.ReadFile(filepath.Join("testdata", "tiny-gated", "spiece.model"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "spiece.model"), sp, 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	ts := map[string]rawTensor{}
	for _, name := range append(encoderTensors(c), "shared.weight", "decoder.final_layer_norm.weight") {
		shape := []int{c.DModel}
		if name == "shared.weight" {
			shape = []int{c.VocabSize, c.DModel}
		} else if !strings.HasPrefix(name, "decoder") {
			shape = expectedShape(c, name)
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		ts[name] = rawTensor{"F32", shape, randomF32(rng, n)}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
	return dir, ts
}

func tinyConfig() Config {
	c := DefaultConfig()
	c.VocabSize, c.DModel, c.DKV, c.DFF, c.NumLayers, c.NumHeads, c.RelativeBuckets, c.RelativeMaxDistance = 160, 12, 3, 20, 3, 4, 6, 10
	return c
}

// TestGeneratedCheckpoint loads a checkpoint the test writes (three blocks, the embedding in
// shared.weight only, a decoder tensor to ignore) and checks what must hold for any weights: a text's
// vector does not depend on the texts batched with it (padding is masked), Embed is the mean of
// Encode's rows, the vectors have Dim entries, and different texts get different vectors.
func TestGeneratedCheckpoint(t *testing.T) {
	dir, _ := generateCheckpoint(t, tinyConfig())
	enc, err := Load(testutil.Backend(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	texts := []string{"rotate the grid", "copy the blue square to the right and then fill the holes of the largest object", "grid"}
	all, err := enc.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := enc.Encode(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		alone, err := enc.Embed([]string{text})
		if err != nil {
			t.Fatal(err)
		}
		if len(all[i]) != enc.Dim() || len(alone[0]) != enc.Dim() {
			t.Fatalf("vector lengths %d, %d, want %d", len(all[i]), len(alone[0]), enc.Dim())
		}
		mean := make([]float64, enc.Dim())
		for _, row := range hidden[i] {
			for k, v := range row {
				mean[k] += float64(v) / float64(len(hidden[i]))
			}
		}
		if d := maxDiff(alone[0], toF64(all[i])); d > 1e-5 {
			t.Errorf("%q: alone and batched differ by %g", text, d)
		}
		if d := maxDiff(all[i], mean); d > 1e-5 {
			t.Errorf("%q: Embed differs from the mean of Encode's rows by %g", text, d)
		}
	}
	if d := maxDiff(all[0], toF64(all[2])); d < 1e-3 {
		t.Errorf("two different texts have vectors %g apart", d)
	}
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// TestLoadErrors checks that broken checkpoints are errors that name the problem.
func TestLoadErrors(t *testing.T) {
	backend := testutil.Backend(t)
	c := tinyConfig()
	for _, tc := range []struct {
		name, want string
		breakIt    func(t *testing.T, dir string, ts map[string]rawTensor)
	}{
		{"no config", "config.json", func(t *testing.T, dir string, _ map[string]rawTensor) {
			_ = os.Remove(filepath.Join(dir, "config.json"))
		}},
		{"bad ffn", "feed_forward_proj", func(t *testing.T, dir string, _ map[string]rawTensor) {
			bad := c
			bad.FeedForwardProj = "swiglu"
			data, _ := json.Marshal(bad)
			_ = os.WriteFile(filepath.Join(dir, "config.json"), data, 0o644)
		}},
		{"no tokenizer", "spiece.model", func(t *testing.T, dir string, _ map[string]rawTensor) {
			_ = os.Remove(filepath.Join(dir, "spiece.model"))
		}},
		{"not a tokenizer", "not a SentencePiece model", func(t *testing.T, dir string, _ map[string]rawTensor) {
			_ = os.WriteFile(filepath.Join(dir, "spiece.model"), []byte("\xff\xff\xff junk"), 0o644)
		}},
		{"no weights", "model.safetensors", func(t *testing.T, dir string, _ map[string]rawTensor) {
			_ = os.Remove(filepath.Join(dir, "model.safetensors"))
		}},
		{"missing tensor", "encoder.block.2.layer.1.DenseReluDense.wo.weight", func(t *testing.T, dir string, ts map[string]rawTensor) {
			delete(ts, "encoder.block.2.layer.1.DenseReluDense.wo.weight")
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
		}},
		{"wrong shape", "encoder.final_layer_norm.weight", func(t *testing.T, dir string, ts map[string]rawTensor) {
			ts["encoder.final_layer_norm.weight"] = rawTensor{"F32", []int{c.DModel + 1}, make([]byte, 4*(c.DModel+1))}
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
		}},
		{"integer tensor", "dtype", func(t *testing.T, dir string, ts map[string]rawTensor) {
			x := ts["encoder.final_layer_norm.weight"]
			ts["encoder.final_layer_norm.weight"] = rawTensor{"I32", x.shape, x.data}
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
		}},
		{"truncated", "data offsets", func(t *testing.T, dir string, _ map[string]rawTensor) {
			p := filepath.Join(dir, "model.safetensors")
			data, _ := os.ReadFile(p)
			_ = os.WriteFile(p, data[:len(data)-100], 0o644)
		}},
		{"not safetensors", "header", func(t *testing.T, dir string, _ map[string]rawTensor) {
			_ = os.WriteFile(filepath.Join(dir, "model.safetensors"), []byte("PK\x03\x04 a zip file, not safetensors"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, ts := generateCheckpoint(t, c)
			tc.breakIt(t, dir, ts)
			_, err := Load(backend, dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error mentioning %q, got %v", tc.want, err)
			}
		})
	}
}

// TestHalfPrecision checks that F16 and BF16 checkpoints load as the float32 values they encode.
func TestHalfPrecision(t *testing.T) {
	for h, want := range map[uint16]float32{0x3c00: 1, 0xc000: -2, 0x3555: 0.333251953125, 0x0001: 5.960464477539063e-08, 0x7bff: 65504, 0x0000: 0} {
		if got := halfToFloat32(h); got != want {
			t.Errorf("halfToFloat32(%#04x) = %g, want %g", h, got, want)
		}
	}
	c := tinyConfig()
	dir, ts := generateCheckpoint(t, c)
	ref, err := Load(testutil.Backend(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	// The same weights rounded to bfloat16 (the upper half of each float32): the vectors move little.
	for name, x := range ts {
		b := make([]byte, 0, len(x.data)/2)
		for i := 0; i < len(x.data); i += 4 {
			b = binary.LittleEndian.AppendUint16(b, uint16(binary.LittleEndian.Uint32(x.data[i:])>>16))
		}
		ts[name] = rawTensor{"BF16", x.shape, b}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
	half, err := Load(testutil.Backend(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	a, _ := ref.Embed([]string{"rotate the grid"})
	b, _ := half.Embed([]string{"rotate the grid"})
	if d := maxDiff(a[0], toF64(b[0])); d > 0.1 || d == 0 {
		t.Errorf("bfloat16 weights: vectors %g apart, want small but not zero", d)
	}
}

// TestEmbeddingStoredTwice covers checkpoints that store the encoder's embedding under its own name as
// well as shared.weight (older save_pretrained versions; transformers 5 writes shared.weight only, as the
// fixtures show): an equal copy gives the same vectors to the last bit, and Load reads that copy (a
// different one changes the vectors).
func TestEmbeddingStoredTwice(t *testing.T) {
	backend := testutil.Backend(t)
	dir, ts := generateCheckpoint(t, tinyConfig())
	embed := func() []float32 {
		t.Helper()
		enc, err := Load(backend, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		v, err := enc.Embed([]string{"rotate the grid"})
		if err != nil {
			t.Fatal(err)
		}
		return v[0]
	}
	sharedOnly := embed()
	ts[embeddingName] = ts["shared.weight"]
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
	if d := maxDiff(embed(), toF64(sharedOnly)); d != 0 {
		t.Errorf("an equal copy in %s moved the vector by %g", embeddingName, d)
	}
	s := ts["shared.weight"]
	ts[embeddingName] = rawTensor{"F32", s.shape, randomF32(rand.New(rand.NewPCG(9, 9)), len(s.data)/4)}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), ts)
	if d := maxDiff(embed(), toF64(sharedOnly)); d < 1e-3 {
		t.Errorf("a different %s moved the vector by only %g: Load did not read it", embeddingName, d)
	}
}
