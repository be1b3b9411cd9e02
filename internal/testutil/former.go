// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package testutil

import (
	"bytes"
	"strings"
	"testing"

	"github.com/latformer/latformer/hparams"
)

// CheckFormerKeys checks that each former setting (pairs of old and new text) reads through table.ParseTo as
// the new one, and that the warnings name every key of warned as a former name (a key warns once per process:
// name only keys no other test parses first).
func CheckFormerKeys(t *testing.T, table hparams.Table, pairs [][2]string, warned []string) {
	t.Helper()
	if len(pairs) == 0 || len(warned) == 0 {
		t.Fatalf("CheckFormerKeys: %d pairs and %d warned keys, want some of each", len(pairs), len(warned))
	}
	var warnings bytes.Buffer
	for _, p := range pairs {
		got, err := table.ParseTo(p[0], &warnings)
		if err != nil {
			t.Errorf("%s: %v", p[0], err)
			continue
		}
		if got.String() != p[1] {
			t.Errorf("%s reads as %s, want %s", p[0], got, p[1])
		}
	}
	for _, old := range warned {
		if !strings.Contains(warnings.String(), `"`+old+`" is a former name`) {
			t.Errorf("no warning for %s in %q", old, warnings.String())
		}
	}
}
