// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/compute/support/envutil"
)

// contendedCores is the CPU time, in cores, that other processes may use while a side is timed before its
// timing counts as contended (the PyTorch reference script warns at the same level).
const contendedCores = 0.1

// unknownCores marks a contention that could not be measured (no /proc, as outside Linux).
var unknownCores = math.NaN()

// stepStats summarizes the timed steps of one side of the benchmark.
type stepStats struct {
	Steps    int
	MedianMs float64 // median wall milliseconds per step (mean of the two middle ones for an even count)
	MinMs    float64 // fastest step
	// OtherCores is the CPU time that processes other than the timed one used during the timed steps,
	// divided by their wall time: 0 on an idle machine, 1 when another process kept one core busy.
	// NaN when unknown.
	OtherCores float64
}

// String formats the statistics as the key=value fields of a "bench stats" line.
func (s stepStats) String() string {
	other := "unknown"
	if !math.IsNaN(s.OtherCores) {
		other = fmt.Sprintf("%.2f", s.OtherCores)
	}
	return fmt.Sprintf("steps=%d median_ms=%.1f min_ms=%.1f other_cores=%s", s.Steps, s.MedianMs, s.MinMs, other)
}

// verdictClean is the contention verdict of a timing that no other process disturbed.
const verdictClean = "clean"

// verdict returns verdictClean, or a sentence saying that the timing was contended or not checked.
func (s stepStats) verdict() string {
	return contentionVerdict(s.OtherCores)
}

// contentionVerdict says whether a timing during which other processes used otherCores cores can be
// trusted: verdictClean up to contendedCores, otherwise (or when unknown) a sentence saying why not.
func contentionVerdict(otherCores float64) string {
	switch {
	case math.IsNaN(otherCores):
		return "contention not measured (no /proc/stat): other processes may have shared the CPUs"
	case otherCores > contendedCores:
		return fmt.Sprintf("contended: other processes used %.2f cores while it was timed (more than %.1f); "+
			"its times and the ratios are not reliable, re-run on an idle machine", otherCores, contendedCores)
	}
	return verdictClean
}

// summarize returns the median and the minimum of the step times (ms) with the contention measured.
func summarize(times []float64, otherCores float64) stepStats {
	lowest := math.NaN()
	if len(times) > 0 {
		lowest = slices.Min(times)
	}
	return stepStats{Steps: len(times), MedianMs: median(times), MinMs: lowest, OtherCores: otherCores}
}

// median returns the middle value of xs, the mean of the two middle ones for an even count (as Python's
// statistics.median, which the reference scripts use), or NaN for none. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// ratio returns a / b, or NaN when b is not a positive time.
func ratio(a, b float64) float64 {
	if !(b > 0) {
		return math.NaN()
	}
	return a / b
}

// cpuSample is a reading of the machine's busy CPU time and this process's CPU time, in clock ticks.
type cpuSample struct {
	busy, self uint64
	wall       time.Time
}

// clockTicks is Linux's USER_HZ, the unit of /proc/stat and /proc/self/stat.
const clockTicks = 100

// sampleCPU reads /proc/stat and /proc/self/stat.
func sampleCPU() (cpuSample, error) {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuSample{}, err
	}
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return cpuSample{}, err
	}
	line, _, _ := strings.Cut(string(stat), "\n")
	busy, err := parseProcStatBusy(line)
	if err != nil {
		return cpuSample{}, err
	}
	own, err := parseSelfStatTicks(string(self))
	if err != nil {
		return cpuSample{}, err
	}
	return cpuSample{busy: busy, self: own, wall: time.Now()}, nil
}

// otherCores returns the cores that processes other than this one kept busy between two samples.
func otherCores(before, after cpuSample) float64 {
	wall := after.wall.Sub(before.wall).Seconds()
	if wall <= 0 {
		return unknownCores
	}
	other := (float64(after.busy) - float64(before.busy) - (float64(after.self) - float64(before.self))) / clockTicks
	return max(0, other/wall)
}

// parseProcStatBusy returns the busy ticks of the "cpu" line of /proc/stat: every field but idle and
// iowait, and but guest and guest_nice, which user and nice already count.
func parseProcStatBusy(line string) (uint64, error) {
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: first line %q is not the \"cpu\" line", line)
	}
	var busy uint64
	for i, s := range f[1:] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: field %d of %q: %w", i+1, line, err)
		}
		if i != 3 && i != 4 && i != 8 && i != 9 {
			busy += v
		}
	}
	return busy, nil
}

// parseSelfStatTicks returns utime + stime (fields 14 and 15) of a /proc/PID/stat line, whose second field,
// the command name in parentheses, may hold spaces.
func parseSelfStatTicks(text string) (uint64, error) {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/self/stat: no command name in %q", text)
	}
	f := strings.Fields(text[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/self/stat: %d fields after the command name, want at least 13", len(f))
	}
	var total uint64
	for _, s := range f[11:13] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/self/stat: utime/stime %q: %w", s, err)
		}
		total += v
	}
	return total, nil
}

// cpuInfo is what the bench reports of the CPU.
type cpuInfo struct {
	model string
	cpus  int
	flags map[string]bool
}

