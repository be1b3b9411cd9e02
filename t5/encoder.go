// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
)

// RelativePositionBucket is T5's bucket of a relative position (key position - query position) for
// a bidirectional encoder (transformers' T5Attention._relative_position_bucket): half of the buckets
// for each sign; distances below numBuckets/4 get a bucket each, larger ones share logarithmically
// spaced buckets up to maxDistance, beyond which all share the last. The logarithm is taken in float32
// as PyTorch does, so that the buckets at the boundaries are the checkpoint's.
func RelativePositionBucket(relative, numBuckets, maxDistance int) int {
	numBuckets /= 2
	bucket := 0
	if relative > 0 {
		bucket = numBuckets
	}
	if relative < 0 {
		relative = -relative
	}
	maxExact := numBuckets / 2
	if relative < maxExact {
		return bucket + relative
	}
	ratio := float32(relative) / float32(maxExact)
	scaled := float32(math.Log(float64(ratio))) /
		float32(math.Log(float64(maxDistance)/float64(maxExact))) * float32(numBuckets-maxExact)
	return bucket + min(maxExact+int(scaled), numBuckets-1)
}

// encoderTensors returns the checkpoint names of the encoder's tensors, in the order of the stack.
func encoderTensors(c Config) []string {
	names := []string{"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"}
	for i := range c.NumLayers {
		p := fmt.Sprintf("encoder.block.%d.layer.", i)
		names = append(names, p+"0.layer_norm.weight",
			p+"0.SelfAttention.q.weight", p+"0.SelfAttention.k.weight",
			p+"0.SelfAttention.v.weight", p+"0.SelfAttention.o.weight",
			p+"1.layer_norm.weight", p+"1.DenseReluDense.wo.weight")
		if c.Gated() {
			names = append(names, p+"1.DenseReluDense.wi_0.weight", p+"1.DenseReluDense.wi_1.weight")
		} else {
			names = append(names, p+"1.DenseReluDense.wi.weight")
		}
	}
	return append(names, "encoder.final_layer_norm.weight")
}

// embeddingName is the variable name of the token embedding table: the checkpoint's
// encoder.embed_tokens.weight, or shared.weight (the same table, which checkpoints often store alone).
const embeddingName = "encoder.embed_tokens.weight"

// expectedShape returns the shape a tensor of the encoder must have under c.
func expectedShape(c Config, name string) []int {
	inner := c.NumHeads * c.DKV
	switch {
	case name == embeddingName:
		return []int{c.VocabSize, c.DModel}
	case name == "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight":
		return []int{c.RelativeBuckets, c.NumHeads}
	case strings.HasSuffix(name, "layer_norm.weight"):
		return []int{c.DModel}
	case strings.HasSuffix(name, "SelfAttention.o.weight"):
		return []int{c.DModel, inner}
	case strings.HasSuffix(name, "SelfAttention.q.weight"), strings.HasSuffix(name, "SelfAttention.k.weight"),
		strings.HasSuffix(name, "SelfAttention.v.weight"):
		return []int{inner, c.DModel}
	case strings.HasSuffix(name, "DenseReluDense.wo.weight"):
		return []int{c.DModel, c.DFF}
	}
	return []int{c.DFF, c.DModel} // wi, wi_0, wi_1
}

// Encoder is a T5 encoder stack (Raffel et al. 2020) with its tokenizer, loaded from a Hugging Face
// checkpoint directory, that turns texts into vectors (Embed). Its weights are variables of a
// model.Store (scope "t5", the checkpoint's tensor names); the graph is EncoderGraph. It is safe for
// concurrent use.
type Encoder struct {
	Config    Config
	Tokenizer *Tokenizer
	// Dir is the checkpoint directory.
	Dir     string
	backend compute.Backend
	store   *model.Store
	mu      sync.Mutex
	exec    *model.Exec
	fpOnce  sync.Once
	fp      string
	fpErr   error
}

