// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package search

import (
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

// loadARC loads the 400 ARC training tasks from $LATFORMER_DATA (make test sets it), skipping the test
// without them.
func loadARC(t testing.TB) []datasets.Task {
	t.Helper()
	_, arcDir := testutil.ARCData(t, "training")
	tasks, err := datasets.LoadDir(arcDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 400 {
		t.Fatalf("%d ARC training tasks, want 400", len(tasks))
	}
	return tasks
}

// makeTask and shiftTask are testutil's (the annotation's tests use them too).
var (
	makeTask  = testutil.MakeTask
	shiftTask = testutil.ShiftTask
)

// sel is the selection named name (ParseSelection); it panics on a name that is not one.
func sel(name string) Selection {
	s, err := ParseSelection(name)
	if err != nil {
		panic(err)
	}
	return s
}
