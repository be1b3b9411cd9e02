// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"math"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
)

// TestNoisyOneHot checks the input noise of Appendix B.4 in the graph: the formula as written equals
// datasets.NoisyOneHot (the reference) for every token; the random reading (ParamNoiseRandom) keeps each
// entry within [(1-w) onehot, (1-w) onehot + w], has mean noise w/2, and draws anew at every call.
func TestNoisyOneHot(t *testing.T) {
	backend := testutil.Backend(t)
	const w = 0.4
	tokens := make([]int32, 2*datasets.NumTokens*50)
	for i := range tokens {
		tokens[i] = int32(i % datasets.NumTokens)
	}
	in := tensors.FromFlatDataAndDimensions(tokens, 2, len(tokens)/2)
	for _, random := range []bool{false, true} {
		exec := model.MustNewExec(backend, model.NewStore(), func(scope *model.Scope, tok *Node) *Node {
			return noisyOneHot(scope, tok, w, random)
		})
		a := tensors.MustCopyFlatData[float32](exec.MustCall(in)[0])
		b := tensors.MustCopyFlatData[float32](exec.MustCall(in)[0])
		noiseSum, differ := 0.0, 0
		for i, tok := range tokens {
			want, err := datasets.NoisyOneHot(tok, w)
			if err != nil {
				t.Fatal(err)
			}
			for k := range datasets.NumTokens {
				got := float64(a[i*datasets.NumTokens+k])
				hot := want[k] - w // (1-w)·onehot
				if !random {
					if math.Abs(got-want[k]) > 1e-6 {
						t.Fatalf("token %d entry %d: %g, want %g (datasets.NoisyOneHot)", tok, k, got, want[k])
					}
					continue
				}
				if got < hot-1e-6 || got > hot+w+1e-6 {
					t.Fatalf("random: token %d entry %d = %g outside [%g, %g]", tok, k, got, hot, hot+w)
				}
				noiseSum += got - hot
				if a[i*datasets.NumTokens+k] != b[i*datasets.NumTokens+k] {
					differ++
				}
			}
		}
		if random {
			mean := noiseSum / float64(len(a))
			if math.Abs(mean-w/2) > 0.01 || differ < len(a)*9/10 {
				t.Errorf("random noise: mean %g (want %g), %d of %d entries differ between two calls (want nearly all)", mean, w/2, differ, len(a))
			}
		}
	}
}
