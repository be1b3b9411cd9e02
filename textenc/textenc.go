// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package textenc turns task descriptions into the conditioning vectors of LatFormer + NL (Section
// 5.3): the Encoder interface, which t5.Encoder implements; BagOfWords, an offline stand-in fitted on
// a corpus (latent semantic analysis of TF-IDF word counts), for machines without T5 weights; and
// Cached, which stores every vector it computes in a file per encoder, so that a run encodes each
// description once.
package textenc

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/latformer/latformer/internal/atomicfile"
)

// Encoder turns texts into vectors of Dim entries.
type Encoder interface {
	// Name names the encoder in tables, e.g. "t5:t5-small" or "bow-lsa32".
	Name() string
	Dim() int
	Embed(texts []string) ([][]float32, error)
}

// Fingerprinter is an Encoder whose outputs are determined by a fingerprint (a checkpoint's hash, a
// fitted model's corpus): Cached keys its file by it.
type Fingerprinter interface {
	Fingerprint() (string, error)
}

// Words splits a text into lower-case words: maximal runs of letters and digits.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text),
		func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// BagOfWords is latent semantic analysis (Deerwester et al. 1990): a text's TF-IDF vector over the
// corpus vocabulary (words in at least MinDocs documents), L2-normalized, projected on the top Dim right
// singular vectors of the corpus' TF-IDF matrix, and L2-normalized again. It is fitted offline on a
// corpus, deterministic, and knows nothing a pretrained language model knows: a stand-in for T5 where
// its weights cannot be had, labelled as such.
type BagOfWords struct {
	vocab       map[string]int
	idf         []float64
	basis       [][]float64 // Dim x len(vocab)
	fingerprint string
}

// MinDocs is the number of corpus documents a word must occur in to be in BagOfWords' vocabulary.
const MinDocs = 2

