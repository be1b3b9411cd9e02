// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package bench

import (
	"slices"
	"testing"
)

// TestTorchRows checks the parsing of --torch: labels, interpreters and extra arguments in order, and the
// single "pytorch" row with --python when --torch is empty.
func TestTorchRows(t *testing.T) {
	o := Options{Python: "/usr/bin/python3",
		Torches: " pytorch2=.venv-bench/bin/python ; pytorch2-compile=.venv-bench/bin/python --compile;pytorch1.13=/usr/bin/python3;"}
	rows, err := o.torchRows()
	if err != nil {
		t.Fatal(err)
	}
	want := []torchRow{{"pytorch2", ".venv-bench/bin/python", nil}, {"pytorch2-compile", ".venv-bench/bin/python", []string{"--compile"}},
		{"pytorch1.13", "/usr/bin/python3", nil}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows %+v, want %d", len(rows), rows, len(want))
	}
	for i := range want {
		if rows[i].label != want[i].label || rows[i].python != want[i].python || !slices.Equal(rows[i].args, want[i].args) {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	o.Torches = ""
	if rows, err := o.torchRows(); err != nil || len(rows) != 1 || rows[0].label != "pytorch" || rows[0].python != "/usr/bin/python3" {
		t.Errorf("no --torch: %+v, %v; want one row pytorch with --python", rows, err)
	}
}
