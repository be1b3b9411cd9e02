// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/internal/hangrepro"
)

// runHangRepro runs the minimal reproduction of the pure-Go backend's worker-pool deadlock
// (internal/hangrepro) on a backend configuration given exactly as GoMLX reads it: unlike NewBackend,
// "go" here is the upstream default, with node-level parallelism.
func runHangRepro(args []string) error {
	fs := newFlagSet("hang-repro", "latformer hang-repro [flags]",
		"Executes a graph of independent matrix products on a GoMLX backend configuration, exactly as given\n"+
			"(no ops_sequential added), and reports whether it hangs. Exit status 3 when it hangs.")
	def := hangrepro.DefaultConfig()
	cfg := fs.String("config", "go", `GoMLX backend configuration, e.g. "go" (upstream default), "go:ops_parallel", "go:ops_sequential"`)
	products := fs.Int("products", def.Products, "independent matrix products in the graph")
	size := fs.Int("size", def.Size, "side of the square matrices")
	runs := fs.Int("runs", def.Runs, "executions of the graph")
	timeout := fs.Duration("timeout", def.Timeout, "an execution taking longer than this counts as hung")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	backend, err := compute.NewWithConfig(*cfg)
	if err != nil {
		return err
	}
	c := hangrepro.Config{Products: *products, Size: *size, Runs: *runs, Timeout: *timeout}
	fmt.Printf("backend %q (%s): %d independent %dx%d matrix products, %d executions, timeout %s each\n",
		*cfg, backend.Description(), c.Products, c.Size, c.Size, c.Runs, c.Timeout)
	res, err := hangrepro.Run(backend, c)
	if err != nil {
		return err
	}
	fmt.Println(res)
	if res.Hung {
		os.Exit(3)
	}
	return nil
}
