// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package hangrepro_test

import (
	"sync"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/internal/hangrepro"
	"github.com/latformer/latformer/latformer"
)

// TestDefaultBackendNeverHangs runs the reproduction on the backend that latformer.NewBackend gives
// (the pure-Go backend with sequential node scheduling), from four goroutines sharing that backend at
// once: every execution must finish.
func TestDefaultBackendNeverHangs(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "")
	backend, err := latformer.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	cfg := hangrepro.DefaultConfig()
	cfg.Runs = 25
	cfg.Timeout = 60 * time.Second // generous: a hang is forever, a slow CI machine is not
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			res, err := hangrepro.Run(backend, cfg)
			if err != nil {
				t.Errorf("goroutine %d: %v", g, err)
			} else if res.Hung || res.Completed != cfg.Runs {
				t.Errorf("goroutine %d on %s: %v", g, latformer.BackendConfig(), res)
			}
		})
	}
	wg.Wait()
}

// TestUpstreamParallelExecutorHangs keeps the reproduction honest: on the upstream default ("go", node
// tasks in parallel) the graph hangs, with goroutines blocked in the pool's Saturate. When this test
// fails because nothing hung, upstream has fixed the pool: drop SafeGoConfig's "ops_sequential" (after
// measuring) and this test. The hung goroutines stay blocked until the test binary exits; they hold no
// lock that other tests use (each backend has its own pool).
func TestUpstreamParallelExecutorHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a hang (-short)")
	}
	hung := 0
	var last hangrepro.Result
	for attempt := range 3 {
		backend, err := compute.NewWithConfig("go") // exactly the upstream default, not latformer.NewBackend
		if err != nil {
			t.Fatal(err)
		}
		cfg := hangrepro.DefaultConfig()
		cfg.Runs = 100
		cfg.Timeout = 5 * time.Second
		res, err := hangrepro.Run(backend, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("attempt %d: %v", attempt, res)
		last = res
		if res.Hung {
			hung++
			if res.Blocked["workerspool.(*Pool).Saturate"] == 0 {
				t.Errorf("hung, but no goroutine waits in workerspool.(*Pool).Saturate: %v", res)
			}
			break
		}
	}
	if hung == 0 {
		t.Errorf("the upstream parallel executor did not hang in 3 × 100 executions (%v): if compute was upgraded "+
			"and fixes the pool, drop the ops_sequential workaround in latformer.SafeGoConfig and this test", last)
	}
}
