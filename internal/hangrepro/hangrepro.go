// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package hangrepro is the minimal reproduction of the deadlock of GoMLX's pure-Go backend
// (github.com/gomlx/compute v0.1.2 to v0.1.6) when it executes a graph's nodes in parallel.
//
// The backend runs every graph node as a task of one bounded worker pool (2 × GOMAXPROCS slots), and a
// matrix multiplication inside a node fans out over the same pool with workerspool.Saturate, which waits
// for a free slot while its own node task keeps holding one. A graph with several independent matrix
// products fills every slot with node tasks that all wait in Saturate for a slot that none of them will
// free: the process hangs with the CPU idle. Run executes such a graph (Products independent Size × Size
// products) and reports whether it finished within a timeout.
//
// TestReproduce runs it on a configuration of one's choice (docs/upstream/hang-repro.md says how);
// TestUpstreamParallelExecutorHangs keeps it honest, and fails (telling us to drop the workaround in
// backend.SafeGoConfig) once upstream is fixed.
package hangrepro

import (
	"bytes"
	"fmt"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Config describes one reproduction run.
type Config struct {
	Products int           // independent matrix products in the graph: it hangs when their tasks hold every pool slot
	Size     int           // side of the square matrices, large enough that each product fans out (Saturate)
	Runs     int           // executions of the same graph: the hang depends on the scheduling, so one run may finish
	Timeout  time.Duration // a run that takes longer than this is reported as hung
}

// DefaultConfig is the reproduction TestReproduce runs: 20 executions of a graph of eight
// independent 200×200 products, each allowed 10 seconds.
func DefaultConfig() Config {
	return Config{Products: 8, Size: 200, Runs: 20, Timeout: 10 * time.Second}
}

// Result says what happened.
type Result struct {
	Hung      bool          // one execution did not finish within the timeout
	Completed int           // executions that finished
	Elapsed   time.Duration // time of the completed executions
	// Blocked counts, when an execution hung, the goroutines blocked in each function of the backend's
	// worker pool (for example "workerspool.(*Pool).Saturate": 4), read from a goroutine dump.
	Blocked map[string]int
}

// String summarizes the result in one line.
func (r Result) String() string {
	if !r.Hung {
		return fmt.Sprintf("finished: %d executions in %s", r.Completed, r.Elapsed.Round(time.Millisecond))
	}
	var parts []string
	for fn, n := range r.Blocked {
		parts = append(parts, fmt.Sprintf("%d in %s", n, fn))
	}
	sort.Strings(parts)
	return fmt.Sprintf("HUNG after %d completed executions; goroutines blocked: %s", r.Completed, strings.Join(parts, ", "))
}

var poolFrame = regexp.MustCompile(`workerspool\.\(\*Pool\)\.(\w+)`)

// blockedInPool reads a goroutine dump and counts the goroutines whose innermost pool frame is each
// method of workerspool.Pool.
func blockedInPool() map[string]int {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
	counts := map[string]int{}
	for _, g := range strings.Split(buf.String(), "\n\n") {
		if !strings.Contains(g, "sync.(*Cond).Wait") {
			continue
		}
		if m := poolFrame.FindStringSubmatch(g); m != nil {
			counts["workerspool.(*Pool)."+m[1]]++
		}
	}
	return counts
}

// Run builds the graph on backend and executes it cfg.Runs times, each under cfg.Timeout. A hung
// execution leaves its goroutines blocked forever (nothing can unblock them): run this in a process that
// exits afterwards.
func Run(backend compute.Backend, cfg Config) (Result, error) {
	if cfg.Products < 1 || cfg.Size < 1 || cfg.Runs < 1 || cfg.Timeout <= 0 {
		return Result{}, fmt.Errorf("hangrepro: invalid config %+v", cfg)
	}
	exec, err := graph.NewExec(backend, func(xs []*graph.Node) []*graph.Node {
		outs := make([]*graph.Node, len(xs))
		for i, x := range xs {
			// x·xᵀ: one matrix product per input, none depends on another.
			outs[i] = graph.MatMul(x, graph.Transpose(x, 0, 1))
		}
		return outs
	})
	if err != nil {
		return Result{}, err
	}
	inputs := make([]any, cfg.Products)
	for i := range inputs {
		t := tensors.FromShape(shapes.Make(dtypes.Float32, cfg.Size, cfg.Size))
		tensors.MustMutableFlatData[float32](t, func(f []float32) {
			for j := range f {
				f[j] = float32((j+i)%7) / 7
			}
		})
		inputs[i] = t
	}
	var res Result
	start := time.Now()
	for range cfg.Runs {
		done := make(chan error, 1)
		go func() {
			outs, err := exec.Exec(inputs...)
			for _, o := range outs {
				o.FinalizeAll()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				return res, err
			}
			res.Completed++
		case <-time.After(cfg.Timeout):
			res.Hung = true
			res.Elapsed = time.Since(start)
			res.Blocked = blockedInPool()
			return res, nil
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
