package fusedops

import (
	"math"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"
)

// FusedLayerNorm applies layer normalization.

func init() {
	gobackend.RegisterFusedLayerNorm.Register(FusedLayerNorm, gobackend.PriorityGeneric)
	gobackend.SetNodeExecutor(compute.OpTypeFusedLayerNorm, gobackend.PriorityTyped, execFusedLayerNorm)
}

type nodeFusedLayerNorm struct {
	axes    []int
	epsilon float64
}

func (d *nodeFusedLayerNorm) EqualNodeData(other gobackend.NodeDataComparable) bool {
	o := other.(*nodeFusedLayerNorm)
	if d.epsilon != o.epsilon || len(d.axes) != len(o.axes) {
		return false
	}
	for i, a := range d.axes {
		if a != o.axes[i] {
			return false
		}
	}
	return true
}

// FusedLayerNorm applies layer normalization.
func FusedLayerNorm(f *gobackend.Function, x compute.Value, axes []int, epsilon float64, gamma, beta compute.Value) (compute.Value, error) {
	values := []compute.Value{x}
	if gamma != nil {
		values = append(values, gamma)
	}
	if beta != nil {
		values = append(values, beta)
	}
	inputs, err := f.VerifyAndCastValues("FusedLayerNorm", values...)
	if err != nil {
		return nil, err
	}
	xNode := inputs[0]

	// Normalize negative axes.
	rank := xNode.Shape.Rank()
	normalizedAxes := make([]int, len(axes))
	for i, a := range axes {
		if a < 0 {
			a += rank
		}
		if a < 0 || a >= rank {
			return nil, errors.Errorf("FusedLayerNorm: axis %d out of range for rank %d", axes[i], rank)
		}
		normalizedAxes[i] = a
	}

	data := &nodeFusedLayerNorm{axes: normalizedAxes, epsilon: epsilon}
	node, _ := f.GetOrCreateNode(compute.OpTypeFusedLayerNorm, xNode.Shape.Clone(), inputs, data)
	return node, nil
}

// execFusedLayerNorm implements layer normalization.
// For each sample: y = (x - mean) / sqrt(var + epsilon) * gamma + beta
func execFusedLayerNorm(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	data := node.Data.(*nodeFusedLayerNorm)
	input := inputs[0]
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}

	// Determine gamma/beta. inputs[0]=x, inputs[1]=gamma (optional), inputs[2]=beta (optional).
	var gamma, beta *gobackend.Buffer
	if len(inputs) > 1 {
		gamma = inputs[1]
	}
	if len(inputs) > 2 {
		beta = inputs[2]
	}

	switch input.RawShape.DType {
	case dtypes.Float32:
		layerNorm[float32](backend, input, output, gamma, beta, data.axes, data.epsilon)
	case dtypes.Float64:
		layerNorm[float64](backend, input, output, gamma, beta, data.axes, data.epsilon)
	default:
		return nil, errors.Wrapf(compute.ErrNotImplemented, "FusedLayerNorm: dtype %s", input.RawShape.DType)
	}
	return output, nil
}

// layerNorm dispatches to the trailing-axes fast path or the general case.
func layerNorm[T float32 | float64](backend *gobackend.Backend, input, output, gamma, beta *gobackend.Buffer, axes []int, epsilon float64) {
	inData := input.Flat.([]T)
	outData := output.Flat.([]T)
	dims := input.RawShape.Dimensions
	rank := len(dims)

	normSize := 1
	for _, a := range axes {
		normSize *= dims[a]
	}

	// Check for trailing axes fast path.
	isTrailingAxes := true
	for i, a := range axes {
		if a != rank-len(axes)+i {
			isTrailingAxes = false
			break
		}
	}

	var gammaData, betaData []T
	if gamma != nil {
		gammaData = gamma.Flat.([]T)
	}
	if beta != nil {
		betaData = beta.Flat.([]T)
	}

	if isTrailingAxes && normSize > 0 {
		// Rows (groups) are independent: split across the workers for large inputs, in multiples of 8 rows
		// (layerNormTrailingAxesRows4's vector blocks); the same values on any split.
		rows := len(inData) / normSize
		gobackend.ParallelRange(backend, rows, 8, max(1, layerNormParallelMinValues/normSize), func(lo, hi int) {
			layerNormTrailingAxesRows4(inData[lo*normSize:hi*normSize], outData[lo*normSize:hi*normSize], gammaData, betaData, normSize, epsilon)
		})
	} else if isTrailingAxes {
		layerNormTrailingAxes(inData, outData, gammaData, betaData, normSize, epsilon)
	} else {
		layerNormArbitraryAxes(inData, outData, gammaData, betaData, dims, axes, normSize, epsilon)
	}
}

