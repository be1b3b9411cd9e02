// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package backend

import (
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/latformer/latformer/internal/testutil"
)

// otherBackend is a Go backend that does not say so (as XLA would not): InitializeVariables must then
// draw the values on its own Go backend and hand them over in host memory.
type otherBackend struct{ compute.Backend }

func (otherBackend) Name() string { return "other" }

// randomStore returns a store with two randomly initialized variables, seeded.
func randomStore(t *testing.T) *model.Store {
	t.Helper()
	store := model.NewStore()
	if err := store.SetRNGStateFromSeed(42); err != nil {
		t.Fatal(err)
	}
	scope := store.RootScope()
	scope.WithInitializer(initializer.RandomNormalFn(scope, 1)).VariableWithShape("w", shapes.Make(dtypes.Float32, 4, 5))
	scope.WithInitializer(initializer.RandomUniformFn(scope, -1, 1)).VariableWithShape("b", shapes.Make(dtypes.Float32, 7))
	return store
}

// TestInitializeVariablesOn checks that the initial values do not depend on the training backend: a
// store initialized for a backend that is not GoMLX's Go backend holds the same values, to the bit, as one
// initialized on the Go backend from the same seed, and they are in host memory, usable on that backend.
func TestInitializeVariablesOn(t *testing.T) {
	values := func(store *model.Store) map[string][]float32 {
		out := map[string][]float32{}
		for v := range store.IterVariables() {
			x, err := v.Value()
			if err != nil {
				t.Fatal(err)
			}
			if x.DType() == dtypes.Float32 { // not the store's RNG state
				out[v.Path()] = tensors.MustCopyFlatData[float32](x)
			}
		}
		return out
	}
	onGo := randomStore(t)
	if err := InitializeVariables(onGo, testutil.Backend(t)); err != nil {
		t.Fatal(err)
	}
	onOther := randomStore(t)
	other := otherBackend{testutil.Backend(t)}
	if err := InitializeVariables(onOther, other); err != nil {
		t.Fatal(err)
	}
	a, b := values(onGo), values(onOther)
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("%d and %d variables, want 2", len(a), len(b))
	}
	for path, x := range a {
		if !slices.Equal(x, b[path]) {
			t.Errorf("%s: %v on the Go backend, %v for another backend", path, x, b[path])
		}
	}
	for v := range onOther.IterVariables() {
		x, _ := v.Value()
		if !x.IsLocal() {
			t.Errorf("%s: not in host memory after initialization for another backend", v.Path())
		}
		if err := x.MaterializeOnDevice(other, false, 0); err != nil {
			t.Errorf("%s: cannot move to the other backend: %v", v.Path(), err)
		}
	}
}
