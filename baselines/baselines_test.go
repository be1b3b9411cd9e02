// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package baselines

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// examples returns num pairs of the action on a side x side canvas with grid x grid inputs.
func examples(t testing.TB, rng *rand.Rand, a lattice.Action, side, grid, num int) []latformer.Example {
	t.Helper()
	_, ins, outs, err := datasets.ActionExamples(rng, a, side, side, grid, grid, num)
	if err != nil {
		t.Fatal(err)
	}
	ex := make([]latformer.Example, num)
	for i := range ex {
		ex[i] = latformer.Example{Input: ins[i], Output: outs[i]}
	}
	return ex
}

// TestByName checks the registry: every name builds, "latformer" is the paper's model, others are errors.
func TestByName(t *testing.T) {
	if got := Names(); !slices.Equal(got, []string{"attention_abs", "attention_rel", "cnn", "dnc", "pixelcnn", "transformer", "transformer_aug"}) {
		t.Errorf("Names() = %v", got)
	}
	for _, n := range append(Names(), "latformer") {
		a, err := ByName(n)
		if err != nil || a.Name != n || (a.Build == nil) == (a.BuildAutoregressive == nil) {
			t.Errorf("ByName(%q) = %q, %v", n, a.Name, err)
		}
	}
	if _, err := ByName("lstm"); err == nil || !strings.Contains(err.Error(), "cnn") {
		t.Errorf("ByName(lstm) error = %v, want one listing the models", err)
	}
}

// TestBaselinesTrain trains every baseline a few steps on a small task through latformer.Learner: the
// loss is finite and falls, the predictions are canvases of the right size without gates, and the
// baseline's own hyperparameters are accepted.
func TestBaselinesTrain(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(1, 2))
	train := examples(t, rng, lattice.Translation{Deltas: []int{1, 0}}, 6, 4, 3)
	if n := len(Names()); n != 7 {
		t.Fatalf("%d baselines, want the paper's 7 (Table 2)", n)
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			arch, _ := ByName(name)
			store, err := latformer.NewStoreFor(arch, hparams.Settings{{Key: latformer.ParamSteps, Value: 1}, {Key: latformer.ParamAugment, Value: 2},
				{Key: latformer.ParamRestarts, Value: 1}, {Key: ParamDim, Value: 16}, {Key: ParamHeads, Value: 2}, {Key: ParamLayers, Value: 2},
				{Key: ParamMaxRelative, Value: 3}, {Key: optimizer.ParamLearningRate, Value: 0.01}})
			if err != nil {
				t.Fatal(err)
			}
			l, err := latformer.NewLearnerFor(arch, backend, store, 6, 6)
			if err != nil {
				t.Fatal(err)
			}
			first, err := l.Fit(train, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var last float64
			for range 20 { // Fit again continues from the trained variables
				fit, err := l.Fit(train, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				last = fit.Loss
			}
			t.Logf("%s: loss %.4f after 1 step, %.4f after 21", name, first.Loss, last)
			if math.IsNaN(last) || !(last < first.Loss) {
				t.Errorf("loss %.4f after 21 steps, %.4f after 1", last, first.Loss)
			}
			preds, err := l.Predict(train)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range preds {
				if p.Gates != nil || len(p.Canvas.Cells) != 36 {
					t.Fatalf("prediction with gates %v and %d cells", p.Gates, len(p.Canvas.Cells))
				}
			}
		})
	}
}

// TestRelativeLogits checks the factored relative key term against its definition, cell pair by cell
// pair: q_i·(a_r[clip(row_j-row_i)] + a_c[clip(col_j-col_i)]).
func TestRelativeLogits(t *testing.T) {
	backend := testutil.Backend(t)
	const rows, cols, clip, heads, dh = 3, 4, 2, 2, 3
	n := rows * cols
	store := model.NewStore()
	rng := rand.New(rand.NewPCG(3, 4))
	q := testutil.NormalTensor(rng, 1, heads, n, dh)
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, q *Node) *Node {
		return relativeLogits(scope, q, rows, cols, clip)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	got := tensors.MustCopyFlatData[float32](exec.MustCall(q)[0])
	table := func(axis string) []float32 {
		for v := range store.IterVariables() {
			if strings.Contains(v.Path(), "relative_"+axis) {
				return tensors.MustCopyFlatData[float32](v.MustValue())
			}
		}
		t.Fatalf("no %s table", axis)
		return nil
	}
	ar, ac := table("rows"), table("cols")
	qf := tensors.MustCopyFlatData[float32](q)
	off := func(d int) int { return min(max(d, -clip), clip) + clip }
	maxErr := 0.0
	for h := range heads {
		for i := range n {
			for j := range n {
				dr, dc := off(j/cols-i/cols), off(j%cols-i%cols)
				want := 0.0
				for k := range dh {
					want += float64(qf[(h*n+i)*dh+k]) * float64(ar[dr*dh+k]+ac[dc*dh+k])
				}
				maxErr = max(maxErr, math.Abs(want-float64(got[(h*n+i)*n+j])))
			}
		}
	}
	if maxErr > 1e-5 {
		t.Errorf("relative logits differ from the definition by %g", maxErr)
	}
}

