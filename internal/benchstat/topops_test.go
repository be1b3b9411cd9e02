// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"bytes"
	"math"
	"testing"

	"github.com/google/pprof/profile"
)

// TestTopOps builds a CPU profile with known samples and checks each op's CPU time and share: a sample under
// executeNode counts for the executor it called (generic instances, closures and the exec/Fast prefixes
// and suffixes stripped), a worker goroutine's sample for its kernel's package, one polling for a task as
// spinning, the rest as other.
func TestTopOps(t *testing.T) {
	const gb = "github.com/gomlx/compute/internal/gobackend"
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
	}
	var id uint64
	loc := func(names ...string) *profile.Location { // one location, names innermost first (inlined frames)
		id++
		l := &profile.Location{ID: id}
		for _, n := range names {
			id++
			f := &profile.Function{ID: id, Name: n}
			p.Function = append(p.Function, f)
			l.Line = append(l.Line, profile.Line{Function: f})
		}
		p.Location = append(p.Location, l)
		return l
	}
	add := func(ms int64, locs ...*profile.Location) {
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{ms / 10, ms * 1_000_000}})
	}
	exec := loc(gb + ".(*FunctionExecutable).executeNode")
	add(50, loc(gb+"/ops.stridedCopyFrom[go.shape.uint32]"), loc(gb+"/ops.execTransposeFast"), exec)
	add(30, loc(gb+"/ops.execMulNumericGeneric[go.shape.float32]", gb+"/ops.execMul"), exec)
	add(20, loc(gb+"/ops.execMulFast"), exec)
	add(100, loc(gb+"/dot/matmul.avx2LargeKernelFloat32"), loc(gb+"/dot/matmul.avx2LargeFloat32.func2"), loc(gb+"/workerspool.(*Pool).lockedRunTaskInGoroutine.func1"))
	add(40, loc(gb+"/dot.execDotGeneral"), exec)
	add(60, loc(gb+"/fusedops.softmaxRowsAVX2"), loc(gb+"/fusedops.execFusedSoftmax"), exec)
	add(20, loc("runtime.mallocgc"), loc("runtime.gcBgMarkWorker"))
	add(30, loc("runtime.Gosched"), loc(gb+"/workerspool.spinForTask"), loc(gb+"/workerspool.worker"))
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	shares, err := TopOps(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := []OpShare{{"DotGeneral", 140e6, 140.0 / 350}, {"FusedSoftmax", 60e6, 60.0 / 350}, {"Mul", 50e6, 50.0 / 350},
		{"Transpose", 50e6, 50.0 / 350}, {SpinOps, 30e6, 30.0 / 350}, {OtherOps, 20e6, 20.0 / 350}}
	if len(shares) != len(want) {
		t.Fatalf("got %d ops %+v, want %d %+v", len(shares), shares, len(want), want)
	}
	for i := range want {
		if shares[i].Op != want[i].Op || shares[i].Nanos != want[i].Nanos || math.Abs(shares[i].Share-want[i].Share) > 1e-9 {
			t.Errorf("op %d: got %+v, want %+v", i, shares[i], want[i])
		}
	}
	if got, want := FormatTopOps(shares, 2), "DotGeneral 40.0%, FusedSoftmax 17.1%, 4 others 42.9%"; got != want {
		t.Errorf("FormatTopOps: %q, want %q", got, want)
	}
	// Two profiles (blocks of the same steps) count together: every time doubled, the same shares.
	shares, err = TopOps(buf.Bytes(), buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if shares[i].Op != want[i].Op || shares[i].Nanos != 2*want[i].Nanos || math.Abs(shares[i].Share-want[i].Share) > 1e-9 {
			t.Errorf("two profiles, op %d: got %+v, want %+v with twice the time", i, shares[i], want[i])
		}
	}
}
