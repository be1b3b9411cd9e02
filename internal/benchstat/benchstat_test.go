// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMedian checks the median of odd and even counts (the mean of the two middle values, as Python's
// statistics.median), that the input is left unsorted, and NaN for no values.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{300, 210, 220, 205, 310, 305}, 260},
	} {
		in := slices.Clone(c.xs)
		if got := Median(in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
		if !slices.Equal(in, c.xs) {
			t.Errorf("median modified its input: %v became %v", c.xs, in)
		}
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("median(nil) = %v, want NaN", got)
	}
}

// TestSummarize checks that the statistics of a timing are its count, median and minimum, and that the
// minimum is the fastest step wherever it is.
func TestSummarize(t *testing.T) {
	st := Summarize([]float64{320, 301, 216, 315, 299}, 0.02)
	want := StepStats{Steps: 5, MedianMs: 301, MinMs: 216, OtherCores: 0.02}
	if st != want {
		t.Errorf("summarize = %+v, want %+v", st, want)
	}
	if got := st.String(); got != "steps=5 median_ms=301.0 min_ms=216.0 other_cores=0.02" {
		t.Errorf("String() = %q", got)
	}
	if got := Summarize([]float64{5}, UnknownCores).String(); !strings.HasSuffix(got, "other_cores=unknown") {
		t.Errorf("String() with unknown contention = %q, want other_cores=unknown", got)
	}
}

// TestRatio checks a / b, and NaN rather than a number when the denominator is not a positive time.
func TestRatio(t *testing.T) {
	if got := Ratio(351.9, 314.7); math.Abs(got-1.1182) > 1e-4 {
		t.Errorf("ratio(351.9, 314.7) = %v, want 1.1182", got)
	}
	if got := Ratio(101.2, 224.1); math.Abs(got-0.4516) > 1e-4 {
		t.Errorf("ratio(101.2, 224.1) = %v, want 0.4516", got)
	}
	for _, b := range []float64{0, -1, math.NaN()} {
		if got := Ratio(1, b); !math.IsNaN(got) {
			t.Errorf("ratio(1, %v) = %v, want NaN", b, got)
		}
	}
}

// TestContentionVerdict checks the threshold: up to 0.1 core of other processes is clean, above it the
// verdict says contended with the measured cores, and an unmeasured timing is not called clean.
func TestContentionVerdict(t *testing.T) {
	for _, c := range []float64{0, 0.05, 0.1} {
		if got := ContentionVerdict(c); got != VerdictClean {
			t.Errorf("contentionVerdict(%v) = %q, want clean", c, got)
		}
	}
	for _, c := range []float64{0.11, 0.93, 1.5} {
		got := ContentionVerdict(c)
		if !strings.HasPrefix(got, "contended:") || !strings.Contains(got, fmt.Sprintf("%.2f cores", c)) {
			t.Errorf("contentionVerdict(%v) = %q, want \"contended:\" and the cores", c, got)
		}
	}
	if got := ContentionVerdict(UnknownCores); got == VerdictClean || !strings.Contains(got, "not measured") {
		t.Errorf("contentionVerdict(NaN) = %q, want a not-measured warning", got)
	}
}

// TestParseProcStatBusy checks that busy time is every field of the "cpu" line but idle, iowait, guest and
// guest_nice, and that another line is refused.
func TestParseProcStatBusy(t *testing.T) {
	// user nice system idle iowait irq softirq steal guest guest_nice
	busy, err := parseProcStatBusy("cpu  100 5 50 1000 20 3 2 7 4 1")
	if err != nil || busy != 100+5+50+3+2+7 {
		t.Errorf("busy = %d, %v; want 167", busy, err)
	}
	if _, err := parseProcStatBusy("intr 1 2 3 4 5"); err == nil {
		t.Error("the intr line was accepted as the cpu line")
	}
	if _, err := parseProcStatBusy("cpu  1 2 x 4 5"); err == nil {
		t.Error("a non-numeric field was accepted")
	}
}

// TestParseSelfStatTicks checks that utime + stime (fields 14 and 15) are read after a command name with
// spaces and parentheses.
func TestParseSelfStatTicks(t *testing.T) {
	line := "1234 (lat (former) x) R 4 5 6 7 8 9 10 11 12 13 111 222 16 17 18\n"
	if got, err := parseSelfStatTicks(line); err != nil || got != 333 {
		t.Errorf("parseSelfStatTicks = %d, %v; want 333", got, err)
	}
	if _, err := parseSelfStatTicks("1234 (x) R 4 5"); err == nil {
		t.Error("a short line was accepted")
	}
}

// TestOtherCores checks the cores of other processes: the machine's busy ticks minus ours over the wall
// time (300 busy ticks, 150 ours, in 1 s at 100 ticks/s: 1.5 cores), never below 0.
func TestOtherCores(t *testing.T) {
	t0 := time.Unix(1000, 0)
	before := CPUSample{busy: 1000, self: 100, wall: t0}
	if got := OtherCoresBetween(before, CPUSample{busy: 1300, self: 250, wall: t0.Add(time.Second)}); math.Abs(got-1.5) > 1e-9 {
		t.Errorf("otherCores = %v, want 1.5", got)
	}
	if got := OtherCoresBetween(before, CPUSample{busy: 1100, self: 300, wall: t0.Add(2 * time.Second)}); got != 0 {
		t.Errorf("otherCores with our ticks above the machine's = %v, want 0", got)
	}
	if got := OtherCoresBetween(before, before); !math.IsNaN(got) {
		t.Errorf("otherCores over no time = %v, want NaN", got)
	}
}