// FitBagOfWords fits a BagOfWords of dim dimensions on corpus (e.g. the descriptions of LARC's
// training split). The singular vectors come from subspace iteration on XᵀX from a seeded start.
func FitBagOfWords(corpus []string, dim int) (*BagOfWords, error) {
	if dim < 1 {
		return nil, fmt.Errorf("textenc: dimension must be >= 1, got %d", dim)
	}
	docFreq := map[string]int{}
	docs := make([][]string, len(corpus))
	for i, text := range corpus {
		docs[i] = Words(text)
		seen := map[string]bool{}
		for _, w := range docs[i] {
			if !seen[w] {
				seen[w] = true
				docFreq[w]++
			}
		}
	}
	var words []string
	for w, n := range docFreq {
		if n >= MinDocs {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	if len(words) < dim {
		return nil, fmt.Errorf("textenc: %d words occur in %d or more of the %d texts, fewer than the %d dimensions",
			len(words), MinDocs, len(corpus), dim)
	}
	b := &BagOfWords{vocab: map[string]int{}, idf: make([]float64, len(words))}
	for i, w := range words {
		b.vocab[w] = i
		b.idf[i] = math.Log(float64(1+len(corpus))/float64(1+docFreq[w])) + 1
	}
	x := make([]sparseRow, len(docs))
	for i, d := range docs {
		for j, v := range b.tfidf(d) {
			if v != 0 {
				x[i] = append(x[i], sparseEntry{j, v})
			}
		}
	}
	b.basis = topRightSingularVectors(x, len(words), dim)
	h := sha256.New()
	fmt.Fprintf(h, "bow dim=%d min_docs=%d\n", dim, MinDocs)
	for _, text := range corpus {
		fmt.Fprintf(h, "%d:%s\n", len(text), text)
	}
	b.fingerprint = hex.EncodeToString(h.Sum(nil))[:16]
	return b, nil
}

// tfidf is the L2-normalized TF-IDF vector of a text's words (zero if none is in the vocabulary).
func (b *BagOfWords) tfidf(words []string) []float64 {
	v := make([]float64, len(b.idf))
	for _, w := range words {
		if i, ok := b.vocab[w]; ok {
			v[i] += b.idf[i]
		}
	}
	normalize(v)
	return v
}

func normalize(v []float64) {
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	if n > 0 {
		n = math.Sqrt(n)
		for i := range v {
			v[i] /= n
		}
	}
}

type sparseEntry struct {
	col int
	val float64
}

// sparseRow is a row of a sparse matrix: its nonzero entries.
type sparseRow []sparseEntry

// topRightSingularVectors returns the k leading eigenvectors of XᵀX (X: sparse rows of length n) by
// subspace iteration with Gram-Schmidt, from a seeded random start.
func topRightSingularVectors(x []sparseRow, n, k int) [][]float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([][]float64, k)
	for i := range q {
		q[i] = make([]float64, n)
		for j := range q[i] {
			q[i][j] = rng.NormFloat64()
		}
	}
	orthonormalize(q)
	for range 300 {
		next := make([][]float64, k)
		for i, v := range q { // XᵀX v
			next[i] = make([]float64, n)
			for _, row := range x {
				xv := 0.0
				for _, e := range row {
					xv += e.val * v[e.col]
				}
				for _, e := range row {
					next[i][e.col] += e.val * xv
				}
			}
		}
		orthonormalize(next)
		q = next
	}
	return rayleighRitz(x, q)
}

// rayleighRitz rotates the orthonormal basis q of an invariant subspace of XᵀX into the eigenvectors
// of XᵀX within it, by decreasing eigenvalue (Jacobi on the small matrix H = Qᵀ XᵀX Q): subspace
// iteration finds the subspace fast, but separates close eigenvalues inside it slowly.
func rayleighRitz(x []sparseRow, q [][]float64) [][]float64 {
	k := len(q)
	xq := make([][]float64, k) // X q_i, one entry per row
	for i, v := range q {
		xq[i] = make([]float64, len(x))
		for r, row := range x {
			for _, e := range row {
				xq[i][r] += e.val * v[e.col]
			}
		}
	}
	h := make([][]float64, k)
	vecs := make([][]float64, k) // the eigenvectors of h, as columns
	for i := range h {
		h[i], vecs[i] = make([]float64, k), make([]float64, k)
		vecs[i][i] = 1
		for j := range h[i] {
			for r := range xq[i] {
				h[i][j] += xq[i][r] * xq[j][r]
			}
		}
	}
	for range 100 { // cyclic Jacobi sweeps
		off := 0.0
		for i := range k {
			for j := i + 1; j < k; j++ {
				off += h[i][j] * h[i][j]
			}
		}
		if off < 1e-30 {
			break
		}
		for p := range k {
			for r := p + 1; r < k; r++ {
				if math.Abs(h[p][r]) < 1e-300 {
					continue
				}
				theta := (h[r][r] - h[p][p]) / (2 * h[p][r])
				tt := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(tt*tt+1)
				sn := tt * c
				for i := range k { // h = Jᵀ h J, vecs = vecs J
					hp, hr := h[i][p], h[i][r]
					h[i][p], h[i][r] = c*hp-sn*hr, sn*hp+c*hr
				}
				for i := range k {
					hp, hr := h[p][i], h[r][i]
					h[p][i], h[r][i] = c*hp-sn*hr, sn*hp+c*hr
				}
				for i := range k {
					vp, vr := vecs[i][p], vecs[i][r]
					vecs[i][p], vecs[i][r] = c*vp-sn*vr, sn*vp+c*vr
				}
			}
		}
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return h[order[a]][order[a]] > h[order[b]][order[b]] })
	out := make([][]float64, k)
	for o, col := range order {
		out[o] = make([]float64, len(q[0]))
		for i := range k {
			for j := range out[o] {
				out[o][j] += vecs[i][col] * q[i][j]
			}
		}
		normalize(out[o])
	}
	return out
}

// orthonormalize makes the vectors orthonormal in order (modified Gram-Schmidt); a vector that
// vanishes is left zero.
func orthonormalize(vs [][]float64) {
	for i := range vs {
		for j := range i {
			dot := 0.0
			for k := range vs[i] {
				dot += vs[i][k] * vs[j][k]
			}
			for k := range vs[i] {
				vs[i][k] -= dot * vs[j][k]
			}
		}
		normalize(vs[i])
	}
}

