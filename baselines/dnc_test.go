// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package baselines

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/lstm"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// dncGoldenTolerance is the largest absolute difference allowed between our float32 memory step and the
// goldens (float64, by scripts/dnc_fixture.py).
const dncGoldenTolerance = 1e-5

// dncStateNames are the state tensors of a golden case, in dncState's order (and read_vectors last in
// the outputs).
var dncStateNames = []string{"memory", "usage", "link", "precedence", "write", "read"}

// dncGolden is testdata/dnc_memory_step.json, written by scripts/dnc_fixture.py.
type dncGolden struct {
	Versions map[string]string `json:"versions"`
	Cases    []dncCase         `json:"cases"`
	Spectral struct {
		Rows           int       `json:"rows"`
		Cols           int       `json:"cols"`
		Matrix         []float64 `json:"matrix"`
		SingularValues []float64 `json:"singular_values"`
		U              []float64 `json:"u"` // the top left singular vector
		V              []float64 `json:"v"` // the top right singular vector
	} `json:"spectral"`
}

// dncCase is one memory step of the goldens: sizes, the interface vector [batch, size], the state before
// (In, dncStateNames) and after (Out, with read_vectors), all row-major.
type dncCase struct {
	Name        string               `json:"name"`
	Batch       int                  `json:"batch"`
	Slots       int                  `json:"slots"`
	Width       int                  `json:"width"`
	Heads       int                  `json:"heads"`
	Interface   []float64            `json:"interface"`
	In          map[string][]float64 `json:"in"`
	Out         map[string][]float64 `json:"out"`
	IxaxaarDiff float64              `json:"ixaxaar_max_abs_diff"`
}

func readDNCGolden(t *testing.T) dncGolden {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "dnc_memory_step.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g dncGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("testdata/dnc_memory_step.json: %v", err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("testdata/dnc_memory_step.json: no cases")
	}
	return g
}

// float32Tensor returns values (float64, row-major) as a float32 tensor of dims.
func float32Tensor(values []float64, dims ...int) *tensors.Tensor {
	f := make([]float32, len(values))
	for i, v := range values {
		f[i] = float32(v)
	}
	return tensors.FromFlatDataAndDimensions(f, dims...)
}

// TestDNCMemoryStep checks memoryStep, with the interface parsed by parseInterface, against the goldens of
// scripts/dnc_fixture.py: the paper's equations in numpy, which ixaxaar's PyTorch DNC (PyPI dnc) matches
// on every case without tied usages (its distance is in the file). Each case is one step from a given
// state (memory, usage, link matrix, precedence, write and read weightings) and interface vector; the
// chained cases feed each step's output to the next, and the zero state is the start of every sequence.
func TestDNCMemoryStep(t *testing.T) {
	backend := testutil.Backend(t)
	golden := readDNCGolden(t)
	t.Logf("goldens made with %v", golden.Versions)
	for _, c := range golden.Cases {
		dims := map[string][]int{"memory": {c.Batch, c.Slots, c.Width}, "usage": {c.Batch, c.Slots}, "link": {c.Batch, c.Slots, c.Slots},
			"precedence": {c.Batch, c.Slots}, "write": {c.Batch, c.Slots}, "read": {c.Batch, c.Heads, c.Slots},
			"read_vectors": {c.Batch, c.Heads, c.Width}}
		inputs := []any{float32Tensor(c.Interface, c.Batch, dncInterfaceSize(c.Heads, c.Width))}
		for _, name := range dncStateNames {
			inputs = append(inputs, float32Tensor(c.In[name], dims[name]...))
		}
		outs := MustExecOnceN(backend, func(in []*Node) []*Node {
			s := dncState{memory: in[1], usage: in[2], link: in[3], precedence: in[4], write: in[5], read: in[6]}
			next := memoryStep(s, parseInterface(in[0], c.Heads, c.Width))
			return []*Node{next.memory, next.usage, next.link, next.precedence, next.write, next.read, next.readVectors}
		}, inputs...)
		for i, name := range append(slices.Clone(dncStateNames), "read_vectors") {
			got, want := tensors.MustCopyFlatData[float32](outs[i]), c.Out[name]
			if len(got) != len(want) {
				t.Fatalf("%s: %s has %d values, want %d", c.Name, name, len(got), len(want))
			}
			maxErr := 0.0
			for k := range got {
				maxErr = max(maxErr, math.Abs(float64(got[k])-want[k]))
			}
			if maxErr > dncGoldenTolerance {
				t.Errorf("%s: %s differs from the golden by %.3g (ixaxaar's DNC: %.3g)", c.Name, name, maxErr, c.IxaxaarDiff)
			}
		}
	}
}

// TestDNCInterfaceSize checks the interface layout's size against the paper's formula W·R + 3W + 5R + 3.
func TestDNCInterfaceSize(t *testing.T) {
	for _, rw := range [][2]int{{1, 1}, {2, 16}, {4, 8}} {
		r, w := rw[0], rw[1]
		if got, want := dncInterfaceSize(r, w), w*r+3*w+5*r+3; got != want {
			t.Errorf("R=%d, W=%d: interface size %d, want %d", r, w, got, want)
		}
	}
}

