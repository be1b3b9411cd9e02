// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/latformer/latformer/internal/testutil"
)

// TestChunks checks the slice counts of the measured cases in ChunkBytes' comment and the bounds.
func TestChunks(t *testing.T) {
	canvas := func(side int) int { return side * side * side * side * 4 } // [1, n, n] float32 weights
	for _, c := range []struct{ batch, bytes, want int }{
		{16, canvas(30), 8},    // 52 MB
		{16, canvas(20), 2},    // 10 MB
		{16, canvas(10), 1},    // 0.6 MB: under SplitBytes
		{32, canvas(12), 1},    // 2.6 MB
		{3, 4 * canvas(30), 3}, // never more slices than examples
		{1, canvas(30), 1},
		{32, canvas(16), 2}, // 8.4 MB
		{64, canvas(30), 32},
	} {
		if got := Chunks(c.batch, c.bytes); got != c.want {
			t.Errorf("Chunks(%d, %d) = %d, want %d", c.batch, c.bytes, got, c.want)
		}
	}
}

// TestInBatchChunks checks that InBatchChunks calls core on as many slices as asked (at most one per
// example), that they tile the batch in order, and that the concatenated output is each slice's, in place.
func TestInBatchChunks(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(1, 2))
	cases := 0
	for batch := 1; batch <= 9; batch++ {
		for chunks := 1; chunks <= batch+1; chunks++ {
			var calls [][2]int
			x := testutil.NormalTensor(rng, batch, 3)
			out := MustExecOnce(backend, func(x *Node) *Node {
				calls = nil
				return InBatchChunks(batch, chunks, func(lo, hi int) []*Node {
					calls = append(calls, [2]int{lo, hi})
					return []*Node{AddScalar(Slice(x, AxisRange(lo, hi)), float64(lo))}
				})[0]
			}, x)
			if want := min(chunks, batch); len(calls) != want {
				t.Errorf("batch %d, %d chunks: %d slices, want %d", batch, chunks, len(calls), want)
			}
			next := 0
			for _, c := range calls {
				if c[0] != next || c[1] <= c[0] {
					t.Errorf("batch %d: slices %v do not tile the batch", batch, calls)
				}
				next = c[1]
			}
			if next != batch {
				t.Errorf("batch %d: slices %v end at %d", batch, calls, next)
			}
			in, got := x.Value().([][]float32), out.Value().([][]float32)
			if len(got) != batch {
				t.Fatalf("batch %d, %d chunks: %d output rows", batch, chunks, len(got))
			}
			for _, c := range calls { // each slice's rows, offset by its start
				for e := c[0]; e < c[1]; e++ {
					for k := range 3 {
						if got[e][k] != in[e][k]+float32(c[0]) {
							t.Errorf("batch %d: output[%d][%d] = %g, want %g", batch, e, k, got[e][k], in[e][k]+float32(c[0]))
						}
					}
				}
			}
			cases++
		}
	}
	if cases != 54 {
		t.Fatalf("%d cases ran, want 54", cases)
	}
}
