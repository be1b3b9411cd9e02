// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latformer/latformer/experiments/synthetic"
)

// TestSyntheticCommands runs `latformer noise` and `latformer sample-efficiency` on tiny settings with
// random grids: one CSV row per training run, the figure written, and bad flags reported as usage errors.
func TestSyntheticCommands(t *testing.T) {
	dir := t.TempDir()
	noise := filepath.Join(dir, "noise.csv")
	if err := runNoise([]string{"--random-grids", "--families", "rotation", "--tasks", "1", "--sizes", "4", "--noise", " 0, 0.5,",
		"--canvas", "5", "--steps", "20", "--test", "5", "--out", noise, "--quiet"}); err != nil {
		t.Fatal(err)
	}
	rows, err := synthetic.ReadResults(noise)
	if err != nil || len(rows) != 2 || rows[0].Experiment != synthetic.Noise || rows[1].Noise != 0.5 {
		t.Errorf("noise CSV: %+v, %v; want 2 rows of the noise experiment, w = 0 and 0.5", rows, err)
	}
	se := filepath.Join(dir, "se.csv")
	svg := filepath.Join(dir, "se.svg")
	if err := runSampleEfficiency([]string{"--random-grids", "--families", "reflection", "--tasks", "1", "--sizes", "1,2",
		"--models", "latformer,attention_rel", "--canvas", "5", "--steps", "10", "--test", "5", "--out", se, "--svg", svg, "--quiet"}); err != nil {
		t.Fatal(err)
	}
	if rows, err := synthetic.ReadResults(se); err != nil || len(rows) != 4 {
		t.Errorf("sample-efficiency CSV: %d rows, %v; want 4 (2 models x 2 sizes)", len(rows), err)
	}
	if data, err := os.ReadFile(svg); err != nil || !strings.Contains(string(data), "<polyline") {
		t.Errorf("figure: %v; want an SVG with lines", err)
	}
	// latformer_search run apart into the same file: the figure then draws the file's three series.
	if err := runSampleEfficiency([]string{"--random-grids", "--families", "reflection", "--tasks", "1", "--sizes", "1",
		"--models", synthetic.ModelLatFormerSearch, "--canvas", "5", "--steps", "10", "--test", "5", "--out", se, "--svg", svg, "--resume", "--quiet"}); err != nil {
		t.Fatal(err)
	}
	if rows, err := synthetic.ReadResults(se); err != nil || len(rows) != 5 || rows[4].Model != synthetic.ModelLatFormerSearch {
		t.Errorf("sample-efficiency CSV after the latformer_search run: %d rows, %v; want 5, the last of latformer_search", len(rows), err)
	}
	if data, err := os.ReadFile(svg); err != nil || strings.Count(string(data), "<polyline") != 3 || !strings.Contains(string(data), ">latformer_search<") {
		t.Errorf("figure of the resumed file: %v; want the lines of latformer, attention_rel and latformer_search", err)
	}
	for _, bad := range [][]string{{"--sizes", "1,x"}, {"--noise", "two"}} {
		err := runSampleEfficiency(append(bad, "--random-grids", "--out", filepath.Join(dir, "bad.csv")))
		if _, ok := err.(usageError); !ok {
			t.Errorf("%v: got %v, want a usage error", bad, err)
		}
	}
	if err := runSampleEfficiency([]string{"--random-grids", "--models", "gpt", "--out", filepath.Join(dir, "bad.csv")}); err == nil || !strings.Contains(err.Error(), "gpt") {
		t.Errorf("unknown model: got %v, want an error naming it", err)
	}
}

// TestSyntheticShards runs a tiny `latformer noise` as shards 0/2 and 1/2, which split its rows, and with
// --devices on 2 devices (2 child processes, merged into --out, which the command then resumes): every
// row once.
func TestSyntheticShards(t *testing.T) {
	dir := t.TempDir()
	args := func(extra ...string) []string {
		return append([]string{"--random-grids", "--families", "rotation", "--tasks", "1", "--sizes", "4",
			"--noise", "0,0.1,0.2,0.3,0.4", "--canvas", "5", "--steps", "10", "--test", "5", "--quiet"}, extra...)
	}
	total := 0
	for _, s := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "shard"+s[:1]+".csv")
		if err := runNoise(args("--shard", s, "--out", out)); err != nil {
			t.Fatal(err)
		}
		rows, err := synthetic.ReadResults(out)
		if err != nil || len(rows) == 0 || len(rows) == 5 {
			t.Errorf("shard %s: %d of the 5 rows, %v", s, len(rows), err)
		}
		total += len(rows)
	}
	if total != 5 {
		t.Errorf("the shards hold %d rows, want 5", total)
	}
	t.Setenv("LATFORMER_TEST_AS_CLI", "1")
	devices := filepath.Join(dir, "devices.csv")
	if err := runNoise(args("--devices", "a,b", "--out", devices)); err != nil {
		t.Fatal(err)
	}
	if rows, err := synthetic.ReadResults(devices); err != nil || len(rows) != 5 {
		t.Errorf("--devices a,b: %d rows, %v; want 5", len(rows), err)
	}
}
