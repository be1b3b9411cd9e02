// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// ParallelRange calls fn(lo, hi) on consecutive ranges covering [0, n), each a multiple of align long (the last
// one aside), on up to GOMAXPROCS goroutines (backend.Workers.Saturate), or once on the calling goroutine where
// n is below 2*minPerWorker, GOMAXPROCS is 1, or the backend's pool is not unlimited (parallelism=-1): with a
// bounded pool, a node that waits in Saturate for a free slot while holding one is the executor's known deadlock
// (every slot held by such nodes), and the ops that call this are not to add new ways into it. fn must be safe to
// call concurrently on disjoint ranges; ops whose outputs at each index depend only on their inputs at that index
// (or row) get the same values whichever ranges they are computed in.
func ParallelRange(backend *Backend, n, align, minPerWorker int, fn func(lo, hi int)) {
	workers := 1
	if backend != nil && backend.Workers != nil && backend.Workers.IsUnlimited() {
		workers = backend.Workers.AdjustedMaxParallelism()
	}
	if align < 1 {
		align = 1
	}
	if workers < 2 || n < 2*minPerWorker || n < 2*align {
		fn(0, n)
		return
	}
	// Twice as many ranges as workers, so that a worker slowed by another op still gets its share done.
	chunks := min(2*workers, n/max(minPerWorker, align))
	size := (n + chunks - 1) / chunks
	size = (size + align - 1) / align * align
	work := make(chan [2]int, chunks)
	for lo := 0; lo < n; lo += size {
		work <- [2]int{lo, min(lo+size, n)}
	}
	close(work)
	backend.Workers.Saturate(func() {
		for r := range work {
			fn(r[0], r[1])
		}
	})
}