// Name is "bow-lsa<Dim>".
func (b *BagOfWords) Name() string { return fmt.Sprintf("bow-lsa%d", len(b.basis)) }

// Dim is the number of singular vectors.
func (b *BagOfWords) Dim() int { return len(b.basis) }

// Fingerprint is a hash of the corpus and dimension the encoder was fitted on.
func (b *BagOfWords) Fingerprint() (string, error) { return b.fingerprint, nil }

// Embed returns each text's projection, L2-normalized (zero for a text with no known word).
func (b *BagOfWords) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := b.tfidf(Words(text))
		p := make([]float64, len(b.basis))
		for k, basis := range b.basis {
			for j, a := range v {
				p[k] += a * basis[j]
			}
		}
		normalize(p)
		out[i] = make([]float32, len(p))
		for k, a := range p {
			out[i][k] = float32(a)
		}
	}
	return out, nil
}

// Cached is an Encoder that stores the vectors of an underlying encoder in a JSON file,
// <dir>/<name>-<fingerprint>.json (name with characters other than letters, digits, '.', '-' and
// '_' replaced), keyed by the SHA-256 of the text: each text is encoded once per encoder, across runs.
// The file is rewritten atomically after every Embed that computed new vectors.
type Cached struct {
	enc     Encoder
	path    string
	mu      sync.Mutex
	vectors map[string][]float32
	// Hits and Misses count the texts found in the cache and encoded, since NewCached.
	Hits, Misses int
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// NewCached returns enc with a cache in dir (created if needed), loading the vectors already there.
// enc must implement Fingerprinter, so that vectors of different weights never mix.
func NewCached(enc Encoder, dir string) (*Cached, error) {
	fp, ok := enc.(Fingerprinter)
	if !ok {
		return nil, fmt.Errorf("textenc: encoder %s has no fingerprint to key its cache by", enc.Name())
	}
	key, err := fp.Fingerprint()
	if err != nil {
		return nil, fmt.Errorf("textenc: fingerprint of %s: %w", enc.Name(), err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("textenc: cache: %w", err)
	}
	c := &Cached{enc: enc, path: filepath.Join(dir, unsafeChars.ReplaceAllString(enc.Name(), "_")+"-"+key+".json"),
		vectors: map[string][]float32{}}
	data, err := os.ReadFile(c.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("textenc: cache: %w", err)
	default:
		if err := json.Unmarshal(data, &c.vectors); err != nil {
			return nil, fmt.Errorf("textenc: cache %s is not a JSON map of vectors (delete it to start over): %w",
				c.path, err)
		}
		for k, v := range c.vectors {
			if len(v) != enc.Dim() {
				return nil, fmt.Errorf("textenc: cache %s: vector %s has %d entries, the encoder %d "+
					"(delete the file to start over)", c.path, k, len(v), enc.Dim())
			}
		}
	}
	return c, nil
}

// Path is the cache file.
func (c *Cached) Path() string { return c.path }

// Name is the underlying encoder's.
func (c *Cached) Name() string { return c.enc.Name() }

// Dim is the underlying encoder's.
func (c *Cached) Dim() int { return c.enc.Dim() }

func textKey(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// Embed returns the cached vectors and encodes (in one call) the texts not cached yet.
func (c *Cached) Embed(texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]float32, len(texts))
	var missing []string
	var where []int
	for i, text := range texts {
		if v, ok := c.vectors[textKey(text)]; ok {
			out[i] = v
			c.Hits++
			continue
		}
		missing = append(missing, text)
		where = append(where, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := c.enc.Embed(missing)
	if err != nil {
		return nil, err
	}
	for k, v := range vecs {
		out[where[k]] = v
		c.vectors[textKey(missing[k])] = v
	}
	c.Misses += len(missing)
	data, err := json.Marshal(c.vectors)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(c.path, data, nil); err != nil {
		return nil, fmt.Errorf("textenc: cache: %w", err)
	}
	return out, nil
}