// layerNormTrailingAxes handles the common case where normalization axes are the last N axes.
// Each contiguous block of normSize elements is one normalization group.
func layerNormTrailingAxes[T float32 | float64](
	inData, outData, gammaData, betaData []T,
	normSize int,
	epsilon float64,
) {
	normSizeF := T(normSize)
	outerSize := len(inData) / normSize

	for outer := range outerSize {
		base := outer * normSize

		// Compute mean.
		var sum T
		for i := range normSize {
			sum += inData[base+i]
		}
		mean := sum / normSizeF

		// Compute variance.
		var varSum T
		for i := range normSize {
			diff := inData[base+i] - mean
			varSum += diff * diff
		}
		variance := varSum / normSizeF
		invStd := T(1.0 / math.Sqrt(float64(variance)+epsilon))

		// Normalize and apply scale/offset.
		layerNormApplyRow(inData[base:base+normSize], outData[base:base+normSize], gammaData, betaData, mean, invStd)
	}
}

// layerNormParallelMinValues is the least number of values a worker takes in a layer normalization over
// trailing axes; smaller ones run on the calling goroutine.
const layerNormParallelMinValues = 1 << 16

// layerNormTrailingAxesRows4 is layerNormTrailingAxes with 4 rows' sums (and then their sums of squares) computed
// side by side: each row's sums in its own order, from zero, so the same values; four chains of dependent additions
// in flight instead of one (a row of 32 values was a chain of 32 additions, twice).
func layerNormTrailingAxesRows4[T float32 | float64](
	inData, outData, gammaData, betaData []T,
	normSize int,
	epsilon float64,
) {
	if in32, ok := any(inData).([]float32); ok && layerNormRows8Float32 != nil && layerNormRows8Enabled {
		// float32 rows 8 at a time in vector lanes where the CPU allows (the same values), the rest below.
		done := layerNormRows8Float32(in32, any(outData).([]float32), any(gammaData).([]float32), any(betaData).([]float32), normSize, epsilon)
		inData, outData = inData[done*normSize:], outData[done*normSize:]
	}
	outerSize := len(inData) / normSize
	rows4 := outerSize - outerSize%4
	normSizeF := T(normSize)
	for outer := 0; outer < rows4; outer += 4 {
		base := outer * normSize
		x0 := inData[base : base+normSize]
		x1 := inData[base+normSize : base+2*normSize]
		x2 := inData[base+2*normSize : base+3*normSize]
		x3 := inData[base+3*normSize : base+4*normSize]
		var s0, s1, s2, s3 T
		for i := range x0 {
			s0 += x0[i]
			s1 += x1[i]
			s2 += x2[i]
			s3 += x3[i]
		}
		m0, m1, m2, m3 := s0/normSizeF, s1/normSizeF, s2/normSizeF, s3/normSizeF
		var v0, v1, v2, v3 T
		for i := range x0 {
			d0 := x0[i] - m0
			d1 := x1[i] - m1
			d2 := x2[i] - m2
			d3 := x3[i] - m3
			v0 += d0 * d0
			v1 += d1 * d1
			v2 += d2 * d2
			v3 += d3 * d3
		}
		means := [4]T{m0, m1, m2, m3}
		vars := [4]T{v0 / normSizeF, v1 / normSizeF, v2 / normSizeF, v3 / normSizeF}
		for r := range 4 {
			layerNormApplyRow(inData[base+r*normSize:base+(r+1)*normSize], outData[base+r*normSize:base+(r+1)*normSize],
				gammaData, betaData, means[r], T(1.0/math.Sqrt(float64(vars[r])+epsilon)))
		}
	}
	if rows4 < outerSize {
		layerNormTrailingAxes(inData[rows4*normSize:], outData[rows4*normSize:], gammaData, betaData, normSize, epsilon)
	}
}