// parseCPUInfo reads the first processor's model name and flags and counts the processors of a
// /proc/cpuinfo text.
func parseCPUInfo(text string) cpuInfo {
	h := cpuInfo{model: "unknown (no \"model name\" in /proc/cpuinfo)", flags: map[string]bool{}}
	seenModel, seenFlags := false, false
	for _, line := range strings.Split(text, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case key == "processor":
			h.cpus++
		case key == "model name" && !seenModel:
			h.model, seenModel = value, true
		case key == "flags" && !seenFlags:
			seenFlags = true
			for _, f := range strings.Fields(value) {
				h.flags[f] = true
			}
		}
	}
	return h
}

// simdPath names the float32 matrix-multiplication kernels that GoMLX's Go backend (compute v0.1.2,
// internal/gobackend/dot/matmul) registers for this build and CPU, following its init functions: the SIMD
// kernels exist only on amd64 with GOEXPERIMENT=simd; AVX-512 needs F, CD, BW, DQ and VL
// (archsimd.X86.AVX512) and wins over AVX2; $GOMLX_SIMD_AVX512, $GOMLX_SIMD_AVX2 and $GOMLX_DOT_MATMUL
// set to a false value turn a kernel family off, and so does $GODEBUG's cpu.avx512f=off (or any of the five,
// or cpu.all=off), which Go's runtime applies before the backend looks (applyGODEBUG).
func simdPath(goarch, experiments string, flags map[string]bool, getenv func(string) string) string {
	off := func(env string) bool { return envOff(getenv, env) }
	if goarch != "amd64" {
		return "portable Go (the SIMD kernels are amd64 only)"
	}
	if !experimentOn(experiments, "simd") {
		return "portable Go (built without GOEXPERIMENT=simd: no SIMD kernels)"
	}
	if off("GOMLX_DOT_MATMUL") {
		return "generic DotGeneral ($GOMLX_DOT_MATMUL turns the matmul kernels off)"
	}
	goFlags, _ := applyGODEBUG(flags, getenv("GODEBUG"))
	avx512 := hasAVX512(goFlags)
	switch {
	case avx512 && !off("GOMLX_SIMD_AVX512"):
		return "simd:avx512"
	case goFlags["avx2"] && !off("GOMLX_SIMD_AVX2"):
		switch {
		case avx512:
			return "simd:avx2 ($GOMLX_SIMD_AVX512 turns AVX-512 off)"
		case hasAVX512(flags):
			return "simd:avx2 ($GODEBUG turns AVX-512 off)"
		}
		return "simd:avx2 (the CPU lacks one of AVX-512 F, CD, BW, DQ, VL)"
	}
	return "portable Go (no AVX2, or $GOMLX_SIMD_AVX2 or $GODEBUG turns it off)"
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

// applyGODEBUG returns the CPU flags as Go's runtime (and so archsimd and the backend's kernel choice) sees
// them under the $GODEBUG value godebug: cpu.NAME=off removes NAME, cpu.all=off every option, as Go's
// internal/cpu does ("on" cannot add a feature the CPU lacks). It also returns the cpu.* names Go does not
// know, which it ignores after printing `GODEBUG: unknown cpu feature` (cpu.avx512 is one: the AVX-512
// switch is cpu.avx512f).
func applyGODEBUG(flags map[string]bool, godebug string) (map[string]bool, []string) {
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

// runReference runs a PyTorch reference script with args and returns its step statistics; it prints the
// script's configuration, backend, compile, contention and equality lines prefixed by "reference (label): ".
func runReference(label, python, script string, args ...string) (stepStats, error) {
	if _, err := os.Stat(script); err != nil {
		return stepStats{}, err
	}
	cmd := exec.Command(python, append([]string{script}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return stepStats{}, fmt.Errorf("%s %s: %w\n%s", python, script, err, out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "config:") || strings.HasPrefix(line, "backend:") || strings.HasPrefix(line, "compile") ||
			strings.Contains(line, "other_procs_cores_during_timing") || strings.HasPrefix(line, "max_abs_diff_vs_dense=") {
			fmt.Printf("reference (%s): %s\n", label, line)
		}
	}
	st, err := parseReferenceOutput(out.String())
	if err != nil {
		return stepStats{}, fmt.Errorf("%s %s: %w", python, script, err)
	}
	return st, nil
}

// parseReferenceOutput reads a reference script's output: the median from the "step_ms=X" line, the
// minimum from a "step_min_ms=X" field, the step count from "steps=N" (0 when absent) and the contention
// from "other_procs_cores_during_timing=A[/B]" (A: during the training steps; NaN when absent).
func parseReferenceOutput(out string) (stepStats, error) {
	st := stepStats{MedianMs: math.NaN(), MinMs: math.NaN(), OtherCores: unknownCores}
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "step_ms="); ok {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return st, fmt.Errorf("step_ms: %w", err)
			}
			st.MedianMs = x
			continue
		}
		for _, field := range strings.Fields(line) {
			key, v, _ := strings.Cut(field, "=")
			var dst *float64
			switch key {
			case "step_min_ms":
				dst = &st.MinMs
			case "other_procs_cores_during_timing":
				dst, v = &st.OtherCores, strings.Split(v, "/")[0]
			case "steps":
				n, err := strconv.Atoi(v)
				if err != nil {
					return st, fmt.Errorf("steps: %w", err)
				}
				st.Steps = n
			}
			if dst != nil {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return st, fmt.Errorf("%s: %w", key, err)
				}
				*dst = x
			}
		}
	}
	if math.IsNaN(st.MedianMs) || math.IsNaN(st.MinMs) {
		return st, fmt.Errorf("no step_ms= line or no step_min_ms= field in the reference output:\n%s", out)
	}
	return st, nil
}
