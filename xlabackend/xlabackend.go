// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package xlabackend links GoMLX's XLA backend (github.com/gomlx/go-xla) into a program that uses
// LatFormer, so that backend.New can choose "xla:cpu" (when its PJRT plugin is installed) and
// $GOMLX_BACKEND can ask for "xla:cpu" or "xla:cuda".
//
// Import it for its side effect, in a main package or a notebook, never in a library:
//
//	import _ "github.com/latformer/latformer/xlabackend"
//
// It needs cgo and a C compiler at build time (go-xla loads PJRT plugins with dlopen). The latformer
// command imports it unless built with -tags noxla. The library packages (layers, experts, latformer,
// datasets, render) do not import it and build with CGO_ENABLED=0.
package xlabackend

import (
	"strings"

	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
	"github.com/latformer/latformer/internal/backendhooks"
)

func init() {
	backendhooks.XLAPluginAvailable = func(name string) bool {
		if name == "" {
			return false
		}
		for found := range pjrt.AvailablePlugins() {
			// Versioned installs are named like "cpu_v0.83.1".
			if found == name || strings.HasPrefix(found, name+"_v") {
				return true
			}
		}
		return false
	}
	backendhooks.XLADisableAutoInstall = func() { xla.EnableAutoInstall(false) }
}
