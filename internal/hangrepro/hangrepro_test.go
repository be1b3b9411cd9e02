// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package hangrepro_test

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/internal/hangrepro"
)

// TestDefaultBackendNeverHangs runs the reproduction on the backend that backend.New gives (the pure-Go
// backend with graph nodes in parallel, without pool slots: backend.DefaultGo), from four goroutines
// sharing that backend at once: every execution must finish.
func TestDefaultBackendNeverHangs(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "")
	b, err := backend.New()
	if err != nil {
		t.Fatal(err)
	}
	cfg := hangrepro.DefaultConfig()
	cfg.Runs = 25
	cfg.Timeout = 60 * time.Second // generous: a hang is forever, a slow CI machine is not
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			res, err := hangrepro.Run(b, cfg)
			if err != nil {
				t.Errorf("goroutine %d: %v", g, err)
			} else if res.Hung || res.Completed != cfg.Runs {
				t.Errorf("goroutine %d on %s: %v", g, backend.Config(), res)
			}
		})
	}
	wg.Wait()
}

// TestUpstreamParallelExecutorHangs keeps the reproduction honest: on the upstream default ("go", node
// tasks in parallel) the graph hangs, with goroutines blocked in the pool's Saturate. When this test
// fails because nothing hung, upstream has fixed the pool: drop backend.SafeGoConfig's workaround (after
// measuring) and this test. The hung goroutines stay blocked until the test binary exits; they hold no
// lock that other tests use (each backend has its own pool).
func TestUpstreamParallelExecutorHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a hang (-short)")
	}
	hung := 0
	var last hangrepro.Result
	for attempt := range 3 {
		b, err := compute.NewWithConfig("go") // exactly the upstream default, not backend.New
		if err != nil {
			t.Fatal(err)
		}
		cfg := hangrepro.DefaultConfig()
		cfg.Runs = 100
		cfg.Timeout = 5 * time.Second
		res, err := hangrepro.Run(b, cfg)
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
			"and fixes the pool, drop the workaround in backend.SafeGoConfig (and DefaultGo's parallelism=-1) and this test", last)
	}
}

// TestReproduce is the reproduction to run by hand, on the GoMLX backend configuration in
// $HANGREPRO_CONFIG taken exactly as GoMLX reads it (no workaround added: "go" is the upstream default,
// with node-level parallelism); skipped when that is not set. It logs what happened and fails when an
// execution hung. $HANGREPRO_PRODUCTS, $HANGREPRO_SIZE, $HANGREPRO_RUNS and $HANGREPRO_TIMEOUT change
// DefaultConfig. docs/upstream/hang-repro.md shows the commands and their output.
func TestReproduce(t *testing.T) {
	cfgText := os.Getenv("HANGREPRO_CONFIG")
	if cfgText == "" {
		t.Skip("set HANGREPRO_CONFIG to a GoMLX backend configuration, e.g. go (docs/upstream/hang-repro.md)")
	}
	cfg := hangrepro.DefaultConfig()
	for name, p := range map[string]*int{"HANGREPRO_PRODUCTS": &cfg.Products, "HANGREPRO_SIZE": &cfg.Size, "HANGREPRO_RUNS": &cfg.Runs} {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				t.Fatalf("$%s=%q: want a positive whole number", name, v)
			}
			*p = n
		}
	}
	if v := os.Getenv("HANGREPRO_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("$HANGREPRO_TIMEOUT=%q: %v", v, err)
		}
		cfg.Timeout = d
	}
	b, err := compute.NewWithConfig(cfgText)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("backend %q (%s): %d independent %dx%d matrix products, %d executions, timeout %s each",
		cfgText, b.Description(), cfg.Products, cfg.Size, cfg.Size, cfg.Runs, cfg.Timeout)
	res, err := hangrepro.Run(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if res.Hung {
		t.Errorf("%q hung: %v", cfgText, res)
	}
}