// TestSpectralNorm checks the spectral regularization's estimate of the largest singular value, with the
// iterations training uses, against numpy's SVD on the fixed matrix of the goldens, and its gradient
// against u₁v₁ᵀ (the top singular vectors, up to their common sign).
func TestSpectralNorm(t *testing.T) {
	backend := testutil.Backend(t)
	s := readDNCGolden(t).Spectral
	outs := MustExecOnceN(backend, func(w *Node) []*Node {
		sigma := spectralNorm(w, dncPowerIterations)
		return []*Node{sigma, Gradient(sigma, w)[0]}
	}, float32Tensor(s.Matrix, s.Rows, s.Cols))
	sigma := float64(tensors.ToScalar[float32](outs[0]))
	if want := s.SingularValues[0]; math.Abs(sigma-want) > 1e-5*want {
		t.Errorf("σ = %.7f, numpy's SVD %.7f", sigma, want)
	}
	grad := tensors.MustCopyFlatData[float32](outs[1])
	maxErr := 0.0
	for i := range s.Rows {
		for j := range s.Cols {
			maxErr = max(maxErr, math.Abs(float64(grad[i*s.Cols+j])-s.U[i]*s.V[j]))
		}
	}
	if maxErr > 1e-4 {
		t.Errorf("dσ/dW differs from u₁v₁ᵀ by %.3g", maxErr)
	}
}

// TestDNCLSTMCell checks the controller's step (lstmCell on x W_x + h W_h + b) against GoMLX's lstm.LSTM
// run on a sequence of one step from the same states, with the same weights in its layout.
func TestDNCLSTMCell(t *testing.T) {
	backend := testutil.Backend(t)
	const batch, features, hidden = 3, 5, 4
	rng := rand.New(rand.NewPCG(1, 3))
	x, h, c := testutil.NormalTensor(rng, batch, features), testutil.NormalTensor(rng, batch, hidden), testutil.NormalTensor(rng, batch, hidden)
	kernel, recurrent, bias := testutil.NormalTensor(rng, features, 4*hidden), testutil.NormalTensor(rng, hidden, 4*hidden), testutil.NormalTensor(rng, 4*hidden)
	outs := MustExecOnceN(backend, func(in []*Node) []*Node {
		x, h, c, kernel, recurrent, bias := in[0], in[1], in[2], in[3], in[4], in[5]
		pre := Add(Add(Dot(x, kernel).Product(), Dot(h, recurrent).Product()), ExpandAxes(bias, 0))
		ourH, ourC := lstmCell(pre, c)
		// lstm's layout: inputsW [1, 4, H, F], recurrentW [1, 4, H, H], biases [1, 8, H] (input then recurrent).
		inputsW := ExpandAxes(TransposeAllDims(Reshape(kernel, features, 4, hidden), 1, 2, 0), 0)
		recurrentW := ExpandAxes(TransposeAllDims(Reshape(recurrent, hidden, 4, hidden), 1, 2, 0), 0)
		biases := Reshape(Concatenate([]*Node{bias, ZerosLike(bias)}, 0), 1, 8, hidden)
		_, theirH, theirC := lstm.NewWithWeights(ExpandAxes(x, 1), inputsW, recurrentW, biases, nil).
			InitialStates(ExpandAxes(h, 0), ExpandAxes(c, 0)).Done()
		return []*Node{ourH, ourC, Reshape(theirH, batch, hidden), Reshape(theirC, batch, hidden)}
	}, x, h, c, kernel, recurrent, bias)
	for i, name := range []string{"h", "c"} {
		ours, theirs := tensors.MustCopyFlatData[float32](outs[i]), tensors.MustCopyFlatData[float32](outs[i+2])
		maxErr := 0.0
		for k := range ours {
			maxErr = max(maxErr, math.Abs(float64(ours[k]-theirs[k])))
		}
		if maxErr > 1e-6 {
			t.Errorf("%s differs from lstm.LSTM's by %.3g", name, maxErr)
		}
	}
}

