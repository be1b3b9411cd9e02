// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package testutil

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestBackendComputes checks that Backend runs a graph: the sum of 0..9 is 45.
func TestBackendComputes(t *testing.T) {
	backend := Backend(t)
	got := graph.MustExecOnce(backend, func(g *graph.Graph) *graph.Node {
		return graph.ReduceAllSum(graph.Iota(g, shapes.Make(dtypes.Float32, 10), 0))
	}).Value().(float32)
	if got != 45 { // 0 + 1 + ... + 9
		t.Errorf("sum of Iota(10) = %v, want 45", got)
	}
}

// TestRandomTensors checks the shapes and the draws: the values are rng's successive draws in row-major
// order (the same seed gives the same tensor, a new seed another), UniformTensor's lie in [0, 1) with
// a mean near 1/2, and NormalTensor's have a mean near 0 and a variance near 1.
func TestRandomTensors(t *testing.T) {
	const n = 4000
	for _, c := range []struct {
		name             string
		make             func(*rand.Rand, ...int) *tensors.Tensor
		draw             func(*rand.Rand) float32
		mean, variance   float64
		lowest, supremum float64
	}{
		{"NormalTensor", NormalTensor, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }, 0, 1, math.Inf(-1), math.Inf(1)},
		{"UniformTensor", UniformTensor, (*rand.Rand).Float32, 0.5, 1.0 / 12, 0, 1},
	} {
		x := c.make(rand.New(rand.NewPCG(1, 2)), 2, 50, 40)
		if !slices.Equal(x.Shape().Dimensions, []int{2, 50, 40}) || x.DType() != dtypes.Float32 {
			t.Fatalf("%s: shape %s, want (Float32)[2 50 40]", c.name, x.Shape())
		}
		got := tensors.MustCopyFlatData[float32](x)
		rng := rand.New(rand.NewPCG(1, 2))
		var sum, sumSq float64
		for i, v := range got {
			if want := c.draw(rng); v != want {
				t.Fatalf("%s: value %d is %v, want draw %d of the generator, %v", c.name, i, v, i, want)
			}
			if float64(v) < c.lowest || float64(v) >= c.supremum {
				t.Fatalf("%s: value %d = %v outside [%v, %v)", c.name, i, v, c.lowest, c.supremum)
			}
			sum += float64(v)
			sumSq += float64(v) * float64(v)
		}
		mean := sum / n
		variance := sumSq/n - mean*mean
		// 5 standard errors of the mean and (roughly) of the variance.
		if se := math.Sqrt(c.variance / n); math.Abs(mean-c.mean) > 5*se {
			t.Errorf("%s: mean %.4f, want %.4f ± %.4f", c.name, mean, c.mean, 5*se)
		}
		if math.Abs(variance-c.variance) > 5*c.variance*math.Sqrt(2.0/n) {
			t.Errorf("%s: variance %.4f, want %.4f", c.name, variance, c.variance)
		}
		other := tensors.MustCopyFlatData[float32](c.make(rand.New(rand.NewPCG(3, 4)), 2, 50, 40))
		if slices.Equal(got, other) {
			t.Errorf("%s: seeds (1, 2) and (3, 4) give the same tensor", c.name)
		}
	}
}

// TestCheckDocDefaults checks the doc-comment check on a package written for it: the right defaults pass,
// a wrong or missing one is reported.
func TestCheckDocDefaults(t *testing.T) {
	dir := t.TempDir()
	src := `package p

const (
	// A is a [3].
	A = "a"
	// B is b [-2].
	B = "b"
	// C is c [full].
	C = "c"
	// D has no default written.
	D = "d"
)
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	good := map[string]any{"a": 3, "b": -2.0, "c": "full"}
	if rec := record(func(tb testing.TB) { CheckDocDefaults(tb, dir, good) }); len(rec) != 0 {
		t.Errorf("matching defaults: got errors %q", rec)
	}
	bad := map[string]any{"a": 4, "b": -2.0, "c": "mask_only", "d": true}
	rec := record(func(tb testing.TB) { CheckDocDefaults(tb, dir, bad) })
	if len(rec) != 3 {
		t.Fatalf("a wrong int, a wrong string and a missing default: want 3 errors, got %q", rec)
	}
	for i, name := range []string{"A", "C", "D"} {
		if !strings.HasPrefix(rec[i], name+" ") {
			t.Errorf("error %d: want it to name %s, got %q", i, name, rec[i])
		}
	}
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }

func record(f func(testing.TB)) []string {
	r := &recorder{}
	f(r)
	return r.errs
}
