// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/larc"
)

// TestLARCCommand runs `latformer larc --quick` with the tiny T5 checkpoint of package t5 on the
// real LARC summary (skipped without $LATFORMER_DATA/larc; make test sets $LATFORMER_DATA): one task, both conditions, the T5 encoder named on
// the nl row, the embedding cache filled once and reused by a second run.
func TestLARCCommand(t *testing.T) {
	data := os.Getenv(datasets.EnvDataDir)
	if _, err := os.Stat(filepath.Join(data, "larc")); data == "" || err != nil {
		t.Skipf("no $%s/larc", datasets.EnvDataDir)
	}
	out := filepath.Join(t.TempDir(), "larc.csv")
	cache := t.TempDir()
	args := []string{"--quick", "--limit", "1", "--data", data, "--t5", filepath.Join("..", "..", "t5", "testdata", "tiny"), "--cache", cache, "--out", out, "--quiet"}
	if err := runLARC(args); err != nil {
		t.Fatal(err)
	}
	rows, err := larc.ReadResults(out)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v; want 2", len(rows), err)
	}
	for _, r := range rows {
		if (r.Condition == larc.ConditionNL) != (r.Encoder == "t5:tiny") {
			t.Errorf("row %+v: the nl row must name the T5 encoder, the io row none", r)
		}
	}
	files, _ := filepath.Glob(filepath.Join(cache, "t5_tiny-*.json"))
	if len(files) != 1 {
		t.Errorf("cache files %v, want one for the checkpoint", files)
	}
	if err := runLARC(append(args, "--resume")); err != nil {
		t.Fatal(err)
	}
}

// TestLARCFlags checks that bad flags are errors before any work.
func TestLARCFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--conditions", "io,text"}, "condition"},
		{[]string{"--t5", "/nonexistent", "--data", t.TempDir()}, "config.json"},
		{[]string{"--resume", "--force", "--conditions", "io"}, "contradict"},
	} {
		if err := runLARC(append(tc.args, "--quiet")); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error with %q", tc.args, err, tc.want)
		}
	}
}