// TestParseCPUInfo checks the model name and flags of the first processor and the processor count.
func TestParseCPUInfo(t *testing.T) {
	text := "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n" +
		"flags\t\t: fpu sse2 avx2 fma avx512f avx512bw\n\nprocessor\t: 1\nmodel name\t: other\nflags\t\t: fpu\n"
	h := ParseCPUInfo(text)
	if h.Model != "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" || h.CPUs != 2 {
		t.Errorf("model %q, cpus %d; want the Xeon and 2", h.Model, h.CPUs)
	}
	for f, want := range map[string]bool{"avx2": true, "fma": true, "avx512f": true, "avx512dq": false} {
		if h.Flags[f] != want {
			t.Errorf("flag %s = %v, want %v", f, h.Flags[f], want)
		}
	}
	if h := ParseCPUInfo(""); !strings.HasPrefix(h.Model, "unknown") || h.CPUs != 0 {
		t.Errorf("empty cpuinfo: %+v", h)
	}
}

// fakeEnv returns a getenv for the given key, value pairs.
func fakeEnv(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

// cpuAVX512 are the CPU flags of a machine with every AVX-512 subset the kernels ask for.
var cpuAVX512 = map[string]bool{"avx2": true, "avx512f": true, "avx512cd": true, "avx512bw": true, "avx512dq": true, "avx512vl": true}

// TestSimdPath checks which matmul kernels the Go backend is reported to use for each build, CPU and
// environment.
func TestSimdPath(t *testing.T) {
	avx512, env := cpuAVX512, fakeEnv
	avx2 := map[string]bool{"avx2": true, "avx512f": true} // AVX-512 F alone is not enough
	for _, c := range []struct {
		arch, exp string
		flags     map[string]bool
		env       func(string) string
		want      string
	}{
		{"amd64", "simd", avx512, env(), "simd:avx512"},
		{"amd64", "simd", avx2, env(), "simd:avx2 (the CPU lacks"},
		{"amd64", "simd", avx512, env("GOMLX_GO_SIMD_AVX512", "false"), "simd:avx2 ($GOMLX_GO_SIMD_AVX512"},
		{"amd64", "simd", avx512, env("GOMLX_GO_SIMD_AVX512", "off", "GOMLX_GO_SIMD_AVX2", "0"), "portable Go (no AVX2"},
		{"amd64", "simd", map[string]bool{}, env(), "portable Go (no AVX2"},
		{"amd64", "", avx512, env(), "portable Go (built without"},
		{"amd64", "simd,nosimd", avx512, env(), "portable Go (built without"},
		{"amd64", "nosimd,simd", avx512, env(), "simd:avx512"},
		{"arm64", "simd", avx512, env(), "portable Go (the SIMD kernels are amd64 only)"},
		{"amd64", "simd", avx512, env("GOMLX_GO_DOT_MATMUL", "no"), "generic DotGeneral"},
		{"amd64", "simd", avx512, env("GODEBUG", "cpu.avx512f=off"), "simd:avx2 ($GODEBUG turns AVX-512 off)"},
		{"amd64", "simd", avx512, env("GODEBUG", "madvdontneed=1,cpu.avx512vl=off"), "simd:avx2 ($GODEBUG"},
		{"amd64", "simd", avx512, env("GODEBUG", "cpu.avx512=off"), "simd:avx512"}, // not a Go option: ignored
		{"amd64", "simd", avx512, env("GODEBUG", "cpu.avx512f=on"), "simd:avx512"},
		{"amd64", "simd", avx512, env("GODEBUG", "cpu.all=off"), "portable Go (no AVX2, or $GOMLX_GO_SIMD_AVX2 or $GODEBUG"},
	} {
		if got := SIMDPath(c.arch, c.exp, c.flags, c.env); !strings.HasPrefix(got, c.want) {
			t.Errorf("simdPath(%s, %q, %v) = %q, want %q...", c.arch, c.exp, c.flags, got, c.want)
		}
	}
}

// TestApplyGODEBUG checks the CPU flags Go's runtime keeps under $GODEBUG and the cpu.* names it does not know.
func TestApplyGODEBUG(t *testing.T) {
	cpu := map[string]bool{"avx2": true, "avx512f": true, "fma": true, "sse4_1": true}
	got, unknown := ApplyGODEBUG(cpu, "cpu.avx512=off,cpu.avx512f=off,gctrace=1,cpu.fma=on,cpu.avx2")
	if got["avx512f"] || !got["avx2"] || !got["fma"] || !got["sse4_1"] || len(unknown) != 1 || unknown[0] != "avx512" {
		t.Errorf("applyGODEBUG: flags %v, unknown %v; want avx512f removed, avx2, fma, sse4_1 kept, unknown [avx512]", got, unknown)
	}
	if !cpu["avx512f"] {
		t.Errorf("applyGODEBUG changed its input")
	}
	if got, _ := ApplyGODEBUG(cpu, "cpu.all=off"); got["avx2"] || got["fma"] || !got["sse4_1"] {
		t.Errorf("cpu.all=off: %v, want every Go option removed (sse4_1 is a cpuinfo name, not one)", got)
	}
}