// TestGatherTokens checks TransformerAug's images of the input against datasets.ApplyAction.
func TestGatherTokens(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const side = 6
	c := datasets.Canvas{Rows: side, Cols: side, Cells: make([]int32, side*side)}
	for i := range c.Cells {
		c.Cells[i] = datasets.PadToken
		if i/side < 4 && i%side < 3 {
			c.Cells[i] = int32(rng.IntN(datasets.NumColors))
		}
	}
	if n := len(AugmentActions()); n != 11 {
		t.Fatalf("%d augmentation actions, want 11", n)
	}
	for _, a := range AugmentActions() {
		gather, ok := augmentGather(a, side, side)
		if !ok {
			t.Fatalf("%s: no gather on a square canvas", a)
		}
		want, err := datasets.ApplyAction(a, c)
		if err != nil {
			t.Fatal(err)
		}
		got := MustExecOnce(backend, func(tok *Node) *Node { return gatherTokens(tok, gather) }, [][]int32{c.Cells})
		if cells := tensors.MustCopyFlatData[int32](got); !slices.Equal(cells, want.Cells) {
			t.Errorf("%s:\n got %v\nwant %v", a, cells, want.Cells)
		}
	}
	if _, ok := augmentGather(AugmentActions()[0], 4, 5); ok {
		t.Error("a gather on a non-square canvas")
	}
}

