package latformer

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // The pure-Go backend, always linked in.
)

// xlaPluginAvailable reports whether the named XLA PJRT plugin ("cpu", "cuda", ...) is already installed:
// in GoMLX's plugin directories or in $PJRT_PLUGIN_LIBRARY_PATH (set by backend_xla.go when XLA support
// is compiled in; always false with the noxla build tag).
var xlaPluginAvailable = func(name string) bool { return false }

// xlaDisableAutoInstall stops the XLA backend from trying to download plugins (a no-op without XLA).
var xlaDisableAutoInstall = func() {}

// BackendConfig returns the GoMLX backend configuration that NewBackend uses:
//
//  1. $GOMLX_BACKEND when set (e.g. "go", "xla:cpu", "xla:cuda"), as in all GoMLX programs;
//  2. "xla:cpu" when XLA support is compiled in (the default; build with -tags noxla to leave it out)
//     and its CPU PJRT plugin is already installed on the machine;
//  3. otherwise "go", GoMLX's pure-Go backend, which needs no C library and no network.
//
// Unlike compute.New, it never makes the XLA backend download a plugin on its own: that happens only
// when the user asks for XLA explicitly through $GOMLX_BACKEND.
func BackendConfig() string {
	if cfg, ok := os.LookupEnv(compute.ConfigEnvVar); ok && cfg != "" {
		return cfg
	}
	if slices.Contains(compute.List(), "xla") && xlaPluginAvailable("cpu") {
		return "xla:cpu"
	}
	return "go"
}

// NewBackend creates the compute backend selected by BackendConfig, with a clear error when the
// requested backend is not available.
func NewBackend() (compute.Backend, error) {
	return NewBackendWithConfig(BackendConfig())
}

// NewBackendWithConfig creates a backend from a GoMLX configuration string ("go", "go:ops_sequential",
// "xla:cpu", ...), with a clear error when it is not available. XLA's plugin auto-download only happens
// when $GOMLX_BACKEND asks for XLA explicitly and the requested plugin is not installed yet: a plugin
// found in $PJRT_PLUGIN_LIBRARY_PATH (for example the CUDA plugin of a JAX installation, linked as
// pjrt_c_api_cuda_plugin.so) is used as it is, with no network access.
func NewBackendWithConfig(cfg string) (compute.Backend, error) {
	if _, explicit := os.LookupEnv(compute.ConfigEnvVar); !explicit || xlaPluginAvailable(xlaPluginName(cfg)) {
		xlaDisableAutoInstall()
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
		return nil, fmt.Errorf("creating GoMLX backend %q (from $%s or the default; compiled-in backends: %v): %w",
			cfg, compute.ConfigEnvVar, compute.List(), err)
	}
	return backend, nil
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
