// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"fmt"
	"testing"
)

// TestFeedWorkItemsSplitsNarrowProducts: for one to three matrices and 2, 4 or 8 workers, the work items
// cover every output once; splits of rows fall on multiples of the micro-kernel's rows (of the panel's, where
// a worker's share is a panel or more) and splits of columns on multiples of its columns; and a single matrix
// narrower than two panels (LatFormer's weight gradients, [32, 6400] x [6400, 128] and [32, 6400] x [6400,
// 32]) is split in as many items as there are workers where its kernel tiles allow it, not left to one.
func TestFeedWorkItemsSplitsNarrowProducts(t *testing.T) {
	params := CacheParams{LHSL1KernelRows: 4, RHSL1KernelCols: 16, PanelContractingSize: 128, LHSPanelCrossSize: 24, RHSPanelCrossSize: 512}
	for _, workers := range []int{2, 4, 8} {
		for _, batch := range []int{1, 2, 3} {
			for _, mn := range [][2]int{{32, 128}, {32, 32}, {33, 33}, {6400, 32}, {1, 1}, {5, 17}, {100, 1000}, {2000, 40}, {24, 512}, {8, 2048}} {
				m, n := mn[0], mn[1]
				name := fmt.Sprintf("workers=%d batch=%d m=%d n=%d", workers, batch, m, n)
				ch := make(chan workItem, 100000)
				feedWorkItems(batch, m, n, &params, workers, ch)
				covered := make([]int, batch*m*n)
				items := 0
				for it := range ch {
					items++
					for b := it.batchStart; b < it.batchEnd; b++ {
						for r := it.lhsRowStart; r < it.lhsRowEnd; r++ {
							for c := it.rhsColStart; c < it.rhsColEnd; c++ {
								covered[(b*m+r)*n+c]++
							}
						}
					}
					if it.lhsRowStart%params.LHSL1KernelRows != 0 || it.rhsColStart%params.RHSL1KernelCols != 0 {
						t.Fatalf("%s: item %+v does not start at a micro-kernel tile", name, it)
					}
				}
				for i, c := range covered {
					if c != 1 {
						t.Fatalf("%s: output %d computed %d times", name, i, c)
					}
				}
				if batch == 1 && (m > n && m >= workers*params.LHSL1KernelRows || m <= n && n >= workers*params.RHSL1KernelCols) && items < workers {
					t.Fatalf("%s: %d work items for %d workers", name, items, workers)
				}
			}
		}
	}
}
