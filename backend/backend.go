// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package backend sets up GoMLX's compute backends for LatFormer: the configuration a program runs on
// (Config: $GOMLX_BACKEND, else XLA's CPU plugin when linked in and installed, else GoMLX's pure-Go backend
// with every core on each matrix product, DefaultGo), the constructors (New, NewWithConfig) and the
// description printed at the start of a run (Describe). Library packages never choose a backend: they
// take one (a compute.Backend, or a function that makes one per worker), and only programs (the latformer
// command, the notebooks, the examples) call New. InitializeVariables draws a model's initial values the
// same way on every backend.
package backend

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // The pure-Go backend, always linked in.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/backendhooks"
)

// DefaultGo is the configuration of GoMLX's pure-Go backend that New uses: independent graph nodes run
// in parallel ("ops_parallel") as goroutines that hold no worker-pool slot ("parallelism=-1"), so that each
// matrix product fans out over every core. The backend's own default ("go") bounds the pool at
// 2 × GOMAXPROCS slots, which the parallel nodes share with the products inside them: on 2 cores the
// training step at canvas 20 and 30 takes 1.45x and 1.65x as long (compute v0.1.14; docs/backends.md).
// Up to compute v0.1.6 that default also deadlocked on wide graphs; TestWideGraphsNeverHang keeps watch.
const DefaultGo = "go:ops_parallel,parallelism=-1"

// Config returns the GoMLX backend configuration that New uses:
//
//  1. $GOMLX_BACKEND when set (e.g. "go", "xla:cpu", "xla:cuda"), as in all GoMLX programs, as written;
//  2. "xla:cpu" when XLA support is linked in (a program imported github.com/latformer/latformer/xlabackend,
//     as the latformer command does) and its CPU PJRT plugin is already installed on the machine;
//  3. otherwise DefaultGo, GoMLX's pure-Go backend, which needs no C library and no network.
//
// Unlike compute.New, it never makes the XLA backend download a plugin on its own: that happens only
// when the user asks for XLA explicitly through $GOMLX_BACKEND.
func Config() string {
	if cfg, ok := os.LookupEnv(compute.ConfigEnvVar); ok && cfg != "" {
		return cfg
	}
	if slices.Contains(compute.List(), "xla") && backendhooks.XLAPluginAvailable("cpu") {
		return "xla:cpu"
	}
	return DefaultGo
}

// New creates the compute backend selected by Config, with a clear error when the requested backend is
// not available. For programs (the command, the notebooks, the examples): library code takes a backend.
func New() (compute.Backend, error) {
	return NewWithConfig(Config())
}

// NewWithConfig creates a backend from a GoMLX configuration string ("go", "go:ops_sequential",
// "xla:cpu", ...), with a clear error when it is not available. XLA's plugin auto-download only happens
// when $GOMLX_BACKEND asks for XLA explicitly and the requested plugin is not installed yet: a plugin
// found in $PJRT_PLUGIN_LIBRARY_PATH (for example the CUDA plugin of a JAX installation, linked as
// pjrt_c_api_cuda_plugin.so) is used as it is, with no network access.
func NewWithConfig(cfg string) (compute.Backend, error) {
	if _, explicit := os.LookupEnv(compute.ConfigEnvVar); !explicit ||
		backendhooks.XLAPluginAvailable(xlaPluginName(cfg)) {
		backendhooks.XLADisableAutoInstall()
	}
	var backend compute.Backend
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		backend, err = newQuietly(cfg)
	}()
	if err != nil {
		hint := ""
		if name, _, _ := strings.Cut(cfg, ":"); name == "xla" && !slices.Contains(compute.List(), "xla") {
			hint = `; XLA is not linked into this program: ` +
				`import _ "github.com/latformer/latformer/xlabackend" (needs cgo)`
		}
		return nil, fmt.Errorf("creating GoMLX backend %q (from $%s or the default; compiled-in backends: %v)%s: %w",
			cfg, compute.ConfigEnvVar, compute.List(), hint, err)
	}
	configs.Store(backend, cfg)
	return backend, nil
}

// configs holds the configuration of every backend NewWithConfig made (Describe reads it).
var configs sync.Map

// Describe names a backend made by New or NewWithConfig by its configuration and, for the pure-Go
// backend, the node scheduling actually used, e.g. "go:ops_parallel,parallelism=-1 (Go Portable Compute
// Backend (parallelism=-1), graph nodes in parallel without pool slots)"; another backend by its name and
// description.
func Describe(backend compute.Backend) string {
	cfg, ok := configs.Load(backend)
	if !ok {
		return fmt.Sprintf("%s (%s)", backend.Name(), backend.Description())
	}
	return describe(cfg.(string), backend)
}

