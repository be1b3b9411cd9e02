// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"testing"

	"github.com/latformer/latformer/internal/testutil"
)

// TestDocDefaults checks that every hyperparameter's doc comment ends with its default in brackets, the
// value DefaultParams has.
func TestDocDefaults(t *testing.T) { testutil.CheckDocDefaults(t, ".", DefaultParams()) }
