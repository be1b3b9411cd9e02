// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package workerspool

import (
	"runtime"
	"sync/atomic"
)

// Goroutine reuse.
//
// Every task the pool starts used to run in a fresh goroutine. A fresh goroutine starts with the runtime's
// smallest stack, and the executor's node functions (the matmul kernels, the fused ops) need several times
// that, so nearly every task grew its stack by copying it a few times (runtime.newstack / copystack: about
// 12 % of a training step's CPU time with hundreds of small ops per step). spawn hands the task to a goroutine
// that finished an earlier task and is parked waiting for another one, whose stack has already grown, and
// starts a new goroutine only when none is parked. When the task starts and which tasks run concurrently do
// not change: a task is either received by a parked goroutine at once or gets a new one, as before; the
// accounting of running tasks stays in the callers. One thing a reused goroutine does not take from the code
// that spawns the task: its pprof labels (runtime/pprof.Do), which a goroutine inherits when it is created; a
// task runs with the labels of the goroutine that created its worker.

// handoff passes a task to a parked goroutine. It is unbuffered: a send succeeds only when a goroutine is
// waiting on it.
var handoff = make(chan func())

// numParked counts the goroutines waiting on handoff (or about to); numStarted the goroutines spawn started.
var (
	numParked  atomic.Int32
	numStarted atomic.Int64
)

// maxParked bounds the goroutines kept parked; a goroutine that finds this many already parked ends. Read once
// (runtime.GOMAXPROCS takes the scheduler's lock, too much for every task's end); a soft bound.
var maxParked = int32(4*runtime.GOMAXPROCS(0) + 4)

// spawn runs task in a goroutine: a parked one if any is waiting, a new one otherwise.
func spawn(task func()) {
	select {
	case handoff <- task:
	default:
		numStarted.Add(1)
		go worker(task)
	}
}

// worker runs task, then parks to wait for the next one, unless enough goroutines are parked already.
func worker(task func()) {
	for {
		task()
		task = nil // Drop the closure (and what it references) while parked.
		if numParked.Add(1) > maxParked {
			numParked.Add(-1)
			return
		}
		task = <-handoff
		numParked.Add(-1)
	}
}
