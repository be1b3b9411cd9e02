// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

// OpShare is the CPU time of one backend op (or group) in a CPU profile, and its share of the profile.
type OpShare struct {
	Op    string
	Nanos int64
	Share float64
}

// OtherOps names the CPU time that no backend op accounts for (the Go runtime, the garbage collector, the
// graph's glue code).
const OtherOps = "other (runtime, GC, glue)"

// TopOps reads a CPU profile (runtime/pprof's format) of training steps on GoMLX's Go backend and returns
// the CPU time of each op, largest first: a sample counts for the executor the backend's executeNode called
// (its function name without the "exec" prefix and the "Fast"/"Generic" suffixes, "DotGeneral" for the matrix
// products, "Fused..." for the fused ops), and a sample in a worker goroutine (the products' and fused ops'
// parallel chunks) for the package of its kernel, and a worker goroutine polling for a task as SpinOps.
//
// Several profiles (of blocks of the same steps) count together.
func TopOps(data ...[]byte) ([]OpShare, error) {
	totals := map[string]int64{}
	var all int64
	for _, d := range data {
		p, err := profile.Parse(bytes.NewReader(d))
		if err != nil {
			return nil, err
		}
		all += addOpTimes(p, totals)
	}
	shares := make([]OpShare, 0, len(totals))
	for op, v := range totals {
		share := 0.0
		if all > 0 {
			share = float64(v) / float64(all)
		}
		shares = append(shares, OpShare{Op: op, Nanos: v, Share: share})
	}
	sort.Slice(shares, func(i, j int) bool {
		if shares[i].Nanos != shares[j].Nanos {
			return shares[i].Nanos > shares[j].Nanos
		}
		return shares[i].Op < shares[j].Op
	})
	return shares, nil
}

// addOpTimes adds the CPU time of each op in profile p to totals and returns the profile's total.
func addOpTimes(p *profile.Profile, totals map[string]int64) (all int64) {
	valueIdx := len(p.SampleType) - 1 // cpu nanoseconds (the first is the sample count)
	for _, s := range p.Sample {
		var frames []string // leaf first; inlined frames first within a location
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function != nil {
					frames = append(frames, line.Function.Name)
				}
			}
		}
		v := s.Value[valueIdx]
		totals[OpOfStack(frames)] += v
		all += v
	}
	return all
}

// SpinOps names the CPU time of GoMLX's worker goroutines polling for a task before they park
// (compute-workers-spin.patch): CPU time spent while a processor would otherwise idle, not the step's work.
const SpinOps = "workers spinning (idle)"

// OpOfStack names the op of one sample's stack (function names, leaf first): see TopOps.
func OpOfStack(frames []string) string {
	for _, f := range frames {
		if strings.HasSuffix(f, "/workerspool.spinForTask") {
			return SpinOps
		}
	}
	for i, f := range frames {
		if strings.HasSuffix(f, ").executeNode") && i > 0 {
			return opName(frames[i-1])
		}
	}
	for _, f := range frames {
		switch {
		case strings.Contains(f, "/gobackend/dot"):
			return "DotGeneral"
		case strings.Contains(f, "/gobackend/fusedops."), strings.Contains(f, "/gobackend/ops."):
			return opName(f)
		}
	}
	return OtherOps
}

// opName turns an executor's function name into the op's: ".../gobackend/ops.execTransposeFast" ->
// "Transpose", ".../dot.execDotGeneral" -> "DotGeneral", ".../fusedops.execFusedSoftmax" -> "FusedSoftmax".
func opName(f string) string {
	if strings.Contains(f, "/gobackend/dot") {
		return "DotGeneral"
	}
	name := f[strings.LastIndex(f, "/")+1:]
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexAny(name, ".[("); i > 0 { // closures, generic instances, methods
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "exec")
	for _, suffix := range []string{"Fast", "Generic"} {
		name = strings.TrimSuffix(name, suffix)
	}
	if name == "" {
		return f
	}
	return name
}

// FormatTopOps formats the first n shares as "Op 41.2%, Op 30.1%, ..." and the rest as "others X%".
func FormatTopOps(shares []OpShare, n int) string {
	var parts []string
	rest := 0.0
	for i, s := range shares {
		if i < n {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", s.Op, 100*s.Share))
		} else {
			rest += s.Share
		}
	}
	if len(shares) > n {
		parts = append(parts, fmt.Sprintf("%d others %.1f%%", len(shares)-n, 100*rest))
	}
	return strings.Join(parts, ", ")
}
