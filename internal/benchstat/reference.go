// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// RunReference runs a PyTorch reference script with args (python script args...) and returns its step
// statistics and the lines of its output worth showing: its configuration, backend, compile, contention
// and equality lines.
func RunReference(python, script string, args ...string) (StepStats, []string, error) {
	if _, err := os.Stat(script); err != nil {
		return StepStats{}, nil, err
	}
	cmd := exec.Command(python, append([]string{script}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return StepStats{}, nil, fmt.Errorf("%s %s: %w\n%s", python, script, err, out.String())
	}
	var shown []string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "config:") || strings.HasPrefix(line, "backend:") || strings.HasPrefix(line, "compile") ||
			strings.Contains(line, "other_procs_cores_during_timing") || strings.HasPrefix(line, "max_abs_diff_vs_dense=") {
			shown = append(shown, line)
		}
	}
	st, err := ParseReferenceOutput(out.String())
	if err != nil {
		return StepStats{}, nil, fmt.Errorf("%s %s: %w", python, script, err)
	}
	return st, shown, nil
}

// ParseReferenceOutput reads a reference script's output: the median from the "step_ms=X" line, the
// minimum from a "step_min_ms=X" field, the step count from "steps=N" (0 when absent) and the contention
// from "other_procs_cores_during_timing=A[/B]" (A: during the training steps; NaN when absent).
func ParseReferenceOutput(out string) (StepStats, error) {
	st := StepStats{MedianMs: math.NaN(), MinMs: math.NaN(), OtherCores: UnknownCores}
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
