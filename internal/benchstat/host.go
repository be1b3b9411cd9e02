// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"slices"
	"strings"

	"github.com/gomlx/compute/support/envutil"
)

// CPUInfo is what the bench reports of the CPU.
type CPUInfo struct {
	Model string          // the first processor's model name
	CPUs  int             // logical CPUs
	Flags map[string]bool // the first processor's flags
}

// ParseCPUInfo reads the first processor's model name and flags and counts the processors of a
// /proc/cpuinfo text.
func ParseCPUInfo(text string) CPUInfo {
	h := CPUInfo{Model: "unknown (no \"model name\" in /proc/cpuinfo)", Flags: map[string]bool{}}
	seenModel, seenFlags := false, false
	for _, line := range strings.Split(text, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case key == "processor":
			h.CPUs++
		case key == "model name" && !seenModel:
			h.Model, seenModel = value, true
		case key == "flags" && !seenFlags:
			seenFlags = true
			for _, f := range strings.Fields(value) {
				h.Flags[f] = true
			}
		}
	}
	return h
}

// SIMDPath names the float32 matrix-multiplication kernels that GoMLX's Go backend (compute v0.1.14,
// internal/gobackend/dot/matmul) registers for this build and CPU, following its init functions: the SIMD
// kernels exist only on amd64 with GOEXPERIMENT=simd; AVX-512 needs F, CD, BW, DQ and VL
// (archsimd.X86.AVX512) and wins over AVX2; $GOMLX_GO_SIMD_AVX512, $GOMLX_GO_SIMD_AVX2 and $GOMLX_GO_DOT_MATMUL
// set to a false value turn a kernel family off, and so does $GODEBUG's cpu.avx512f=off (or any of the five,
// or cpu.all=off), which Go's runtime applies before the backend looks (ApplyGODEBUG).
func SIMDPath(goarch, experiments string, flags map[string]bool, getenv func(string) string) string {
	off := func(env string) bool { return envOff(getenv, env) }
	if goarch != "amd64" {
		return "portable Go (the SIMD kernels are amd64 only)"
	}
	if !experimentOn(experiments, "simd") {
		return "portable Go (built without GOEXPERIMENT=simd: no SIMD kernels)"
	}
	if off("GOMLX_GO_DOT_MATMUL") {
		return "generic DotGeneral ($GOMLX_GO_DOT_MATMUL turns the matmul kernels off)"
	}
	goFlags, _ := ApplyGODEBUG(flags, getenv("GODEBUG"))
	avx512 := hasAVX512(goFlags)
	switch {
	case avx512 && !off("GOMLX_GO_SIMD_AVX512"):
		return "simd:avx512"
	case goFlags["avx2"] && !off("GOMLX_GO_SIMD_AVX2"):
		switch {
		case avx512:
			return "simd:avx2 ($GOMLX_GO_SIMD_AVX512 turns AVX-512 off)"
		case hasAVX512(flags):
			return "simd:avx2 ($GODEBUG turns AVX-512 off)"
		}
		return "simd:avx2 (the CPU lacks one of AVX-512 F, CD, BW, DQ, VL)"
	}
	return "portable Go (no AVX2, or $GOMLX_GO_SIMD_AVX2 or $GODEBUG turns it off)"
}

// envOff reports whether the environment variable env holds one of the false values compute's envutil reads.
func envOff(getenv func(string) string, env string) bool {
	return envutil.FalseValues.Has(strings.ToLower(getenv(env)))
}

// hasAVX512 reports whether the flags hold the five AVX-512 subsets archsimd.X86.AVX512 asks for.
func hasAVX512(f map[string]bool) bool {
	return f["avx512f"] && f["avx512cd"] && f["avx512bw"] && f["avx512dq"] && f["avx512vl"]
}

// goCPUOptions are the x86 CPU features whose use $GODEBUG's cpu.NAME=off turns off in Go's runtime
// (internal/cpu, Go 1.26); they are also the names of /proc/cpuinfo's flags for the SIMD ones.
var goCPUOptions = []string{"adx", "aes", "erms", "fsrm", "pclmulqdq", "rdtscp", "sha", "vpclmulqdq", "popcnt",
	"sse3", "sse41", "sse42", "ssse3", "avx", "avx2", "bmi1", "bmi2", "fma",
	"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}

// ApplyGODEBUG returns the CPU flags as Go's runtime (and so archsimd and the backend's kernel choice) sees
// them under the $GODEBUG value godebug: cpu.NAME=off removes NAME, cpu.all=off every option, as Go's
// internal/cpu does ("on" cannot add a feature the CPU lacks). It also returns the cpu.* names Go does not
// know, which it ignores after printing `GODEBUG: unknown cpu feature` (cpu.avx512 is one: the AVX-512
// switch is cpu.avx512f).
func ApplyGODEBUG(flags map[string]bool, godebug string) (map[string]bool, []string) {
	out := make(map[string]bool, len(flags))
	for k, v := range flags {
		out[k] = v
	}
	var unknown []string
	for _, field := range strings.Split(godebug, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(field), "=")
		name, isCPU := strings.CutPrefix(key, "cpu.")
		if !ok || !isCPU {
			continue
		}
		switch {
		case name == "all":
			if value == "off" {
				for _, o := range goCPUOptions {
					delete(out, o)
				}
			}
		case slices.Contains(goCPUOptions, name):
			if value == "off" {
				delete(out, name)
			}
		default:
			unknown = append(unknown, name)
		}
	}
	return out, unknown
}

// experimentOn reports whether a GOEXPERIMENT list ("simd,nocoverageredesign") turns name on: the last
// mention of name or noname wins.
func experimentOn(experiments, name string) bool {
	on := false
	for _, e := range strings.Split(experiments, ",") {
		switch strings.TrimSpace(e) {
		case name:
			on = true
		case "no" + name:
			on = false
		}
	}
	return on
}
