// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package workpool

import (
	"errors"
	"testing"
	"time"
)

// TestRun checks that every job runs once, on a worker in range, that done calls never overlap, and that
// errors reach done.
func TestRun(t *testing.T) {
	jobs := make([]int, 50)
	for i := range jobs {
		jobs[i] = i
	}
	seen := map[int]int{}
	inDone := false
	errs := 0
	Run(3, jobs, func(w, j int) (int, error) {
		if w < 0 || w > 2 {
			t.Errorf("worker %d out of range", w)
		}
		time.Sleep(time.Millisecond)
		if j%10 == 0 {
			return 0, errors.New("fail")
		}
		return j * j, nil
	}, func(j, r int, err error) {
		if inDone {
			t.Errorf("done calls overlap")
		}
		inDone = true
		if err != nil {
			errs++
		} else if r != j*j {
			t.Errorf("job %d: result %d", j, r)
		}
		seen[j]++
		time.Sleep(100 * time.Microsecond)
		inDone = false
	})
	if len(seen) != 50 || errs != 5 {
		t.Errorf("%d jobs done, %d errors; want 50 and 5", len(seen), errs)
	}
	for j, n := range seen {
		if n != 1 {
			t.Errorf("job %d done %d times", j, n)
		}
	}
}