// Load reads a T5 checkpoint directory: config.json (Config), model.safetensors (the encoder's
// tensors; the decoder's and the LM head's are not read) and spiece.model (Tokenizer). Embed runs on
// backend. Missing files or tensors and shapes that disagree with the config are errors naming them.
func Load(backend compute.Backend, dir string) (*Encoder, error) {
	c, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	tok, err := LoadTokenizer(dir, c.EOSTokenID)
	if err != nil {
		return nil, err
	}
	if tok.Size > c.VocabSize {
		return nil, fmt.Errorf("t5: %s: the tokenizer has %d pieces, more than vocab_size %d",
			dir, tok.Size, c.VocabSize)
	}
	path := filepath.Join(dir, "model.safetensors")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("t5: no model.safetensors in %s "+
			"(PyTorch .bin checkpoints are not read: convert them to safetensors)", dir)
	}
	present, err := tensorNames(path)
	if err != nil {
		return nil, fmt.Errorf("t5: %w", err)
	}
	names := encoderTensors(c)
	embedding := embeddingName
	if !present[embedding] {
		embedding = "shared.weight"
	}
	weights, err := readTensors(path, append(names, embedding))
	if err != nil {
		return nil, fmt.Errorf("t5: %w", err)
	}
	weights[embeddingName] = weights[embedding]
	store := model.NewStore()
	scope := store.RootScope().In("t5")
	for _, name := range append(names, embeddingName) {
		t := weights[name]
		if want := shapes.Make(dtypes.Float32, expectedShape(c, name)...); !t.Shape().Equal(want) {
			return nil, fmt.Errorf("t5: %s: tensor %s has shape %s, want %s for config.json",
				path, name, t.Shape(), want)
		}
		if _, err := scope.CreateVariable(name, t); err != nil {
			return nil, fmt.Errorf("t5: %w", err)
		}
	}
	e := &Encoder{Config: c, Tokenizer: tok, Dir: dir, backend: backend, store: store}
	e.exec, err = model.NewExec(backend, store, func(scope *model.Scope, ids, mask *Node) []*Node {
		hidden := EncoderGraph(scope.In("t5"), c, ids, mask)
		return []*Node{hidden, MaskedMean(hidden, mask)}
	})
	if err != nil {
		return nil, fmt.Errorf("t5: %w", err)
	}
	return e, nil
}

// Dim is the length of the vectors Embed returns (d_model).
func (e *Encoder) Dim() int { return e.Config.DModel }

// Name names the encoder in tables and cache keys: "t5:" and the checkpoint directory's base name.
func (e *Encoder) Name() string { return "t5:" + filepath.Base(e.Dir) }

// Fingerprint is the SHA-256 (16 hex digits) of the checkpoint's config.json, tokenizer file and
// model.safetensors: the key of cached embeddings (textenc.Cached). Computed once, on first use.
func (e *Encoder) Fingerprint() (string, error) {
	e.fpOnce.Do(func() {
		h := sha256.New()
		for _, name := range []string{"config.json", e.Tokenizer.file, "model.safetensors"} {
			f, err := os.Open(filepath.Join(e.Dir, name))
			if err != nil {
				e.fpErr = fmt.Errorf("t5: %w", err)
				return
			}
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				e.fpErr = fmt.Errorf("t5: %w", err)
				return
			}
		}
		e.fp = hex.EncodeToString(h.Sum(nil))[:16]
	})
	return e.fp, e.fpErr
}

// Close frees the compiled graphs.
func (e *Encoder) Close() { e.exec.Finalize() }

// EncoderGraph is the T5 encoder stack on token ids [batch, length] (int32) with an attention mask
// [batch, length] (1 for a token, 0 for padding), returning the final hidden states [batch, length,
// d_model]. The variables are read from scope under the checkpoint's tensor names (Load creates them):
// the token embedding; per block, x += O·Attention(RMSNorm(x)) with the position bias of the first
// block's relative buckets (shared by all blocks, no 1/√d_kv scaling, as T5), then
// x += FFN(RMSNorm(x)) with FFN = wo·ReLU(wi·) or wo·(gelu_new(wi_0·) ⊙ wi_1·), gelu_new being GoMLX's
// GeluApproximate; a final RMS norm.
// No dropout: the encoder is used frozen.
func EncoderGraph(scope *model.Scope, c Config, ids, mask *Node) *Node {
	g := ids.Graph()
	batch, length := ids.Shape().Dimensions[0], ids.Shape().Dimensions[1]
	w := func(name string) *Node {
		v := scope.GetVariable(name)
		if v == nil {
			exceptions.Panicf("t5.EncoderGraph: no variable %q in the scope (t5.Load creates them)", name)
		}
		return v.NodeValue(g)
	}
	rms := func(x *Node, name string) *Node {
		variance := ReduceAndKeep(Square(x), ReduceMean, -1)
		return Mul(Mul(x, Rsqrt(AddScalar(variance, c.LayerNormEpsilon))), Reshape(w(name), 1, 1, c.DModel))
	}
	linear := func(x *Node, name string) *Node { return Einsum("bli,oi->blo", x, w(name)) }

	x := Gather(w(embeddingName), ExpandAxes(ConvertDType(ids, dtypes.Int32), -1)) // [b, L, d]

	// Position bias [1, h, L, L] from the relative buckets of key - query, plus the padding mask.
	buckets := make([]int32, length*length)
	for q := range length {
		for k := range length {
			buckets[q*length+k] = int32(RelativePositionBucket(k-q, c.RelativeBuckets, c.RelativeMaxDistance))
		}
	}
	bucketIDs := Const(g, tensors.FromFlatDataAndDimensions(buckets, length, length, 1))
	bias := Gather(w("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"), bucketIDs) // [L, L, h]
	bias = ExpandAxes(TransposeAllAxes(bias, 2, 0, 1), 0)                                                // [1, h, L, L]
	maskBias := MulScalar(OneMinus(ConvertDType(mask, dtypes.Float32)), -1e9)
	bias = Add(bias, Reshape(maskBias, batch, 1, 1, length)) // [b, h, L, L]

	heads, dkv := c.NumHeads, c.DKV
	for i := range c.NumLayers {
		p := fmt.Sprintf("encoder.block.%d.layer.", i)
		n := rms(x, p+"0.layer_norm.weight")
		q := Reshape(linear(n, p+"0.SelfAttention.q.weight"), batch, length, heads, dkv)
		k := Reshape(linear(n, p+"0.SelfAttention.k.weight"), batch, length, heads, dkv)
		v := Reshape(linear(n, p+"0.SelfAttention.v.weight"), batch, length, heads, dkv)
		scores := Add(Einsum("bqhd,bkhd->bhqk", q, k), bias)
		ctx := Einsum("bhqk,bkhd->bqhd", Softmax(scores, -1), v)
		x = Add(x, linear(Reshape(ctx, batch, length, heads*dkv), p+"0.SelfAttention.o.weight"))

		n = rms(x, p+"1.layer_norm.weight")
		var h *Node
		if c.Gated() {
			h = Mul(activation.GeluApproximate(linear(n, p+"1.DenseReluDense.wi_0.weight")),
				linear(n, p+"1.DenseReluDense.wi_1.weight"))
		} else {
			h = activation.Relu(linear(n, p+"1.DenseReluDense.wi.weight"))
		}
		x = Add(x, linear(h, p+"1.DenseReluDense.wo.weight"))
	}
	return rms(x, "encoder.final_layer_norm.weight")
}

