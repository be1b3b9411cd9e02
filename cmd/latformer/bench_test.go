// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
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

// fakeReference is a reference script for /bin/sh speaking --serve's protocol: every step takes 1000 ms, and each
// request (and "ready") is appended to the file $FAKE_REF_LOG, tagged with the script's first argument after
// --canvas, so that the test sees which blocks ran in which order.
const fakeReference = `echo "config: fake reference $*"
tag="$1$2$(echo "$*" | grep -c -- --reference)"
echo "ready $tag" >> "$FAKE_REF_LOG"
echo ready
while read cmd n; do
  case "$cmd" in
  run) echo "run $n $tag" >> "$FAKE_REF_LOG"; t=""; i=0; while [ $i -lt $n ]; do t="$t${t:+,}1000"; i=$((i+1)); done; echo "times=$t";;
  *) exit 0;;
  esac
done`

// TestBenchInterleavesReferences runs `latformer bench` at canvas 4 against a fake reference (both scripts): our
// side and both references time 7 steps each in 5 blocks of 2, 2, 1, 1, 1 steps, interleaved (each reference gets
// its blocks in rounds, not all at once), and the ratio lines compare our median with the references' (1000 ms).
func TestBenchInterleavesReferences(t *testing.T) {
	dir := t.TempDir()
	script, log := dir+"/ref.sh", dir+"/requests.log"
	if err := os.WriteFile(script, []byte(fakeReference), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_REF_LOG", log)
	var runErr error
	out := captureStdout(t, func() {
		runErr = runBench([]string{"--canvas", "4", "--reference-canvas", "4", "--attention", "full", "--steps", "7", "--top-ops", "0",
			"--backends", "go", "--python", "/bin/sh", "--reference", script, "--factored-reference", script})
	})
	if runErr != nil {
		t.Fatalf("bench: %v\n%s", runErr, out)
	}
	requests, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(requests)), "\n")
	// The order rotates: in round r the first side is side r mod 3 (ours, full reference, factored reference).
	want := []string{"ready --canvas40", "ready --canvas41",
		"run 2 --canvas40", "run 2 --canvas41", // round 0: ours, full, factored
		"run 2 --canvas40", "run 2 --canvas41", // round 1: full, factored, ours
		"run 1 --canvas41", "run 1 --canvas40", // round 2: factored, ours, full
		"run 1 --canvas40", "run 1 --canvas41", // round 3: ours, full, factored
		"run 1 --canvas40", "run 1 --canvas41"} // round 4: full, factored, ours
	if !slices.Equal(lines, want) {
		t.Errorf("requests to the references:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	var ours, ratio float64
	for _, line := range strings.Split(out, "\n") {
		fmt.Sscanf(line, "bench stats canvas=4 attention=full steps=7 median_ms=%g", &ours)
		fmt.Sscanf(line, "bench ratio go/pytorch canvas=4 attention=full: %g", &ratio)
	}
	if !(ours > 0) || math.Abs(ratio-ours/1000) > 0.006 {
		t.Errorf("our median %v ms, ratio %v; want our median / 1000 ms\n%s", ours, ratio, out)
	}
	for _, want := range []string{"bench stats reference=pytorch canvas=4 steps=7 median_ms=1000.0 min_ms=1000.0",
		"bench stats reference=pytorch-factored canvas=4 steps=7 median_ms=1000.0", "reference (pytorch): config: fake reference"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// fakeImporter is the importer row's program for /bin/sh: every step takes 500 ms; its arguments go to
// $FAKE_REF_LOG.
const fakeImporter = `#!/bin/sh
echo "args $*" >> "$FAKE_REF_LOG"
echo "config: fake importer"
echo ready
while read cmd n; do
  case "$cmd" in
  run) t=""; i=0; while [ $i -lt $n ]; do t="$t${t:+,}500"; i=$((i+1)); done; echo "times=$t";;
  *) exit 0;;
  esac
done`

// TestBenchImporterRow runs `latformer bench` at canvas 4 with a fake importer (500 ms a step) and a fake
// reference (1000 ms): the importer gets the full step's configuration, its lines are printed, and the ratio
// importer/pytorch is 0.5 on the full step only.
func TestBenchImporterRow(t *testing.T) {
	dir := t.TempDir()
	ref, imp, log := dir+"/ref.sh", dir+"/importer.sh", dir+"/requests.log"
	if err := os.WriteFile(ref, []byte(fakeReference), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(imp, []byte(fakeImporter), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_REF_LOG", log)
	var runErr error
	out := captureStdout(t, func() {
		runErr = runBench([]string{"--canvas", "4", "--reference-canvas", "4", "--steps", "5", "--top-ops", "0", "--backends", "go",
			"--python", "/bin/sh", "--reference", ref, "--factored-reference", ref, "--importer", imp})
	})
	if runErr != nil {
		t.Fatalf("bench: %v\n%s", runErr, out)
	}
	requests, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(requests), "args --canvas 4 --batch 16 --d 32 --dff 128 --attention full --warmup 3 --serve") {
		t.Errorf("importer's arguments:\n%s", requests)
	}
	for _, want := range []string{"importer: config: fake importer", "bench importer canvas=4 attention=full batch=16 d=32 step_ms=500.0",
		"bench stats importer canvas=4 attention=full steps=5 median_ms=500.0", "bench ratio importer/pytorch canvas=4 attention=full: 0.50"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "importer/pytorch-factored") {
		t.Errorf("a factored ratio for the importer (it times the full step only):\n%s", out)
	}
	if err := runBench([]string{"--canvas", "4", "--steps", "1", "--top-ops", "0", "--importer", dir + "/missing"}); err == nil ||
		!strings.Contains(err.Error(), "--importer") {
		t.Errorf("a missing importer program: want an error naming --importer, got %v", err)
	}
}

// TestBenchDefaultBackend checks that --backends default times backend.DefaultGo (the configuration holds a
// comma, which the flag's list would split) and labels its ratios "go".
func TestBenchDefaultBackend(t *testing.T) {
	var runErr error
	out := captureStdout(t, func() {
		runErr = runBench([]string{"--canvas", "4", "--attention", "full", "--steps", "1", "--top-ops", "0", "--backends", "default"})
	})
	if runErr != nil {
		t.Fatalf("bench: %v\n%s", runErr, out)
	}
	if want := "bench canvas=4 attention=full batch=16 d=32 step_ms="; !strings.Contains(out, want) ||
		!strings.Contains(out, "backend=go:ops_parallel,parallelism=-1\n") {
		t.Errorf("--backends default: want a line %q... backend=go:ops_parallel,parallelism=-1:\n%s", want, out)
	}
}
