package experts

import (
	"fmt"

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

// MatrixFromTensor converts a float32 or float64 tensor of rank 2 to a lattice.Matrix.
func MatrixFromTensor(t *tensors.Tensor) (*lattice.Matrix, error) {
	if t.Rank() != 2 {
		return nil, fmt.Errorf("experts.MatrixFromTensor: want a rank-2 tensor, got shape %s", t.Shape())
	}
	m := lattice.NewMatrix(t.Shape().Dimensions[0], t.Shape().Dimensions[1])
	switch t.DType() {
	case dtypes.Float32:
		tensors.MustConstFlatData[float32](t, func(flat []float32) {
			for i, v := range flat {
				m.Data[i] = float64(v)
			}
		})
	case dtypes.Float64:
		tensors.MustConstFlatData[float64](t, func(flat []float64) { copy(m.Data, flat) })
	default:
		return nil, fmt.Errorf("experts.MatrixFromTensor: want float32 or float64, got %s", t.DType())
	}
	return m, nil
}

// mod returns a mod n in 0..n-1.
func mod(a, n int) int { return ((a % n) + n) % n }
