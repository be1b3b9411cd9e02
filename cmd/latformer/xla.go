// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

//go:build !noxla && cgo

package main

// XLA support (xla:cpu, xla:cuda); build with -tags noxla (or CGO_ENABLED=0) for a pure-Go binary.
import _ "github.com/latformer/latformer/xlabackend"
