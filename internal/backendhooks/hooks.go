// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package backendhooks connects package backend (backend.New) to the optional XLA support in package xlabackend,
// so that the library itself never imports XLA (or needs cgo): a program that wants XLA imports
// github.com/latformer/latformer/xlabackend, whose init sets these hooks.
package backendhooks

// XLAPluginAvailable reports whether the named XLA PJRT plugin ("cpu", "cuda", ...) is already installed.
// Always false unless package xlabackend is linked in.
var XLAPluginAvailable = func(name string) bool { return false }

// XLADisableAutoInstall stops the XLA backend from downloading plugins (a no-op without xlabackend).
var XLADisableAutoInstall = func() {}