// layerNormRows8Float32 normalizes float32 rows 8 at a time with the values of the loops below and returns how many
// rows it did (layernorm_simd_amd64.go; nil where the build or the CPU has no vector kernel).
var layerNormRows8Float32 func(in, out, gamma, beta []float32, normSize int, epsilon float64) int

// layerNormRows8Enabled lets layerNormTrailingAxesRows4 use layerNormRows8Float32 (false: the 4-row loop only, for
// the tests and benchmarks).
var layerNormRows8Enabled = true

// layerNormApplyRow is layerNormTrailingAxes' last loop for one row: out = (x - mean) * invStd, times gamma, plus beta.
func layerNormApplyRow[T float32 | float64](in, out, gammaData, betaData []T, mean, invStd T) {
	out = out[:len(in)]
	for i := range in {
		normalized := (in[i] - mean) * invStd
		if gammaData != nil {
			normalized *= gammaData[i]
		}
		if betaData != nil {
			normalized += betaData[i]
		}
		out[i] = normalized
	}
}

// layerNormArbitraryAxes handles normalization over arbitrary (non-trailing) axes
// using Shape.IterOnAxes for index iteration.
func layerNormArbitraryAxes[T float32 | float64](
	inData, outData, gammaData, betaData []T,
	dims, axes []int,
	normSize int,
	epsilon float64,
) {
	normSizeF := T(normSize)
	rank := len(dims)

	// Build set of norm axes for fast lookup.
	isNormAxis := make([]bool, rank)
	for _, a := range axes {
		isNormAxis[a] = true
	}

	// Build outer axes (those not in normalization set).
	outerAxes := make([]int, 0, rank-len(axes))
	for i := range rank {
		if !isNormAxis[i] {
			outerAxes = append(outerAxes, i)
		}
	}

	// Create shape for iteration. DType is irrelevant for IterOnAxes.
	shape := shapes.Make(dtypes.Float32, dims...)
	strides := shape.Strides()
	outerIndices := make([]int, rank)
	normIndices := make([]int, rank)

	for outerFlatIdx := range shape.IterOnAxes(outerAxes, strides, outerIndices) {
		// Compute mean over norm axes.
		var sum T
		copy(normIndices, outerIndices)
		for flatIdx := range shape.IterOnAxes(axes, strides, normIndices) {
			sum += inData[flatIdx]
		}
		mean := sum / normSizeF

		// Compute variance.
		var varSum T
		copy(normIndices, outerIndices)
		for flatIdx := range shape.IterOnAxes(axes, strides, normIndices) {
			diff := inData[flatIdx] - mean
			varSum += diff * diff
		}
		variance := varSum / normSizeF
		invStd := T(1.0 / math.Sqrt(float64(variance)+epsilon))

		// Normalize and apply scale/offset.
		normFlatIdx := 0
		copy(normIndices, outerIndices)
		for flatIdx := range shape.IterOnAxes(axes, strides, normIndices) {
			normalized := (inData[flatIdx] - mean) * invStd
			if gammaData != nil {
				normalized *= gammaData[normFlatIdx]
			}
			if betaData != nil {
				normalized += betaData[normFlatIdx]
			}
			outData[flatIdx] = normalized
			normFlatIdx++
		}
		_ = outerFlatIdx
	}
}