// TestConv3x3 checks the CNN's unrolled convolution against GoMLX's layers.Convolution with the same
// variables (same names and shapes): the two must agree on a random input.
func TestConv3x3(t *testing.T) {
	backend := testutil.Backend(t)
	const batch, rows, cols, ch, d = 2, 4, 5, 3, 6
	store := model.NewStore()
	rng := rand.New(rand.NewPCG(5, 6))
	x := testutil.NormalTensor(rng, batch, rows, cols, ch)
	ours, err := model.NewExec(backend, store, func(scope *model.Scope, x *Node) *Node {
		return conv3x3(scope.In("c"), x, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Finalize()
	// A second graph on the same store: layers.Convolution finds the "c/conv" weights and biases that
	// conv3x3 created.
	theirs, err := model.NewExec(backend, store, func(scope *model.Scope, x *Node) *Node {
		return layers.Convolution(scope.In("c"), x).Channels(d).KernelSize(3).PadSame().Done()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Finalize()
	ours.MustCall(x) // creates the variables
	// Random biases too, so that the check covers them (they start at zero).
	for v := range store.IterVariables() {
		if strings.HasSuffix(v.Path(), "biases") {
			b := testutil.NormalTensor(rng, v.Shape().Dimensions...)
			if err := v.SetValue(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := []*tensors.Tensor{ours.MustCall(x)[0], theirs.MustCall(x)[0]}
	got, want := tensors.MustCopyFlatData[float32](out[0]), tensors.MustCopyFlatData[float32](out[1])
	if len(got) != batch*rows*cols*d || len(want) != len(got) {
		t.Fatalf("sizes %d and %d, want %d", len(got), len(want), batch*rows*cols*d)
	}
	maxErr := 0.0
	for i := range got {
		maxErr = max(maxErr, math.Abs(float64(got[i]-want[i])))
	}
	if maxErr > 1e-5 {
		t.Errorf("conv3x3 differs from layers.Convolution by %g", maxErr)
	}
	var paths []string
	for v := range store.IterVariables() {
		if strings.HasPrefix(v.Path(), "/c/") {
			paths = append(paths, v.Path())
		}
	}
	if len(paths) != 2 {
		t.Errorf("variables %v, want the convolution's 2 (weights and biases)", paths)
	}
}

// TestPixelCNNCausal checks the autoregressive property of PixelCNN on a 5 x 6 canvas: changing the
// previous canvas at cell k leaves the logits of cells 0..k unchanged (they may only see the cells
// before them) and changes those of some later cell.
func TestPixelCNNCausal(t *testing.T) {
	backend := testutil.Backend(t)
	const rows, cols, batch = 5, 6, 2
	n := rows * cols
	store, err := latformer.NewStoreFor(PixelCNN(), hparams.Settings{{Key: ParamDim, Value: 8}, {Key: ParamLayers, Value: 3}})
	if err != nil {
		t.Fatal(err)
	}
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, tokens, previous *Node) *Node {
		return PixelCNN().BuildAutoregressive(scope, rows, cols, tokens, previous, nil).Logits
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	rng := rand.New(rand.NewPCG(9, 10))
	canvas := func() []int32 {
		c := make([]int32, batch*n)
		for i := range c {
			c[i] = int32(rng.IntN(datasets.NumTokens))
		}
		return c
	}
	tokens, previous := canvas(), canvas()
	logits := func(prev []int32) []float32 {
		out := exec.MustCall(tensors.FromFlatDataAndDimensions(tokens, batch, n), tensors.FromFlatDataAndDimensions(prev, batch, n))[0]
		return tensors.MustCopyFlatData[float32](out)
	}
	base := logits(previous)
	for _, k := range []int{0, 7, 14, n - 1} {
		changed := slices.Clone(previous)
		for b := range batch {
			changed[b*n+k] = (changed[b*n+k] + 1) % datasets.NumTokens
		}
		got := logits(changed)
		later := false
		for b := range batch {
			for cell := range n {
				for v := range datasets.NumTokens {
					i := (b*n+cell)*datasets.NumTokens + v
					if cell <= k && got[i] != base[i] {
						t.Fatalf("changing previous cell %d changed the logits of cell %d", k, cell)
					}
					later = later || (cell > k && got[i] != base[i])
				}
			}
		}
		if !later && k < n-1 {
			t.Errorf("changing previous cell %d changed no later cell's logits", k)
		}
	}
}

// TestPixelCNNDecoding checks the learner's cell-by-cell decoding: feeding the decoded canvas back as
// the previous canvas, the model's argmax at every cell is the decoded cell (each cell was chosen from
// the cells before it).
func TestPixelCNNDecoding(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(3, 4))
	train := examples(t, rng, lattice.Translation{Deltas: []int{1, 0}}, 5, 3, 3)
	store, err := latformer.NewStoreFor(PixelCNN(), hparams.Settings{{Key: latformer.ParamSteps, Value: 10}, {Key: latformer.ParamAugment, Value: 1},
		{Key: latformer.ParamRestarts, Value: 1}, {Key: ParamDim, Value: 8}, {Key: ParamLayers, Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := latformer.NewLearnerFor(PixelCNN(), backend, store, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Fit(train, nil, nil); err != nil {
		t.Fatal(err)
	}
	preds, err := l.Predict(train[:2])
	if err != nil {
		t.Fatal(err)
	}
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, tokens, previous *Node) *Node {
		return ConvertDType(ArgMax(PixelCNN().BuildAutoregressive(scope, 5, 5, tokens, previous, nil).Logits, -1), dtypes.Int32)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	for i, p := range preds {
		argmax := tensors.MustCopyFlatData[int32](exec.MustCall(tensors.FromFlatDataAndDimensions(train[i].Input.Cells, 1, 25),
			tensors.FromFlatDataAndDimensions(p.Canvas.Cells, 1, 25))[0])
		if !slices.Equal(argmax, p.Canvas.Cells) {
			t.Errorf("example %d: decoded %v, argmax given it %v", i, p.Canvas.Cells, argmax)
		}
	}
}

// BenchmarkStep times one training step (forward, backward, Adam) of each baseline at canvas 10 on a
// batch of 30 canvases (3 pairs in 10 color copies, the ARC protocol's usual batch), on the backend
// backend.New chooses (GOMLX_BACKEND). PixelCNN's step is its teacher-forced one.
func BenchmarkStep(b *testing.B) {
	backend, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	const canvas, batch = 10, 30
	rng := rand.New(rand.NewPCG(1, 2))
	mk := func() *tensors.Tensor {
		t := tensors.FromShape(shapes.Make(dtypes.Int32, batch, canvas*canvas))
		tensors.MustMutableFlatData[int32](t, func(f []int32) {
			for i := range f {
				f[i] = int32(rng.IntN(datasets.NumTokens))
			}
		})
		return t
	}
	tokens, targets := mk(), mk()
	for _, name := range append([]string{"latformer"}, Names()...) {
		b.Run(name, func(b *testing.B) {
			arch, err := ByName(name)
			if err != nil {
				b.Fatal(err)
			}
			store, err := latformer.NewStoreFor(arch, nil)
			if err != nil {
				b.Fatal(err)
			}
			l, err := latformer.NewLearnerFor(arch, backend, store, canvas, canvas)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.TrainBatch(tokens, targets); err != nil { // compile
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := l.TrainBatch(tokens, targets); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value defaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", defaultParams) }

// TestParamsChecked checks that the baselines' hyperparameters are declared (hparams): --set accepts each
// baseline's own keys with its defaults, checks their values, and refuses another baseline's (the CNN has
// no DNC memory).
func TestParamsChecked(t *testing.T) {
	dnc, cnn := DNC(), CNN()
	if s, err := latformer.ParseSettingsFor(dnc, "dnc_memory_slots=8;baseline_dim=16;dnc_spectral=0"); err != nil || len(s) != 3 {
		t.Errorf("the DNC's keys: %v, %v", s, err)
	}
	for _, bad := range []string{"dnc_memory_slots=0", "dnc_read_heads=-1", "dnc_spectral=-0.5", "baseline_dim=0", "baseline_layers=0"} {
		if _, err := latformer.ParseSettingsFor(dnc, bad); err == nil || !strings.Contains(err.Error(), "must be >=") {
			t.Errorf("%s: error %v, want the value refused", bad, err)
		}
	}
	if _, err := latformer.ParseSettingsFor(cnn, "dnc_memory_slots=8"); err == nil {
		t.Error("the CNN accepted the DNC's dnc_memory_slots")
	}
	if got := cnn.Params[ParamLayers].Default; got != 4 {
		t.Errorf("the CNN's %s defaults to %v, want 4", ParamLayers, got)
	}
}
