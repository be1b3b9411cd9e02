package latformer

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // The pure-Go backend, always linked in.
	"github.com/latformer/latformer/internal/backendhooks"
)

// DefaultGoBackend is the configuration of GoMLX's pure-Go backend that NewBackend uses: graph nodes are
// executed one after the other ("ops_sequential"), while each matrix product and large element-wise op
// still fans out over all cores.
//
// Why not the backend's own default: with node-level parallelism (what "go" means for a single
// execution), compute v0.1.2–v0.1.6 deadlocks on graphs with several independent matrix products. Each
// node runs as a task of one bounded worker pool (2 × GOMAXPROCS slots) and keeps its slot while the
// matrix product inside it waits in workerspool.Saturate for a free slot; when every slot is held by such
// a node, nothing ever frees one. internal/hangrepro reproduces it (`latformer hang-repro`) and
// TestUpstreamParallelExecutorHangs tells us when an upstream release fixes it.
const DefaultGoBackend = "go:ops_sequential"

// BackendConfig returns the GoMLX backend configuration that NewBackend uses:
//
//  1. $GOMLX_BACKEND when set (e.g. "go", "xla:cpu", "xla:cuda"), as in all GoMLX programs; a pure-Go
//     configuration that does not choose the node scheduling ("go", "go:parallelism=2") gets
//     "ops_sequential" added (see DefaultGoBackend); "go:ops_parallel" is kept as asked, at the user's risk;
//  2. "xla:cpu" when XLA support is linked in (a program imported github.com/latformer/latformer/xlabackend,
//     as the latformer command does) and its CPU PJRT plugin is already installed on the machine;
//  3. otherwise DefaultGoBackend, GoMLX's pure-Go backend, which needs no C library and no network.
//
// Unlike compute.New, it never makes the XLA backend download a plugin on its own: that happens only
// when the user asks for XLA explicitly through $GOMLX_BACKEND.
func BackendConfig() string {
	if cfg, ok := os.LookupEnv(compute.ConfigEnvVar); ok && cfg != "" {
		return SafeGoConfig(cfg)
	}
	if slices.Contains(compute.List(), "xla") && backendhooks.XLAPluginAvailable("cpu") {
		return "xla:cpu"
	}
	return DefaultGoBackend
}

// SafeGoConfig returns cfg unchanged unless it selects GoMLX's pure-Go backend without choosing how its
// graph nodes are scheduled; then it adds "ops_sequential" (see DefaultGoBackend for why). "go" becomes
// "go:ops_sequential", "go:parallelism=2" becomes "go:parallelism=2,ops_sequential".
func SafeGoConfig(cfg string) string {
	name, opts, _ := strings.Cut(cfg, ":")
	if name != "go" {
		return cfg
	}
	var parts []string
	for _, p := range strings.Split(opts, ",") {
		switch p {
		case "":
			continue
		case "ops_sequential", "ops_parallel":
			return cfg // the user chose
		}
		parts = append(parts, p)
	}
	return "go:" + strings.Join(append(parts, "ops_sequential"), ",")
}

// NewBackend creates the compute backend selected by BackendConfig, with a clear error when the
// requested backend is not available.
func NewBackend() (compute.Backend, error) {
	return NewBackendWithConfig(BackendConfig())
}

// NewBackendWithConfig creates a backend from a GoMLX configuration string ("go", "go:ops_sequential",
// "xla:cpu", ...), with a clear error when it is not available. The configuration goes through
// SafeGoConfig, so "go" gets the sequential node scheduling. XLA's plugin auto-download only happens
// when $GOMLX_BACKEND asks for XLA explicitly and the requested plugin is not installed yet: a plugin
// found in $PJRT_PLUGIN_LIBRARY_PATH (for example the CUDA plugin of a JAX installation, linked as
// pjrt_c_api_cuda_plugin.so) is used as it is, with no network access.
func NewBackendWithConfig(cfg string) (compute.Backend, error) {
	cfg = SafeGoConfig(cfg)
	if _, explicit := os.LookupEnv(compute.ConfigEnvVar); !explicit || backendhooks.XLAPluginAvailable(xlaPluginName(cfg)) {
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
		backend, err = compute.NewWithConfig(cfg)
	}()
	if err != nil {
		hint := ""
		if name, _, _ := strings.Cut(cfg, ":"); name == "xla" && !slices.Contains(compute.List(), "xla") {
			hint = `; XLA is not linked into this program: import _ "github.com/latformer/latformer/xlabackend" (needs cgo)`
		}
		return nil, fmt.Errorf("creating GoMLX backend %q (from $%s or the default; compiled-in backends: %v)%s: %w",
			cfg, compute.ConfigEnvVar, compute.List(), hint, err)
	}
	return backend, nil
}

// BackendDescription names the backend and, for the pure-Go backend, the node scheduling actually used,
// e.g. "go:ops_sequential (Go Portable Compute Backend (parallelism=4), nodes run sequentially)".
func BackendDescription(cfg string, backend compute.Backend) string {
	desc := fmt.Sprintf("%s (%s", cfg, backend.Description())
	if name, opts, _ := strings.Cut(cfg, ":"); name == "go" {
		switch {
		case slices.Contains(strings.Split(opts, ","), "ops_parallel"):
			desc += ", nodes run in parallel: can deadlock, see README"
		case slices.Contains(strings.Split(opts, ","), "ops_sequential"):
			desc += ", nodes run sequentially, each op uses all cores"
		default:
			desc += ", node scheduling chosen by the backend"
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
