// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/lattice"
)

// MatrixTensor returns m as a float32 tensor of shape [Rows, Cols], ready to be fed to a GoMLX graph.
func MatrixTensor(m *lattice.Matrix) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, m.Rows, m.Cols))
	tensors.MustMutableFlatData[float32](t, func(flat []float32) {
		for i, v := range m.Data {
			flat[i] = float32(v)
		}
	})
	return t
}

// mod returns a mod n in 0..n-1.
func mod(a, n int) int { return ((a % n) + n) % n }
