// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package benchstat is the statistics and the host description behind `latformer bench`: the median and
// minimum of timed steps, the CPU time other processes used meanwhile (contention, from /proc), the CPU's
// SIMD flags and the kernels GoMLX's Go backend picks with them, and the PyTorch reference scripts' output.
// The command keeps the flags and the printing.
package benchstat

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ContendedCores is the CPU time, in cores, that other processes may use while a side is timed before its
// timing counts as contended (the PyTorch reference script warns at the same level).
const ContendedCores = 0.1

// UnknownCores marks a contention that could not be measured (no /proc, as outside Linux).
var UnknownCores = math.NaN()

// StepStats summarizes the timed steps of one side of the benchmark.
type StepStats struct {
	Steps    int
	MedianMs float64 // median wall milliseconds per step (mean of the two middle ones for an even count)
	MinMs    float64 // fastest step
	// OtherCores is the CPU time that processes other than the timed one used during the timed steps,
	// divided by their wall time: 0 on an idle machine, 1 when another process kept one core busy.
	// NaN when unknown.
	OtherCores float64
}

// String formats the statistics as the key=value fields of a "bench stats" line.
func (s StepStats) String() string {
	other := "unknown"
	if !math.IsNaN(s.OtherCores) {
		other = fmt.Sprintf("%.2f", s.OtherCores)
	}
	return fmt.Sprintf("steps=%d median_ms=%.1f min_ms=%.1f other_cores=%s", s.Steps, s.MedianMs, s.MinMs, other)
}

// VerdictClean is the contention verdict of a timing that no other process disturbed.
const VerdictClean = "clean"

// Verdict returns VerdictClean, or a sentence saying that the timing was contended or not checked.
func (s StepStats) Verdict() string {
	return ContentionVerdict(s.OtherCores)
}

// ContentionVerdict says whether a timing during which other processes used otherCores cores can be
// trusted: VerdictClean up to ContendedCores, otherwise (or when unknown) a sentence saying why not.
func ContentionVerdict(otherCores float64) string {
	switch {
	case math.IsNaN(otherCores):
		return "contention not measured (no /proc/stat): other processes may have shared the CPUs"
	case otherCores > ContendedCores:
		return fmt.Sprintf("contended: other processes used %.2f cores while it was timed (more than %.1f); "+
			"its times and the ratios are not reliable, re-run on an idle machine", otherCores, ContendedCores)
	}
	return VerdictClean
}

// Summarize returns the median and the minimum of the step times (ms) with the contention measured.
func Summarize(times []float64, otherCores float64) StepStats {
	lowest := math.NaN()
	if len(times) > 0 {
		lowest = slices.Min(times)
	}
	return StepStats{Steps: len(times), MedianMs: Median(times), MinMs: lowest, OtherCores: otherCores}
}

// Median returns the middle value of xs, the mean of the two middle ones for an even count (as Python's
// statistics.median, which the reference scripts use), or NaN for none. xs is not modified.
func Median(xs []float64) float64 {
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

// Ratio returns a / b, or NaN when b is not a positive time.
func Ratio(a, b float64) float64 {
	if !(b > 0) {
		return math.NaN()
	}
	return a / b
}

// CPUSample is a reading of the machine's busy CPU time and this process's CPU time, in clock ticks.
type CPUSample struct {
	busy, self uint64
	wall       time.Time
}

// clockTicks is Linux's USER_HZ, the unit of /proc/stat and /proc/self/stat.
const clockTicks = 100

// SampleCPU reads /proc/stat and /proc/self/stat.
func SampleCPU() (CPUSample, error) {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return CPUSample{}, err
	}
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return CPUSample{}, err
	}
	line, _, _ := strings.Cut(string(stat), "\n")
	busy, err := parseProcStatBusy(line)
	if err != nil {
		return CPUSample{}, err
	}
	own, err := parseSelfStatTicks(string(self))
	if err != nil {
		return CPUSample{}, err
	}
	return CPUSample{busy: busy, self: own, wall: time.Now()}, nil
}

// SampleCPUWith is SampleCPU counting the CPU time of the processes pids (children timed alongside this one,
// as the PyTorch reference servers) as this process's own.
func SampleCPUWith(pids ...int) (CPUSample, error) {
	s, err := SampleCPU()
	if err != nil {
		return s, err
	}
	for _, pid := range pids {
		text, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return s, err
		}
		ticks, err := parseSelfStatTicks(string(text))
		if err != nil {
			return s, err
		}
		s.self += ticks
	}
	return s, nil
}

// OtherCoresBetween returns the cores that processes other than this one (and those SampleCPUWith counted)
// kept busy between two samples.
func OtherCoresBetween(before, after CPUSample) float64 {
	wall := after.wall.Sub(before.wall).Seconds()
	if wall <= 0 {
		return UnknownCores
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
