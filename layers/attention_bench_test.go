// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package layers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/attention"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/internal/testutil"
)

// BenchmarkAttentionForward times the masked attention's forward on [16, 1, n, 32] heads with a per-example
// soft mask: ours (softmax, the mask after it, rows renormalized) against GoMLX's attention.Core with the
// additive log-mask, fused (compute's FusedScaledDotProductAttention) and decomposed (docs/bench.md, "Per op on
// compute v0.1.14"). The fused op has no gradient on the Go backend and none for the mask anywhere, so only
// a forward pass could use it.
func BenchmarkAttentionForward(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{100, 400, 900} {
		q, k, v := testutil.NormalTensor(rng, 16, 1, n, 32), testutil.NormalTensor(rng, 16, 1, n, 32), testutil.NormalTensor(rng, 16, 1, n, 32)
		m := testutil.NormalTensor(rng, 16, 1, n, n)
		for name, f := range map[string]func(q, k, v, m *Node) *Node{
			"ours": func(q, k, v, m *Node) *Node { return MaskedAttentionCore(q, k, v, Sigmoid(m)) },
			"attention.Core(log mask)": func(q, k, v, m *Node) *Node {
				out, _ := attention.Core(q, k, v, attention.LayoutBHSD, attention.CoreOptions{AttentionMask: Log(Sigmoid(m))})
				return out
			},
			"attention.Core(log mask, decomposed)": func(q, k, v, m *Node) *Node {
				out, _ := attention.Core(q, k, v, attention.LayoutBHSD, attention.CoreOptions{AttentionMask: Log(Sigmoid(m)), DisableFusion: true})
				return out
			},
		} {
			exec := MustNewExec(be, f)
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				for b.Loop() {
					exec.MustExec(q, k, v, m)[0].FinalizeAll()
				}
			})
		}
	}
}
