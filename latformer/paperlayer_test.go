// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// TestPaperLayerUnchanged pins the paper's layer: the LatFormer model with the default hyperparameters (the
// canvas expert, no frames) on a fixed 6 x 6 input with fixed initial weights gives, to the bit, the logits
// and gates it gave before the anchor-relative expert existed (paperLayerHash).
//
// The bits depend on the build: with GOEXPERIMENT=simd (the Makefile's) the Go backend runs its SIMD kernels,
// whose order of summation differs from the generic code's, so each build has its recorded hash.
func TestPaperLayerUnchanged(t *testing.T) {
	// One worker: the matrix products' split over the worker pool (and so their order of summation) then
	// cannot depend on what else the process is running.
	backend, err := compute.NewWithConfig("go:ops_sequential,parallelism=1")
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	store, err := NewStore(nil)
	if err != nil {
		t.Fatal(err)
	}
	store.SetParam(model.ParamInitialSeed, int64(7))
	tokens := make([]int32, 2*36)
	for i := range tokens {
		tokens[i] = int32((i*7 + i/6) % 11)
	}
	in := tensors.FromFlatDataAndDimensions(tokens, 2, 36)
	exec := model.MustNewExec(backend, store, func(scope *model.Scope, tok *Node) []*Node {
		out := Model{Rows: 6, Cols: 6}.Build(scope, tok, nil)
		return append([]*Node{out.Logits}, out.Gates.GateTensors()...)
	})
	h := fnv.New64a()
	var buf [4]byte
	sum := 0.0
	for _, o := range exec.MustCall(in) {
		for _, v := range tensors.MustCopyFlatData[float32](o) {
			b := math.Float32bits(v)
			buf[0], buf[1], buf[2], buf[3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
			h.Write(buf[:])
			sum += float64(v)
		}
	}
	if got := h.Sum64(); got != paperLayerHash {
		t.Errorf("the paper's layer on the fixed input: hash %#x (sum of outputs %.9g), want %#x", got, sum, uint64(paperLayerHash))
	}
}
