// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package backend

import (
	"strings"
	"testing"

	"github.com/gomlx/compute"
)

// TestConfig checks the backend selection: $GOMLX_BACKEND wins (a bare "go" becoming DefaultGo, graph
// nodes in parallel without pool slots); without it the pure-Go backend is used, since this package links
// no XLA.
func TestConfig(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "xla:cuda")
	if got := Config(); got != "xla:cuda" {
		t.Errorf("with GOMLX_BACKEND=xla:cuda: got %q", got)
	}
	t.Setenv(compute.ConfigEnvVar, "")
	if got := Config(); got != DefaultGo {
		t.Errorf("default config %q, want %q (package backend does not link XLA)", got, DefaultGo)
	}
	t.Setenv(compute.ConfigEnvVar, "go")
	if got := Config(); got != DefaultGo {
		t.Errorf(`GOMLX_BACKEND=go: got %q, want %q`, got, DefaultGo)
	}
	t.Setenv(compute.ConfigEnvVar, "nosuchbackend")
	if _, err := New(); err == nil || !strings.Contains(err.Error(), "nosuchbackend") {
		t.Errorf("unknown backend: want an error naming it, got %v", err)
	}
}

// TestDefaultBackendDescription checks that New's default really has an unbounded worker pool
// (parallelism=-1, set without the backend's stdout message) and parallel node scheduling.
func TestDefaultBackendDescription(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "")
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Description(); !strings.Contains(got, "parallelism=-1") {
		t.Errorf("default backend %q: want parallelism=-1", got)
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

// TestSafeGoConfig checks that pure-Go configurations that could deadlock get a safe node scheduling
// unless they choose one, and that nothing else is touched.
func TestSafeGoConfig(t *testing.T) {
	for cfg, want := range map[string]string{
		"go":                            DefaultGo,
		"go:":                           DefaultGo,
		"go:parallelism=2":              "go:parallelism=2,ops_sequential",
		"go:parallelism=-1":             "go:parallelism=-1,ops_parallel",
		"go:ops_sequential":             "go:ops_sequential",
		"go:ops_parallel":               "go:ops_parallel",
		"go:parallelism=1,ops_parallel": "go:parallelism=1,ops_parallel",
		"xla:cpu":                       "xla:cpu",
		"xla:cuda,preallocate=false":    "xla:cuda,preallocate=false",
	} {
		if got := SafeGoConfig(cfg); got != want {
			t.Errorf("SafeGoConfig(%q) = %q, want %q", cfg, got, want)
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