// TestDNCSecondPass checks the DNC's sequence, a row a step (the default) and a cell a step: thanks to the
// second pass the first cell's logits depend on the last input cell, and the examples of a batch stay
// independent. A number of cells a step that does not divide the canvas is an error that says so.
func TestDNCSecondPass(t *testing.T) {
	backend := testutil.Backend(t)
	const rows, cols, batch = 2, 3, 2
	n := rows * cols
	tokens := make([]int32, batch*n)
	for i := range tokens {
		tokens[i] = int32(i % 10)
	}
	for _, k := range []int{0, 1, 4} {
		store, err := latformer.NewStoreFor(DNC(), hparams.Settings{{Key: ParamDim, Value: 8}, {Key: ParamDNCSlots, Value: 5},
			{Key: ParamDNCWidth, Value: 3}, {Key: ParamDNCCellsPerStep, Value: k}})
		if err != nil {
			t.Fatal(err)
		}
		exec, err := model.NewExec(backend, store, func(scope *model.Scope, tokens *Node) *Node {
			return DNC().Build(scope, rows, cols, tokens, nil).Logits
		})
		if err != nil {
			t.Fatal(err)
		}
		logits := func(tok []int32) ([]float32, error) {
			out, err := exec.Call(tensors.FromFlatDataAndDimensions(tok, batch, n))
			if err != nil {
				return nil, err
			}
			return tensors.MustCopyFlatData[float32](out[0]), nil
		}
		base, err := logits(tokens)
		if k == 4 {
			if err == nil || !strings.Contains(err.Error(), "does not divide the 6 cells") {
				t.Errorf("4 cells a step on a 2x3 canvas: error %v", err)
			}
			exec.Finalize()
			continue
		}
		if err != nil || len(base) != batch*n*11 {
			t.Fatalf("%d cells a step: %d logits (%v), want %d", k, len(base), err, batch*n*11)
		}
		changed := slices.Clone(tokens)
		changed[n-1] = (changed[n-1] + 1) % 10 // the last cell of the first example
		got, _ := logits(changed)
		diff := 0.0
		for v := range 11 { // the first cell of the first example
			diff = max(diff, math.Abs(float64(got[v]-base[v])))
		}
		if diff == 0 {
			t.Errorf("%d cells a step: the first cell's logits do not depend on the last input cell", k)
		}
		for i := n * 11; i < len(base); i++ {
			if got[i] != base[i] {
				t.Fatalf("%d cells a step: changing the first example changed the second's logit %d", k, i)
			}
		}
		exec.Finalize()
	}
}

// TestDNCParams checks the DNC's hyperparameters: its defaults are documented on their keys, and the
// parameter count of the default model is the one the sizes give.
func TestDNCParams(t *testing.T) {
	testutil.CheckDocDefaults(t, ".", dncParams)
	backend := testutil.Backend(t)
	store, err := latformer.NewStoreFor(DNC(), nil)
	if err != nil {
		t.Fatal(err)
	}
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, tokens *Node) *Node {
		return DNC().Build(scope, 3, 3, tokens, nil).Logits
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	exec.MustCall(tensors.FromShape(shapes.Make(dtypes.Int32, 1, 9)))
	count := 0
	for v := range store.IterVariables() {
		if v.Trainable {
			count += v.Shape().Size()
		}
	}
	// A 3 x 3 canvas, a row (k = 3 cells) a step; the memory (N = 16) is state, not parameters.
	const d, w, r, k, tokens = 32, 32, 2, 3, 11
	f, size := k*d+1+r*w, dncInterfaceSize(r, w)
	want := tokens*d + (f+d)*4*d + 4*d + d*size + size + (d+r*w)*k*tokens + k*tokens
	t.Logf("DNC parameters: %d", count)
	if count != want {
		t.Errorf("%d parameters, want %d", count, want)
	}
}

// TestDNCTrains trains the DNC as the ARC runs do (spectral regularization on) through latformer.Learner on
// one small task, a translation of 4 x 4 grids on a 6 x 6 canvas: the training cells' accuracy rises by at
// least 0.2 and the loss falls. The accuracy is the check that the network itself learns: the loss alone
// also falls when only the regularization term does.
func TestDNCTrains(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(5, 8))
	train := examples(t, rng, lattice.Translation{Deltas: []int{1, 0}}, 6, 4, 3)
	store, err := latformer.NewStoreFor(DNC(), hparams.Settings{{Key: latformer.ParamSteps, Value: 60}, {Key: latformer.ParamAugment, Value: 2},
		{Key: latformer.ParamRestarts, Value: 1}, {Key: latformer.ParamFitPatience, Value: 0}, {Key: optimizer.ParamLearningRate, Value: 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := latformer.NewLearnerFor(DNC(), backend, store, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	var steps []latformer.Progress
	if _, err := l.Fit(train, nil, func(p latformer.Progress) { steps = append(steps, p) }); err != nil {
		t.Fatal(err)
	}
	if len(steps) < 10 {
		t.Fatalf("%d progress reports", len(steps))
	}
	first, last := steps[0], steps[len(steps)-1]
	t.Logf("step %d: loss %.4f, cell accuracy %.3f; step %d: loss %.4f, cell accuracy %.3f", first.Step, first.Loss, first.CellAccuracy, last.Step, last.Loss, last.CellAccuracy)
	if !(last.Loss < first.Loss) || last.CellAccuracy < first.CellAccuracy+0.2 {
		t.Errorf("loss %.4f -> %.4f, cell accuracy %.3f -> %.3f: want the loss down and the accuracy up by 0.2", first.Loss, last.Loss, first.CellAccuracy, last.CellAccuracy)
	}
}
