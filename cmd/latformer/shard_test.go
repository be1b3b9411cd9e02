// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/experiments/arc"
)

// TestMain lets the test binary stand for latformer when --devices runs it again as a child process.
func TestMain(m *testing.M) {
	if os.Getenv("LATFORMER_TEST_AS_CLI") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// arcRows returns the rows of an arc results file without their wall times, sorted.
func arcRows(t *testing.T, path string) []string {
	t.Helper()
	rows, err := arc.ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		r.Seconds, r.Compile = 0, 0
		out = append(out, strings.Join(r.Record(), ","))
	}
	slices.Sort(out)
	return out
}

// TestShardsEqualUnsharded: a quick `latformer arc` on 5 tasks, unsharded, as 3 shards merged by
// `latformer merge`, and with --devices on 3 devices (3 child processes), gives the same rows; a shard of
// other settings is refused by merge, naming it.
func TestShardsEqualUnsharded(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "arc", "training")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ids := []string{"aaaa0001", "aaaa0002", "aaaa0003", "aaaa0004", "aaaa0005"}
	for i, id := range ids {
		writeTask(t, dir, id, i)
	}
	out := t.TempDir()
	args := func(extra ...string) []string {
		return append([]string{"--data", data, "--tasks", strings.Join(ids, ","), "--steps", "20", "--quiet", "--set", "augment_copies=2;train_restarts=1"}, extra...)
	}
	full := filepath.Join(out, "full.csv")
	if err := runARC(args("--out", full)); err != nil {
		t.Fatal(err)
	}
	want := arcRows(t, full)
	if len(want) != len(ids) {
		t.Fatalf("unsharded: %d rows, want %d", len(want), len(ids))
	}
	var shards []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		p := filepath.Join(out, "shard"+s[:1]+".csv")
		if err := runARC(args("--shard", s, "--out", p)); err != nil {
			t.Fatal(err)
		}
		if n := len(arcRows(t, p)); n == 0 || n == len(ids) {
			t.Errorf("shard %s has %d of the %d rows", s, n, len(ids))
		}
		shards = append(shards, p)
	}
	merged := filepath.Join(out, "merged.csv")
	if err := runMerge(append([]string{merged}, shards...)); err != nil {
		t.Fatal(err)
	}
	if got := arcRows(t, merged); !slices.Equal(got, want) {
		t.Errorf("3 shards merged:\n%s\nunsharded:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A shard of other settings (--steps 21) is refused.
	other := filepath.Join(out, "other.csv")
	if err := runARC(args("--shard", "1/3", "--out", other, "--steps", "21")); err != nil {
		t.Fatal(err)
	}
	err := runMerge([]string{filepath.Join(out, "bad.csv"), shards[0], other, shards[2]})
	if err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), `"steps=20" vs "steps=21"`) {
		t.Errorf("merging a shard of other settings: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "bad.csv")); err == nil {
		t.Error("a refused merge wrote its output")
	}
	// --devices: 3 processes (this test binary as latformer), merged into --out.
	t.Setenv("LATFORMER_TEST_AS_CLI", "1")
	devices := filepath.Join(out, "devices.csv")
	if err := runARC(args("--devices", "a,b,c", "--out", devices)); err != nil {
		t.Fatal(err)
	}
	if got := arcRows(t, devices); !slices.Equal(got, want) {
		t.Errorf("--devices a,b,c:\n%s\nunsharded:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
