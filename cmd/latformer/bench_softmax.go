// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import "runtime/debug"

// computeFork is where go.mod's replace puts GoMLX's Go backend (github.com/gomlx/compute v0.1.2): its
// published source plus the patches in docs/upstream (make compute-fork-check verifies it).
const computeFork = "./third_party/compute"

// computeReplacement returns the directory or module that replaces github.com/gomlx/compute in this
// binary ("" when it is the published module).
func computeReplacement() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/gomlx/compute" && dep.Replace != nil {
			return dep.Replace.Path
		}
	}
	return ""
}

// softmaxPath names (goamd64: the build's GOAMD64 setting, "" off amd64) the Go backend's float32 softmax over the last axis (the attention's) for this build
// and CPU. The patched copy in third_party/compute runs it on 16 (AVX-512) or 8 (AVX2) values at a time
// where the build is amd64 with GOEXPERIMENT=simd and GOAMD64 v1 or v2 (with v3 the compiler fuses the
// scalar exp's multiply-adds, which the vector code does not reproduce) and the CPU, after $GODEBUG's
// cpu.* options, has the instructions; $GOMLX_SIMD_AVX512 and $GOMLX_SIMD_AVX2 turn a width off as they do
// for the matmul kernels. Either way the values are the scalar loop's to the last bit.
func softmaxPath(goarch, experiments, goamd64, replacement string, flags map[string]bool, getenv func(string) string) string {
	switch {
	case replacement != computeFork:
		return "scalar exp (compute as published; this repository's go.mod replaces it with " + computeFork + ")"
	case goarch != "amd64":
		return "scalar exp (the vectorized softmax is amd64 only)"
	case !experimentOn(experiments, "simd"):
		return "scalar exp (built without GOEXPERIMENT=simd)"
	case goamd64 != "" && goamd64 != "v1" && goamd64 != "v2":
		return "scalar exp (GOAMD64=" + goamd64 + ": the compiler fuses the scalar exp's multiply-adds, which the vector exp does not reproduce)"
	}
	goFlags, _ := applyGODEBUG(flags, getenv("GODEBUG"))
	switch {
	case hasAVX512(goFlags) && !envOff(getenv, "GOMLX_SIMD_AVX512"):
		return "vectorized, avx512 (" + computeFork + ", docs/upstream/compute-softmax-simd.patch)"
	case goFlags["avx2"] && !envOff(getenv, "GOMLX_SIMD_AVX2"):
		return "vectorized, avx2 (" + computeFork + ", docs/upstream/compute-softmax-simd.patch)"
	}
	return "scalar exp (no AVX2, or $GOMLX_SIMD_AVX2 or $GODEBUG turns it off)"
}
