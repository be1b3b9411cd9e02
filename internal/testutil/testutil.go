// Package testutil holds what the project's tests share: the compute backend they run on and random
// input tensors drawn from a seeded generator, so that every test builds them the same way.
package testutil

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend" // The pure-Go backend of BackendConfig.
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
)

// BackendConfig is the GoMLX backend configuration the tests run on: the pure-Go backend, which needs
// no C library and gives the same numbers on every machine, with one graph node at a time
// ("ops_sequential"), a node scheduling that cannot deadlock (latformer.DefaultGoBackend says why the
// backend's own default can).
const BackendConfig = "go:ops_sequential"

// Backend returns a new backend of BackendConfig; it fails t when the backend cannot be created.
func Backend(t testing.TB) compute.Backend {
	t.Helper()
	b, err := compute.NewWithConfig(BackendConfig)
	if err != nil {
		t.Fatalf("creating the test backend %q: %v", BackendConfig, err)
	}
	return b
}

// NormalTensor returns a float32 tensor of the given dimensions whose values, in row-major order, are
// successive standard normal draws of rng (rng.NormFloat64).
func NormalTensor(rng *rand.Rand, dims ...int) *tensors.Tensor {
	return fill(dims, func() float32 { return float32(rng.NormFloat64()) })
}

// UniformTensor returns a float32 tensor of the given dimensions whose values, in row-major order, are
// successive uniform draws of rng in [0, 1) (rng.Float32).
func UniformTensor(rng *rand.Rand, dims ...int) *tensors.Tensor {
	return fill(dims, rng.Float32)
}

// fill returns a float32 tensor of dims with next() in every cell, in row-major order.
func fill(dims []int, next func() float32) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
	tensors.MustMutableFlatData[float32](t, func(f []float32) {
		for i := range f {
			f[i] = next()
		}
	})
	return t
}
