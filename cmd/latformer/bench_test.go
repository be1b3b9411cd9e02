// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/benchstat"
)

// TestBenchFlagErrors checks the bench's own flag checks (before any timing).
func TestBenchFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--warmup", "0"}, "--warmup must be at least 1"},
		{[]string{"--reference-canvas", "31"}, "31 is not a side"},
		{[]string{"--attention", "full,sparse"}, `"sparse" is neither`},
		{[]string{"--torch", ".venv-bench/bin/python"}, "is not label=interpreter"},
		{[]string{"--torch", "my torch=/usr/bin/python3"}, "is not label=interpreter"},
		{[]string{"--torch", "a=/usr/bin/python3;a=/x/python --compile"}, `label "a" given twice`},
	} {
		if err := runBench(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want an error containing %q, got %v", c.args, c.want, err)
		}
	}
}

// TestTorchRows checks the parsing of --torch: labels, interpreters and extra arguments in order, and the
// single "pytorch" row with --python when --torch is empty.
func TestTorchRows(t *testing.T) {
	o := benchOptions{pyExe: "/usr/bin/python3",
		torches: " pytorch2=.venv-bench/bin/python ; pytorch2-compile=.venv-bench/bin/python --compile;pytorch1.13=/usr/bin/python3;"}
	rows, err := o.torchRows()
	if err != nil {
		t.Fatal(err)
	}
	want := []torchRow{{"pytorch2", ".venv-bench/bin/python", nil}, {"pytorch2-compile", ".venv-bench/bin/python", []string{"--compile"}},
		{"pytorch1.13", "/usr/bin/python3", nil}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows %+v, want %d", len(rows), rows, len(want))
	}
	for i := range want {
		if rows[i].label != want[i].label || rows[i].python != want[i].python || !slices.Equal(rows[i].args, want[i].args) {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	o.torches = ""
	if rows, err := o.torchRows(); err != nil || len(rows) != 1 || rows[0].label != "pytorch" || rows[0].python != "/usr/bin/python3" {
		t.Errorf("no --torch: %+v, %v; want one row pytorch with --python", rows, err)
	}
}

// TestThisBuildUsesComputeFork: the tests (like the CLI) build against the patched copy of compute.
func TestThisBuildUsesComputeFork(t *testing.T) {
	if got := benchstat.ComputeReplacement(); got != benchstat.ComputeFork {
		t.Errorf("github.com/gomlx/compute is replaced by %q in this build, want %q (go.mod's replace)", got, benchstat.ComputeFork)
	}
}
