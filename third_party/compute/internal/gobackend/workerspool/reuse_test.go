// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package workerspool

import (
	"sync"
	"sync/atomic"
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

// TestSpinningRunsEveryTaskOnce: tasks spawned from many goroutines at once, while worker goroutines spin and give
// up spinning (spin durations around the gaps between the tasks), each run exactly once; with spinning, tasks
// started one after another are taken by a spinning goroutine (none parks or starts).
func TestSpinningRunsEveryTaskOnce(t *testing.T) {
	defer SetSpinDuration(SetSpinDuration(0))
	pool := New()
	pool.SetMaxParallelism(-1)
	for _, spin := range []time.Duration{0, time.Microsecond, 20 * time.Microsecond, 300 * time.Microsecond} {
		SetSpinDuration(spin)
		const spawners, perSpawner = 8, 400
		runs := make([]atomic.Int32, spawners*perSpawner)
		var done, spawned sync.WaitGroup
		done.Add(len(runs))
		spawned.Add(spawners)
		for s := range spawners {
			go func() {
				defer spawned.Done()
				for i := range perSpawner {
					id := s*perSpawner + i
					pool.WaitToStart(func() { runs[id].Add(1); done.Done() })
					if i%16 == 0 {
						time.Sleep(time.Duration(i%48) * time.Microsecond) // gaps around the spin durations
					}
				}
			}()
		}
		finished := make(chan struct{})
		go func() { done.Wait(); spawned.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(20 * time.Second):
			t.Fatalf("spin %s: tasks did not all run", spin)
		}
		for id := range runs {
			if n := runs[id].Load(); n != 1 {
				t.Fatalf("spin %s: task %d ran %d times", spin, id, n)
			}
		}
	}
	// One task after another: with spinning, the goroutine that ran the last one takes the next.
	SetSpinDuration(50 * time.Millisecond)
	time.Sleep(10 * time.Millisecond)
	started := numStarted.Load()
	for range 200 {
		ran := make(chan struct{})
		pool.WaitToStart(func() { close(ran) })
		<-ran
	}
	if n := numStarted.Load() - started; n > 2 {
		t.Errorf("200 tasks one after another with spinning goroutines started %d new goroutines, want at most 2", n)
	}
}

// TestSpinningHandOff checks the hand-off's three cases one at a time, with a spinner simulated by the count
// (numSpinning) and afterOffer run between the offer and the check of the spinners: a spinner that stops after the
// offer runs the task (stopSpinning returns it); when the spinners stop before the check, the offer is taken back
// (the task goes the usual way, no one runs it twice); when one took it meanwhile, it is not taken back.
func TestSpinningHandOff(t *testing.T) {
	defer SetSpinDuration(SetSpinDuration(0)) // no real spinners meanwhile (those spinning finish their spin)
	for deadline := time.Now().Add(time.Second); numSpinning.Load() != 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if numSpinning.Load() != 0 || offered.Load() != nil {
		t.Fatalf("spinners %d, offer %v left by an earlier test", numSpinning.Load(), offered.Load())
	}
	defer func() { afterOffer = func() {} }()
	ran := 0
	task := func() { ran++ }

	// 1. The spinner is counted at the check: the offer stands, and stopping hands it over.
	numSpinning.Store(1)
	if !offerToSpinner(task) {
		t.Fatal("offer with a spinner counted: not taken")
	}
	if got := stopSpinning(); got == nil {
		t.Fatal("a spinner stopping after an offer did not get it (the task would be lost)")
	} else {
		got()
	}
	if ran != 1 || numSpinning.Load() != 0 || offered.Load() != nil {
		t.Fatalf("ran %d, spinners %d, offer %v; want 1, 0, none", ran, numSpinning.Load(), offered.Load())
	}

	// 2. The last spinner stops (without looking) between the offer and the check: the offer is taken back.
	numSpinning.Store(1)
	afterOffer = func() { numSpinning.Add(-1) }
	if offerToSpinner(task) {
		t.Fatal("offer whose spinners all stopped before the check: reported taken (the task would be lost)")
	}
	if offered.Load() != nil {
		t.Fatal("offer not taken back")
	}

	// 3. A spinner takes the offer and stops before the check: taken, not taken back.
	numSpinning.Store(1)
	afterOffer = func() {
		if got := stopSpinning(); got != nil {
			got()
		}
	}
	if !offerToSpinner(task) {
		t.Fatal("offer taken by a spinner that then stopped: reported not taken (the task would run twice)")
	}
	if ran != 2 {
		t.Fatalf("ran %d times, want 2", ran)
	}
	// 4. A spinner polling: nothing on offer, it spins on (still counted); an offer, it stops and takes it.
	afterOffer = func() {}
	numSpinning.Store(1)
	if got := pollOffer(); got != nil || numSpinning.Load() != 1 {
		t.Fatalf("poll with no offer: task %v, spinners %d; want none, 1", got != nil, numSpinning.Load())
	}
	if !offerToSpinner(task) {
		t.Fatal("offer with a spinner counted: not taken")
	}
	if got := pollOffer(); got == nil || numSpinning.Load() != 0 || offered.Load() != nil {
		t.Fatalf("poll with an offer: task %v, spinners %d; want the task, 0 (no longer counted)", got != nil, numSpinning.Load())
	} else {
		got()
	}
	if ran != 3 {
		t.Fatalf("ran %d times, want 3", ran)
	}

	// No spinner: no offer.
	if offerToSpinner(task) || offered.Load() != nil {
		t.Fatal("offer with no spinner")
	}
}

// TestNoSpinningWhileExecutionsOverlap: with two executions running, a goroutine that finishes a task parks at once
// instead of spinning; with one, it spins. (Polls with deadlines rather than fixed sleeps: a loaded machine may
// delay a goroutine, which can only hide a spinner from the two-execution check, never invent one.)
func TestNoSpinningWhileExecutionsOverlap(t *testing.T) {
	defer SetSpinDuration(SetSpinDuration(200 * time.Millisecond))
	pool := New()
	pool.SetMaxParallelism(-1)
	waitFor := func(want int32, within time.Duration) bool {
		for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
			if numSpinning.Load() == want {
				return true
			}
		}
		return numSpinning.Load() == want
	}
	runOne := func() {
		ran := make(chan struct{})
		pool.WaitToStart(func() { close(ran) })
		<-ran
	}
	if !waitFor(0, 2*time.Second) {
		t.Fatalf("%d goroutines still spinning from earlier tests", numSpinning.Load())
	}
	BeginExecution()
	runOne()
	if !waitFor(1, 2*time.Second) {
		t.Errorf("one execution: %d goroutines spinning after a task, want 1", numSpinning.Load())
	}
	BeginExecution()
	if !waitFor(0, 2*time.Second) { // the spinner sees the second execution and stops
		t.Fatalf("two executions: %d goroutines still spinning", numSpinning.Load())
	}
	runOne()
	for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
		if n := numSpinning.Load(); n != 0 {
			t.Fatalf("two executions: %d goroutines spinning after a task, want 0", n)
		}
	}
	EndExecution()
	EndExecution()
}

// TestSpinFromEnv checks $GOMLX_WORKERS_SPIN's parsing: unset the default, "0" and durations as given, anything
// else (not a duration, negative) the default.
func TestSpinFromEnv(t *testing.T) {
	for v, want := range map[string]time.Duration{"": DefaultSpinDuration, "0": 0, "0s": 0, "1ms": time.Millisecond,
		"50us": 50 * time.Microsecond, "fast": DefaultSpinDuration, "-5us": DefaultSpinDuration, "300": DefaultSpinDuration} {
		if got := spinFromEnv(v); got != want {
			t.Errorf("spinFromEnv(%q) = %s, want %s", v, got, want)
		}
	}
}
