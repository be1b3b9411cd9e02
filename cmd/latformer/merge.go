// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"strings"

	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/internal/runmeta"
)

// runMerge is `latformer merge OUT SHARD.csv...`.
func runMerge(args []string) error {
	fs := newFlagSet("merge", "latformer merge [flags] OUT.csv SHARD.csv...",
		"Joins the results files of the shards of one run (written with --shard I/N, each with its run file\n"+
			"SHARD.csv.run.jsonl) into OUT.csv, one row per unit in the run's order, which the tables, figures and\n"+
			"notebooks read as the file of an unsharded run. Refuses, writing nothing: "+
			"files of different runs (command,\n"+
			"settings, code version, data fingerprint), "+
			"a unit with two different results (wall times aside), and units\n"+
			"without a row (listed with their shard) unless --allow-missing. "+
			"OUT.csv is written atomically, with a run\n"+
			"file of its own, so `--shard 0/1 --resume` continues it.")
	force := fs.Bool("force", false, "replace OUT.csv if it exists")
	allowMissing := fs.Bool("allow-missing", false, "write OUT.csv even if some units have no row (they are listed)")
	flags, files := splitFileArgs(args)
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	if len(files) < 2 {
		return usageError{fmt.Errorf("want OUT.csv and at least one shard file, got %q", files), fs}
	}
	m, err := runner.Merge(files[0], files[1:], *force, *allowMissing)
	if err != nil {
		return err
	}
	h := m.Header
	fmt.Printf("run: %s, %s; code %s; data %s\n", h.Command, runmeta.JoinSettings(h.Settings), h.Code, h.Data)
	fmt.Printf("merged %d files: %d rows of %d units", m.Files, m.Rows, len(h.Units))
	if m.Duplicates > 0 {
		fmt.Printf(", %d units found twice with the same results", m.Duplicates)
	}
	if m.Outside > 0 {
		fmt.Printf(", %d rows of units outside the run left out", m.Outside)
	}
	fmt.Printf("; written to %s\n", files[0])
	for _, u := range m.Missing {
		fmt.Printf("missing: %s (shard %d)\n", u.Key, u.Shard)
	}
	return nil
}

// splitFileArgs separates the flags of a command that takes files (merge, compare) from its files: the
// flags may come before or after the files.
func splitFileArgs(args []string) (flags, files []string) {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
		} else {
			files = append(files, a)
		}
	}
	return flags, files
}