// describe is Describe of a backend of configuration cfg.
func describe(cfg string, backend compute.Backend) string {
	desc := fmt.Sprintf("%s (%s", cfg, backend.Description())
	if name, opts, _ := strings.Cut(cfg, ":"); name == "go" {
		o := strings.Split(opts, ",")
		switch {
		case slices.Contains(o, "ops_parallel") && slices.Contains(o, "parallelism=-1"):
			desc += ", graph nodes in parallel without pool slots"
		case slices.Contains(o, "ops_parallel"):
			desc += ", graph nodes in parallel on the bounded pool"
		case slices.Contains(o, "ops_sequential"):
			desc += ", graph nodes one after the other"
		default:
			desc += ", graph nodes in parallel on the bounded pool while one execution runs"
		}
	}
	return desc + ")"
}

// xlaPluginName returns the PJRT plugin a backend configuration asks for: "cuda" for "xla:cuda" or
// "xla:cuda,preallocate=false", "cpu" for "xla" alone, "" for non-XLA backends.
func xlaPluginName(cfg string) string {
	name, plugin, _ := strings.Cut(cfg, ":")
	if name != "xla" {
		return ""
	}
	plugin, _, _ = strings.Cut(plugin, ",")
	if plugin == "" {
		return "cpu"
	}
	return plugin
}

// newQuietly creates the backend for cfg. GoMLX's pure-Go backend prints "Go backend: parallelism set to
// N" on standard output when its configuration has "parallelism=N", which would end up in every program's
// output (and break Example tests); for the pure-Go backend we create it without that option and set the
// worker pool's parallelism directly. Should a later compute release change the backend's layout, it
// falls back to passing the option in the configuration (the line is printed, nothing else changes).
func newQuietly(cfg string) (compute.Backend, error) {
	name, opts, _ := strings.Cut(cfg, ":")
	if name != "go" {
		return compute.NewWithConfig(cfg)
	}
	var kept []string
	parallelism, found := 0, false
	for _, p := range strings.Split(opts, ",") {
		if v, ok := strings.CutPrefix(p, "parallelism="); ok {
			if _, err := fmt.Sscan(v, &parallelism); err != nil {
				return compute.NewWithConfig(cfg) // let the backend report the bad value
			}
			found = true
			continue
		}
		kept = append(kept, p)
	}
	if !found {
		return compute.NewWithConfig(cfg)
	}
	backend, err := compute.NewWithConfig("go:" + strings.Join(kept, ","))
	if err != nil {
		return nil, err
	}
	if setPoolParallelism(backend, parallelism) {
		return backend, nil
	}
	backend.Finalize()
	return compute.NewWithConfig(cfg)
}

// setPoolParallelism sets the maximum parallelism of the pure-Go backend's worker pool (its exported
// Workers field, a *workerspool.Pool) and reports whether it could.
func setPoolParallelism(backend compute.Backend, parallelism int) bool {
	v := reflect.ValueOf(backend)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	f := v.Elem().FieldByName("Workers")
	if !f.IsValid() || !f.CanInterface() {
		return false
	}
	pool, ok := f.Interface().(interface {
		SetMaxParallelism(int)
		MaxParallelism() int
	})
	if !ok || pool == nil {
		return false
	}
	pool.SetMaxParallelism(parallelism)
	return pool.MaxParallelism() == parallelism
}

// initBackendConfig is the backend that draws the initial values of every learner's variables when it
// trains on another backend: GoMLX's backends draw random bits with different generators from the same
// RNG state (the Go backend PCG, XLA Philox), so without it a learner on xla:cpu starts from other weights
// than on the Go backend, and its training takes another path (make xla-check compares the two).
const initBackendConfig = "go:ops_sequential"

var (
	initBackendOnce sync.Once
	initBackendGo   compute.Backend
	initBackendErr  error
)

// InitializeVariables initializes store's uninitialized variables as a model training on backend must
// (latformer.Learner does): on backend itself when it is GoMLX's Go backend, otherwise on one shared Go backend
// (initBackendConfig), whose values are then moved to host memory for backend to take; so that the initial
// values do not depend on the training backend.
func InitializeVariables(store *model.Store, backend compute.Backend) error {
	if backend.Name() == goBackendName {
		return store.InitializeVariables(backend, nil)
	}
	initBackendOnce.Do(func() { initBackendGo, initBackendErr = compute.NewWithConfig(initBackendConfig) })
	if initBackendErr != nil {
		return initBackendErr
	}
	if err := store.InitializeVariables(initBackendGo, nil); err != nil {
		return err
	}
	for v := range store.IterVariables() {
		if !v.HasValue() {
			continue
		}
		value, err := v.Value()
		if err != nil {
			return err
		}
		if err := value.ToLocal(); err != nil {
			return fmt.Errorf("%s: %w", v.Path(), err)
		}
	}
	return nil
}

// goBackendName is what GoMLX's Go backend answers to Name().
const goBackendName = "Go Backend"
