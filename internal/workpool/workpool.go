// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package workpool runs the experiments' units of work on a fixed number of workers (each with its own
// backend, so the units of one worker run one at a time) and reports each result, serialized, as soon as
// it is ready.
package workpool

import "sync"

// Run calls do(w, job) for every job on workers goroutines (w in 0..workers-1 says which worker runs
// it; jobs are handed out in order) and done(job, result, err) after each, one call at a time (done may
// write files and update counters without locking). It returns when every job is done.
func Run[J, R any](
	workers int, jobs []J, do func(worker int, job J) (R, error), done func(job J, result R, err error),
) {
	var mu sync.Mutex
	queue := make(chan J)
	var wg sync.WaitGroup
	for w := range max(1, workers) {
		wg.Go(func() {
			for job := range queue {
				r, err := do(w, job)
				mu.Lock()
				done(job, r, err)
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
}
