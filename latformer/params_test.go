// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"os"
	"strings"
	"testing"

	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
)

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }

// TestHyperparametersPage checks that docs/hyperparameters.md has one row for every hyperparameter that
// Params declares (this package's, layers' and experts'), with its default, and none for another key; and
// that the row of ParamRestartExperts explains every letter experts.CheckFamilies accepts, "x (...)".
func TestHyperparametersPage(t *testing.T) {
	const page = "../docs/hyperparameters.md"
	testutil.CheckParamsPage(t, page, DefaultParams())
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "| `"+ParamRestartExperts+"` |") {
			row = line
		}
	}
	letters := 0
	for c := 'a'; c <= 'z'; c++ {
		if experts.CheckFamilies(string(c)) != nil {
			continue
		}
		letters++
		if !strings.Contains(row, string(c)+" (") {
			t.Errorf("%s: the row of %s does not explain the letter %c, \"%c (...)\"", page, ParamRestartExperts, c, c)
		}
	}
	if letters < 7 {
		t.Errorf("experts.CheckFamilies accepts %d letters, want t, z, v, h, r, f, s at least", letters)
	}
}
