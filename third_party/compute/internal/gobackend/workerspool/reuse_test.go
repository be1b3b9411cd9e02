// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package workerspool

import (
	"sync"
	"testing"
	"time"
)

// TestSpawnReusesGoroutines: tasks started one after another, each after the previous one finished, run on
// the same few goroutines instead of a new one each.
func TestSpawnReusesGoroutines(t *testing.T) {
	pool := New()
	pool.SetMaxParallelism(-1)
	const tasks = 500
	before := numStarted.Load()
	for range tasks {
		done := make(chan struct{})
		pool.WaitToStart(func() { close(done) })
		<-done
		// Let the goroutine park before the next task (it parks right after the task returns).
		for deadline := time.Now().Add(100 * time.Millisecond); numParked.Load() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Microsecond)
		}
	}
	if started := numStarted.Load() - before; started > 5 {
		t.Errorf("%d tasks run one after another started %d goroutines, want at most 5", tasks, started)
	}
}

// TestSpawnRunsAllConcurrently: tasks that can only finish once all of them run at the same time finish, with a
// limited pool (WaitToStart), an unlimited one, and StartIfAvailable: a task handed over is never queued behind
// another.
func TestSpawnRunsAllConcurrently(t *testing.T) {
	for _, limit := range []int{64, -1} {
		pool := New()
		pool.SetMaxParallelism(limit)
		const tasks = 40
		for round := range 3 {
			var all, finished sync.WaitGroup
			all.Add(tasks)
			finished.Add(tasks)
			for i := range tasks {
				task := func() {
					defer finished.Done()
					all.Done()
					all.Wait()
				}
				if i%2 == 0 {
					pool.WaitToStart(task)
				} else if !pool.StartIfAvailable(task) {
					t.Fatalf("limit %d: StartIfAvailable refused task %d of %d", limit, i, tasks)
				}
			}
			done := make(chan struct{})
			go func() { finished.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("limit %d, round %d: %d tasks waiting for each other did not all run at once", limit, round, tasks)
			}
		}
	}
}

// TestSpawnBoundsParkedGoroutines: after a burst of many concurrent tasks, at most maxParked goroutines stay
// parked; the others end.
func TestSpawnBoundsParkedGoroutines(t *testing.T) {
	pool := New()
	pool.SetMaxParallelism(-1)
	tasks := 4 * int(maxParked)
	var all, finished sync.WaitGroup
	all.Add(tasks)
	finished.Add(tasks)
	for range tasks {
		pool.WaitToStart(func() {
			defer finished.Done()
			all.Done()
			all.Wait()
		})
	}
	finished.Wait()
	time.Sleep(50 * time.Millisecond) // The last goroutines park or end after their task returns.
	if parked := int(numParked.Load()); parked > int(maxParked) || parked == 0 {
		t.Errorf("after %d concurrent tasks %d goroutines are parked, want 1 to %d", tasks, parked, maxParked)
	}
}
