// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package workerspool

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"
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

// spawn runs task in a goroutine: a spinning one if any (spinForTask), a parked one if any is waiting, a new one
// otherwise.
func spawn(task func()) {
	if offerToSpinner(task) {
		return
	}
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
		if task = spinForTask(); task != nil {
			continue
		}
		if numParked.Add(1) > maxParked {
			numParked.Add(-1)
			return
		}
		task = <-handoff
		numParked.Add(-1)
	}
}

// Spinning.
//
// A parked goroutine is woken through the scheduler: when its processor's CPU has gone idle, the operating system
// wakes that CPU (on a virtual machine through the hypervisor), which takes tens of microseconds: a Saturate of
// empty tasks took 1.6 us back to back and 29 us after 200 us of idleness on this project's 2-core AMD EPYC VM. A
// training step of small ops forks and joins the workers a hundred times, with gaps of that order in between, and
// paid the wake-up each time. So a goroutine that finishes a task first spins for a while (SetSpinDuration),
// polling for an offered task (as OpenMP runtimes do between parallel regions), and parks only then. Which tasks
// run does not change (each exactly once): an offered task is taken by a spinning goroutine or, when none takes
// it, goes the way it went before (a parked goroutine or a new one).

// spinNanos is how long a worker goroutine polls for a new task before it parks (0: it parks at once):
// $GOMLX_WORKERS_SPIN as a Go duration ("300us", "0"), else DefaultSpinDuration; see SetSpinDuration.
var spinNanos atomic.Int64

func init() { spinNanos.Store(int64(spinFromEnv(os.Getenv("GOMLX_WORKERS_SPIN")))) }

// SetSpinDuration sets how long a worker goroutine polls for a new task before it parks (0: at once) and returns
// the previous duration.
func SetSpinDuration(d time.Duration) time.Duration {
	return time.Duration(spinNanos.Swap(int64(max(d, 0))))
}

// DefaultSpinDuration is the spin duration's default: LatFormer's training step at canvas 10 (about 90 fork-joins in
// 12 ms) ran 9-20 % faster with 300 us than without spinning on a 2-core AMD EPYC VM (alternated runs), and no
// faster with 1 ms.
const DefaultSpinDuration = 300 * time.Microsecond

// spinFromEnv parses $GOMLX_WORKERS_SPIN (a value that is not a duration of 0 or more leaves the default, with a
// message on stderr).
func spinFromEnv(v string) time.Duration {
	if v == "" {
		return DefaultSpinDuration
	}
	if v == "0" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		fmt.Fprintf(os.Stderr, "GOMLX_WORKERS_SPIN=%q is not a duration of 0 or more (e.g. 300us, 0): using %s\n", v, DefaultSpinDuration)
		return DefaultSpinDuration
	}
	return d
}

// offered is a task spawn hands to a spinning goroutine; numSpinning counts the goroutines spinning (or about to).
var (
	offered     atomic.Pointer[func()]
	numSpinning atomic.Int32
)

// liveExecutions counts the executions running in the process, on every backend (BeginExecution).
var liveExecutions atomic.Int32

// BeginExecution and EndExecution bracket a computation's execution (gobackend's Executable.Execute). The workers
// spin only while at most one runs: with several at once (a program training models side by side, as LatFormer's
// `arc --workers 2`), the processors have their work, and a spinning goroutine would hold one that another
// execution's goroutines wait for (the Table 2 run took 4m40s with spinning, 4m25s without).
func BeginExecution() { liveExecutions.Add(1) }

// EndExecution: see BeginExecution.
func EndExecution() { liveExecutions.Add(-1) }

// spinForTask polls for an offered task for the spin duration and returns it, or nil when none came (at once
// while more than one execution runs).
func spinForTask() func() {
	spin := time.Duration(spinNanos.Load())
	if spin <= 0 || liveExecutions.Load() > 1 {
		return nil
	}
	numSpinning.Add(1)
	deadline := time.Now().Add(spin)
	for i := 1; ; i++ {
		if task := pollOffer(); task != nil {
			return task
		}
		if i%64 == 0 {
			if time.Now().After(deadline) || liveExecutions.Load() > 1 {
				break
			}
			runtime.Gosched() // let goroutines readied on this processor run (a join's waiter)
		}
	}
	return stopSpinning()
}

// pollOffer is a spinning goroutine's look at the offer: with a task on offer it stops spinning and takes what is
// on offer then (stopSpinning); when another goroutine took it first, it spins on (counted again). A spinner never
// takes an offer while still counted: one that did (a compare-and-swap, then the count decremented) could take an
// earlier offer, be counted by a later offer's check, and leave without looking at the slot again, stranding that
// offer (LatFormer's Table 2 run hung on it after some million tasks).
func pollOffer() func() {
	if offered.Load() == nil {
		return nil
	}
	if task := stopSpinning(); task != nil {
		return task
	}
	numSpinning.Add(1)
	return nil
}

// stopSpinning ends a goroutine's spinning: an offer made before it is this goroutine's to run (offerToSpinner
// counted on a spinner taking it), returned; nil when there is none.
func stopSpinning() func() {
	numSpinning.Add(-1)
	if box := offered.Swap(nil); box != nil {
		return *box
	}
	return nil
}

// offerToSpinner offers task to the spinning goroutines and reports whether one took it or will: a spinner still
// counted after the offer looks at the slot at least once more (every spinner leaves through stopSpinning, which
// decrements the count, then empties the slot); with none left, the offer is taken back, unless one took it
// meanwhile.
func offerToSpinner(task func()) bool {
	if numSpinning.Load() == 0 {
		return false
	}
	box := &task
	if !offered.CompareAndSwap(nil, box) {
		return false // another task is on offer
	}
	afterOffer()
	return numSpinning.Load() > 0 || !offered.CompareAndSwap(box, nil)
}

// afterOffer runs between offerToSpinner's offer and its check of the spinners (a no-op; the tests stop spinners
// there).
var afterOffer = func() {}