// MaskedMean averages hidden [batch, length, d] over the tokens where mask [batch, length] is 1: one
// vector per text. Mean pooling of the encoder's outputs is what Sentence-T5 (Ni et al. 2022) found
// the best sentence embedding of a T5 encoder without fine-tuning; the paper does not say how it
// pooled. The </s> token is included, as in Sentence-T5.
func MaskedMean(hidden, mask *Node) *Node {
	m := ExpandAxes(ConvertDType(mask, hidden.DType()), -1)
	return Div(ReduceSum(Mul(hidden, m), 1), ReduceSum(m, 1))
}

// maxBatch is the number of texts Embed encodes at once; lengths are padded to a multiple of
// lengthStep, so that few graphs are compiled.
const (
	maxBatch   = 8
	lengthStep = 16
)

// Encode returns the final hidden states of each text's tokens (Tokenizer.Encode): one [tokens][d_model]
// matrix per text.
func (e *Encoder) Encode(texts []string) ([][][]float32, error) {
	hidden, _, err := e.run(texts)
	return hidden, err
}

// Embed returns one vector of length Dim per text: the mean of the encoder's final hidden states over
// the text's tokens (MaskedMean).
func (e *Encoder) Embed(texts []string) ([][]float32, error) {
	_, pooled, err := e.run(texts)
	return pooled, err
}

// run encodes texts in batches of maxBatch, padded with the pad id to a multiple of lengthStep.
func (e *Encoder) run(texts []string) (hidden [][][]float32, pooled [][]float32, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for start := 0; start < len(texts); start += maxBatch {
		chunk := texts[start:min(len(texts), start+maxBatch)]
		ids := make([][]int, len(chunk))
		length := 1
		for i, t := range chunk {
			ids[i] = e.Tokenizer.Encode(t)
			length = max(length, len(ids[i]))
		}
		length = (length + lengthStep - 1) / lengthStep * lengthStep
		flatIDs := make([]int32, maxBatch*length)
		flatMask := make([]float32, maxBatch*length)
		for i := range maxBatch {
			row := ids[min(i, len(ids)-1)] // unused rows repeat the last text
			for j := range length {
				if j < len(row) {
					flatIDs[i*length+j], flatMask[i*length+j] = int32(row[j]), 1
				} else {
					flatIDs[i*length+j] = int32(e.Config.PadTokenID)
				}
			}
		}
		out, err := e.exec.Call(tensors.FromFlatDataAndDimensions(flatIDs, maxBatch, length),
			tensors.FromFlatDataAndDimensions(flatMask, maxBatch, length))
		if err != nil {
			return nil, nil, fmt.Errorf("t5: encoding: %w", err)
		}
		h := tensors.MustCopyFlatData[float32](out[0])
		m := tensors.MustCopyFlatData[float32](out[1])
		d := e.Config.DModel
		for i := range chunk {
			rows := make([][]float32, len(ids[i]))
			for j := range rows {
				rows[j] = h[(i*length+j)*d : (i*length+j+1)*d : (i*length+j+1)*d]
			}
			hidden = append(hidden, rows)
			pooled = append(pooled, m[i*d:(i+1)*d:(i+1)*d])
		}
	}
	return hidden, pooled, nil
}
