// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package textenc

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

var corpus = []string{
	"Rotate the grid by 90 degrees clockwise.",
	"Rotate the shape 90 degrees and copy it.",
	"Flip the grid upside down, a vertical reflection.",
	"Reflect the pattern across the vertical axis, flip it.",
	"Make the grid twice as big: scale each cell by two.",
	"Scale the small shape by three, each cell becomes a block.",
	"Move the blue square two cells to the right.",
	"Move every shape one cell down and to the right.",
	"Copy the grid and rotate the copy.",
	"Scale the grid by two and flip it.",
}

// TestWords checks the word splitting.
func TestWords(t *testing.T) {
	if got := Words("Rotate 90°, then FLIP-it!"); !slices.Equal(got, []string{"rotate", "90", "then", "flip", "it"}) {
		t.Errorf("Words = %q", got)
	}
}

// TestBagOfWords checks LSA's algebra and behavior: the basis is orthonormal and made of
// eigenvectors of XᵀX (||XᵀX b - λb|| small), fitting is deterministic, vectors are unit length
// (zero for a text of unknown words), and texts about the same action are closer than texts about
// different ones.
func TestBagOfWords(t *testing.T) {
	const dim = 4
	b, err := FitBagOfWords(corpus, dim)
	if err != nil {
		t.Fatal(err)
	}
	if b.Dim() != dim || b.Name() != "bow-lsa4" {
		t.Errorf("Dim %d, Name %q", b.Dim(), b.Name())
	}
	for i := range b.basis {
		for j := range b.basis {
			dot := 0.0
			for k := range b.basis[i] {
				dot += b.basis[i][k] * b.basis[j][k]
			}
			if want := map[bool]float64{true: 1, false: 0}[i == j]; math.Abs(dot-want) > 1e-9 {
				t.Errorf("basis %d·%d = %g, want %g", i, j, dot, want)
			}
		}
	}
	// Eigenvector check: XᵀX b = λ b.
	var x [][]float64
	for _, text := range corpus {
		x = append(x, b.tfidf(Words(text)))
	}
	for i, v := range b.basis {
		xtxv := make([]float64, len(v))
		for _, row := range x {
			d := 0.0
			for k := range row {
				d += row[k] * v[k]
			}
			for k := range row {
				xtxv[k] += row[k] * d
			}
		}
		lambda, resid := 0.0, 0.0
		for k := range v {
			lambda += xtxv[k] * v[k]
		}
		for k := range v {
			resid += (xtxv[k] - lambda*v[k]) * (xtxv[k] - lambda*v[k])
		}
		if math.Sqrt(resid) > 1e-6*max(1, lambda) {
			t.Errorf("basis %d: ||XᵀXb - λb|| = %g (λ = %g)", i, math.Sqrt(resid), lambda)
		}
	}
	again, _ := FitBagOfWords(corpus, dim)
	fa, _ := b.Fingerprint()
	fb, _ := again.Fingerprint()
	va, _ := b.Embed(corpus[:1])
	vb, _ := again.Embed(corpus[:1])
	if fa != fb || !slices.Equal(va[0], vb[0]) {
		t.Error("fitting twice gave different encoders")
	}
	vecs, err := b.Embed([]string{"rotate the grid by 90 degrees", "rotate the shape by 90 degrees", "scale each cell by two", "zebra quokka"})
	if err != nil {
		t.Fatal(err)
	}
	norm := func(v []float32) float64 {
		n := 0.0
		for _, a := range v {
			n += float64(a) * float64(a)
		}
		return math.Sqrt(n)
	}
	dist := func(a, c []float32) float64 {
		d := 0.0
		for i := range a {
			d += float64(a[i]-c[i]) * float64(a[i]-c[i])
		}
		return math.Sqrt(d)
	}
	for i := range 3 {
		if math.Abs(norm(vecs[i])-1) > 1e-5 {
			t.Errorf("vector %d has norm %g", i, norm(vecs[i]))
		}
	}
	if norm(vecs[3]) != 0 {
		t.Errorf("unknown words: norm %g, want 0", norm(vecs[3]))
	}
	if same, other := dist(vecs[0], vecs[1]), dist(vecs[0], vecs[2]); same >= other {
		t.Errorf("two rotations are %g apart, a rotation and a scaling %g", same, other)
	}
	if _, err := FitBagOfWords(corpus[:2], 50); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("too few words: %v", err)
	}
}

// counting is an Encoder that counts the texts it encodes.
type counting struct {
	*BagOfWords
	calls, texts int
}

func (c *counting) Embed(texts []string) ([][]float32, error) {
	c.calls++
	c.texts += len(texts)
	return c.BagOfWords.Embed(texts)
}

// TestCached checks that each text is encoded once, across Cached values on the same directory, that
// the vectors are the encoder's, that a corrupt cache file is an error, and that an encoder without a
// fingerprint cannot be cached.
func TestCached(t *testing.T) {
	b, err := FitBagOfWords(corpus, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	enc := &counting{BagOfWords: b}
	c, err := NewCached(enc, dir)
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.Embed(corpus[:4])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(corpus[2:6]); err != nil {
		t.Fatal(err)
	}
	if enc.texts != 6 || c.Hits != 2 || c.Misses != 6 {
		t.Errorf("encoded %d texts, hits %d, misses %d; want 6, 2, 6", enc.texts, c.Hits, c.Misses)
	}
	enc2 := &counting{BagOfWords: b}
	c2, err := NewCached(enc2, dir)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c2.Embed(corpus[:4])
	if err != nil {
		t.Fatal(err)
	}
	want, _ := b.Embed(corpus[:4])
	for i := range again {
		if !slices.Equal(again[i], first[i]) || !slices.Equal(again[i], want[i]) {
			t.Errorf("text %d: cached vector differs", i)
		}
	}
	if enc2.calls != 0 {
		t.Errorf("a new Cached on the same directory encoded %d times, want 0", enc2.calls)
	}
	if err := os.WriteFile(c.Path(), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewCached(enc, dir); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("corrupt cache: %v", err)
	}
	if _, err := NewCached(noFingerprint{b}, dir); err == nil {
		t.Error("an encoder without a fingerprint was cached")
	}
}

type noFingerprint struct{ b *BagOfWords }

func (n noFingerprint) Name() string                              { return "x" }
func (n noFingerprint) Dim() int                                  { return n.b.Dim() }
func (n noFingerprint) Embed(texts []string) ([][]float32, error) { return n.b.Embed(texts) }
