// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package backend

import (
	"strings"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestConfig checks the backend selection: $GOMLX_BACKEND wins, taken as written; without it the
// pure-Go backend is used, since this package links no XLA.
func TestConfig(t *testing.T) {
	for _, cfg := range []string{"xla:cuda", "go", "go:parallelism=2"} {
		t.Setenv(compute.ConfigEnvVar, cfg)
		if got := Config(); got != cfg {
			t.Errorf("with GOMLX_BACKEND=%s: got %q", cfg, got)
		}
	}
	t.Setenv(compute.ConfigEnvVar, "")
	if got := Config(); got != DefaultGo {
		t.Errorf("default config %q, want %q (package backend does not link XLA)", got, DefaultGo)
	}
	t.Setenv(compute.ConfigEnvVar, "nosuchbackend")
	if _, err := New(); err == nil || !strings.Contains(err.Error(), "nosuchbackend") {
		t.Errorf("unknown backend: want an error naming it, got %v", err)
	}
}

// TestDefaultBackendDescription checks that New's default really has an unbounded worker pool
// (parallelism=-1, set without the backend's stdout message) and parallel node scheduling, and that a
// bounded pool and a bad value are taken as given.
func TestDefaultBackendDescription(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "")
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if got := Describe(b); !strings.Contains(got, "parallelism=-1") || !strings.Contains(got, "graph nodes in parallel without pool slots") {
		t.Errorf("default backend %q: want parallelism=-1, nodes in parallel", got)
	}
	b2, err := NewWithConfig("go:parallelism=3,ops_sequential")
	if err != nil {
		t.Fatal(err)
	}
	if got := b2.Description(); !strings.Contains(got, "parallelism=3") {
		t.Errorf("go:parallelism=3: got %q", got)
	}
	if _, err := NewWithConfig("go:parallelism=x"); err == nil {
		t.Error("go:parallelism=x: want an error")
	}
}

// TestWideGraphsNeverHang is the regression test of the pure-Go backend's worker-pool deadlock (compute
// v0.1.2 to v0.1.6: graph nodes holding every pool slot while the matrix products inside them waited for
// one). On the backend's own default, as compute.NewWithConfig("go") makes it, a graph of 16 independent
// 200 x 200 products runs from four goroutines sharing the backend (two at once and more): every
// execution must finish within a minute (a hang is forever, a slow machine is not).
func TestWideGraphsNeverHang(t *testing.T) {
	b, err := compute.NewWithConfig("go")
	if err != nil {
		t.Fatal(err)
	}
	const products, size, runs = 16, 200, 10
	exec, err := graph.NewExec(b, func(xs []*graph.Node) []*graph.Node {
		outs := make([]*graph.Node, len(xs))
		for i, x := range xs {
			outs[i] = graph.MatMul(x, graph.Transpose(x, 0, 1)) // none depends on another
		}
		return outs
	})
	if err != nil {
		t.Fatal(err)
	}
	newInputs := func() []any { // each goroutine its own tensors: a tensor is not shared between executions at once
		inputs := make([]any, products)
		for i := range inputs {
			x := tensors.FromShape(shapes.Make(dtypes.Float32, size, size))
			tensors.MustMutableFlatData[float32](x, func(f []float32) {
				for j := range f {
					f[j] = float32((j+i)%7) / 7
				}
			})
			inputs[i] = x
		}
		return inputs
	}
	done := make(chan error)
	for range 4 {
		go func() {
			inputs := newInputs()
			for range runs {
				outs, err := exec.Exec(inputs...)
				if err != nil {
					done <- err
					return
				}
				for _, o := range outs {
					o.FinalizeAll()
				}
			}
			done <- nil
		}()
	}
	timeout := time.After(time.Minute)
	for g := range 4 {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-timeout:
			t.Fatalf("%d of 4 goroutines still running after a minute: the pure-Go backend hangs on wide graphs again", 4-g)
		}
	}
}

// TestXLAPluginName checks which PJRT plugin a backend configuration asks for (used to skip XLA's
// plugin download when that plugin is already installed).
func TestXLAPluginName(t *testing.T) {
	for cfg, want := range map[string]string{
		"xla:cuda": "cuda", "xla:cuda,preallocate=false": "cuda", "xla:cpu": "cpu", "xla": "cpu",
		"go": "", "go:ops_sequential": "", "": "",
	} {
		if got := xlaPluginName(cfg); got != want {
			t.Errorf("xlaPluginName(%q) = %q, want %q", cfg, got, want)
		}
	}
}
