// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

// Fast paths for the element-wise binary ops Add, Sub, Mul and Div on float32 (with broadcasting), ReduceSum on
// float32 along any axes, and Transpose and Slice of any 1-, 2-, 4- or 8-byte dtype.
//
// The generic executors walk the output one value at a time through an index iterator (an axis loop per
// value). These split the work into rows: runs of values that are contiguous in memory (or one value repeated,
// for a broadcast operand), so that the inner loops are flat loops over slices, vectorized where the CPU allows
// (fastpaths_simd_amd64.go: AVX2, 8 float32 at a time).
//
// The values are the generic executors' to the last bit: every output is computed with the same operation on
// the same operands in the same order (element-wise ops are independent per value; each ReduceSum output adds
// its values one by one in the operand's flat order, starting from 0, as the generic code does; transposes and
// slices only copy). One exception, stated: where both operands of an add or multiply are NaNs, the result is a
// NaN in both, but its payload may differ (x86 keeps one operand's payload, and which one the compiler puts
// first in the generic code is its choice). Other dtypes and layouts go to the generic executors.

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeAdd, gobackend.PriorityTyped, execAddFast)
	gobackend.SetNodeExecutor(compute.OpTypeSub, gobackend.PriorityTyped, execSubFast)
	gobackend.SetNodeExecutor(compute.OpTypeMul, gobackend.PriorityTyped, execMulFast)
	gobackend.SetNodeExecutor(compute.OpTypeDiv, gobackend.PriorityTyped, execDivFast)
	gobackend.SetNodeExecutor(compute.OpTypeReduceSum, gobackend.PriorityTyped, execReduceSumFast)
	gobackend.SetNodeExecutor(compute.OpTypeTranspose, gobackend.PriorityTyped, execTransposeFast)
	gobackend.SetNodeExecutor(compute.OpTypeSlice, gobackend.PriorityTyped, execSliceFast)
	gobackend.SetNodeExecutor(compute.OpTypeBroadcastInDim, gobackend.PriorityTyped, execBroadcastInDimFast)
	gobackend.SetNodeExecutor(compute.OpTypeSign, gobackend.PriorityTyped, execSignFast)
	gobackend.SetNodeExecutor(compute.OpTypeMax, gobackend.PriorityTyped, execMaxFast)
}

// The binary ops with float32 row kernels.
const (
	f32Add = iota
	f32Sub
	f32Mul
	f32Div
	f32NumOps
)

// f32RowKernels computes one binary op over a row: vv: dst[i] = a[i] op b[i]; vs: dst[i] = a[i] op c[0];
// sv: dst[i] = c[0] op b[i]. dst may be a or b (in place), never overlapping them otherwise. The scalar
// operand is passed in memory (c, one value or more): the AVX2 kernels broadcast it from there, with no
// scalar float instruction (a legacy-SSE MOVSS or XORPS between the AVX code costs several hundred cycles
// per row on some x86 CPUs, more than a row of 32 values).
type f32RowKernels struct {
	vv func(dst, a, b []float32)
	vs func(dst, a []float32, c []float32)
	sv func(dst []float32, c []float32, b []float32)
}

// f32Kernels holds the row kernels in use: f32ScalarKernels, replaced by vectorized ones at init where the
// CPU has them.
var f32Kernels = f32ScalarKernels

// f32ScalarKernels are the portable row kernels: scalar loops.
var f32ScalarKernels = [f32NumOps]f32RowKernels{
	f32Add: {
		vv: func(dst, a, b []float32) {
			b = b[:len(a)]
			dst = dst[:len(a)]
			for i := range a {
				dst[i] = a[i] + b[i]
			}
		},
		vs: func(dst, a []float32, cs []float32) {
			dst, c := dst[:len(a)], cs[0]
			for i := range a {
				dst[i] = a[i] + c
			}
		},
		sv: func(dst []float32, cs []float32, b []float32) {
			dst, c := dst[:len(b)], cs[0]
			for i := range b {
				dst[i] = c + b[i]
			}
		},
	},
	f32Sub: {
		vv: func(dst, a, b []float32) {
			b = b[:len(a)]
			dst = dst[:len(a)]
			for i := range a {
				dst[i] = a[i] - b[i]
			}
		},
		vs: func(dst, a []float32, cs []float32) {
			dst, c := dst[:len(a)], cs[0]
			for i := range a {
				dst[i] = a[i] - c
			}
		},
		sv: func(dst []float32, cs []float32, b []float32) {
			dst, c := dst[:len(b)], cs[0]
			for i := range b {
				dst[i] = c - b[i]
			}
		},
	},
	f32Mul: {
		vv: func(dst, a, b []float32) {
			b = b[:len(a)]
			dst = dst[:len(a)]
			for i := range a {
				dst[i] = a[i] * b[i]
			}
		},
		vs: func(dst, a []float32, cs []float32) {
			dst, c := dst[:len(a)], cs[0]
			for i := range a {
				dst[i] = a[i] * c
			}
		},
		sv: func(dst []float32, cs []float32, b []float32) {
			dst, c := dst[:len(b)], cs[0]
			for i := range b {
				dst[i] = c * b[i]
			}
		},
	},
	f32Div: {
		vv: func(dst, a, b []float32) {
			b = b[:len(a)]
			dst = dst[:len(a)]
			for i := range a {
				dst[i] = a[i] / b[i]
			}
		},
		vs: func(dst, a []float32, cs []float32) {
			dst, c := dst[:len(a)], cs[0]
			for i := range a {
				dst[i] = a[i] / c
			}
		},
		sv: func(dst []float32, cs []float32, b []float32) {
			dst, c := dst[:len(b)], cs[0]
			for i := range b {
				dst[i] = c / b[i]
			}
		},
	},
}

// The binary ops' executors: named functions, so that a CPU profile names the op.
func execAddFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	return execBinaryFloat32(f32Add, execAdd, backend, node, inputs, inputsOwned)
}

func execSubFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	return execBinaryFloat32(f32Sub, execSub, backend, node, inputs, inputsOwned)
}

func execMulFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	return execBinaryFloat32(f32Mul, execMul, backend, node, inputs, inputsOwned)
}

func execDivFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	return execBinaryFloat32(f32Div, execDiv, backend, node, inputs, inputsOwned)
}

// execBinaryFloat32 executes a binary op: float32 operands of the same rank (the output's), or a scalar and a
// tensor, through the row kernels, anything else through the generic executor.
func execBinaryFloat32(kind int, generic gobackend.NodeExecutor,
	backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	l, r := inputs[0], inputs[1]
	if l.RawShape.DType != dtypes.Float32 || r.RawShape.DType != dtypes.Float32 ||
		(l.RawShape.Rank() != r.RawShape.Rank() && l.RawShape.Rank() != 0 && r.RawShape.Rank() != 0) {
		// A scalar (rank 0) against a tensor of any rank takes the vs/sv kernels below.
		return generic(backend, node, inputs, inputsOwned)
	}
	lhs, rhs, output, _, _ := binaryOperandsAndOutputForExecution(backend, node, inputs, inputsOwned, node.Shape)
	a, b, dst := lhs.Flat.([]float32), rhs.Flat.([]float32), output.Flat.([]float32)
	k := &f32Kernels[kind]
	switch {
	case len(b) == 1:
		k.vs(dst, a, b)
	case len(a) == 1:
		k.sv(dst, a, b)
	case lhs.RawShape.Equal(rhs.RawShape):
		// Each value on its own: the same values on any split (memory-bound: the full attention's
		// [16, 1, 400, 400] products at canvas 20 are 30 MB of traffic each).
		gobackend.ParallelRange(backend, len(dst), 64, binaryParallelMinValues, func(lo, hi int) {
			k.vv(dst[lo:hi], a[lo:hi], b[lo:hi])
		})
	default:
		binaryBroadcastRows(backend, kind, dst, a, b, lhs.RawShape.Dimensions, rhs.RawShape.Dimensions, output.RawShape.Dimensions)
	}
	return output, nil
}

// binaryParallelMinValues is the least number of values a worker takes in an element-wise op on two float32
// operands of the same shape; smaller ones run on the calling goroutine.
const binaryParallelMinValues = 1 << 18

// f32BinaryRowsEnabled lets binaryBroadcastRows hand whole runs of rows to f32BinaryRows (false: a row kernel
// call per row, for the tests and benchmarks).
var f32BinaryRowsEnabled = true

// rowAxis is one axis (or several merged ones) of an iteration by rows: its size and the strides of the
// operands along it (0 where an operand is broadcast along it).
type rowAxis struct {
	dim, aStride, bStride int
}

// The layouts of f32BinaryRows: row r of dst (rowLen values) is
const (
	f32RowsVS = iota // a's row r op b[r]
	f32RowsSV        // a[r] op b's row r
	f32RowsVB        // a's row r op b (one row for all)
	f32RowsBV        // a (one row for all) op b's row r
)

// f32BinaryRows computes rows rows of dst in one of the layouts above with the binary op op (f32Add...): the
// generic version calls the row kernels of f32Kernels once per row; replaced at init by a vectorized one with
// the same values where the CPU has one (fastpaths_rows_amd64.go).
var f32BinaryRows = f32BinaryRowsGeneric

func f32BinaryRowsGeneric(op, mode int, dst, a, b []float32, rowLen, rows int) {
	k := &f32Kernels[op]
	for r := range rows {
		row := dst[r*rowLen : (r+1)*rowLen]
		switch mode {
		case f32RowsVS:
			k.vs(row, a[r*rowLen:(r+1)*rowLen], b[r:r+1])
		case f32RowsSV:
			k.sv(row, a[r:r+1], b[r*rowLen:(r+1)*rowLen])
		case f32RowsVB:
			k.vv(row, a[r*rowLen:(r+1)*rowLen], b[:rowLen])
		default:
			k.vv(row, a[:rowLen], b[r*rowLen:(r+1)*rowLen])
		}
	}
}

// f32BinaryRowsCheck panics unless the operands of f32BinaryRows hold what its layout reads and writes (the
// vectorized kernel reads them through pointers; the generic one slices them, which checks as it goes).
func f32BinaryRowsCheck(mode int, dst, a, b []float32, rowLen, rows int) {
	aLen, bLen := rows*rowLen, rows*rowLen
	switch mode {
	case f32RowsVS:
		bLen = rows
	case f32RowsSV:
		aLen = rows
	case f32RowsVB:
		bLen = rowLen
	default:
		aLen = rowLen
	}
	if len(dst) < rows*rowLen || len(a) < aLen || len(b) < bLen {
		panic("f32BinaryRows: operands shorter than their layout")
	}
}

// binaryRowsParallelMinValues is the least number of values a worker takes in f32BinaryRows (the layer norm
// gradients' [16, 900, 32] at canvas 30 are split in two); smaller ones run on the calling goroutine.
const binaryRowsParallelMinValues = 1 << 17

// binaryBroadcastRows computes dst = a op b with broadcasting (operands of dst's rank, an axis of size 1 in
// an operand broadcast to dst's size): the axes of size 1 in dst dropped, adjacent axes along which both
// operands are broadcast alike merged, the innermost merged axis a row kernel's row.
func binaryBroadcastRows(backend *gobackend.Backend, op int, dst, a, b []float32, aDims, bDims, outDims []int) {
	k := &f32Kernels[op]
	// Axes from the innermost out, merged while the broadcast pattern is the same.
	var axes []rowAxis // innermost first
	var classes []int  // 0: neither broadcast, 1: a broadcast, 2: b broadcast
	aStride, bStride := 1, 1
	for axis := len(outDims) - 1; axis >= 0; axis-- {
		d := outDims[axis]
		if d == 1 {
			continue
		}
		class, as, bs := 0, aStride, bStride
		if aDims[axis] == 1 {
			class, as = 1, 0
		} else if bDims[axis] == 1 {
			class, bs = 2, 0
		}
		if n := len(axes); n > 0 && classes[n-1] == class {
			axes[n-1].dim *= d
		} else {
			axes = append(axes, rowAxis{dim: d, aStride: as, bStride: bs})
			classes = append(classes, class)
		}
		aStride *= aDims[axis]
		bStride *= bDims[axis]
	}
	if len(axes) == 0 {
		k.vv(dst[:1], a[:1], b[:1])
		return
	}
	rowLen, class := axes[0].dim, classes[0]
	outer := axes[1:]
	if len(outer) == 1 && f32BinaryRowsEnabled {
		// One outer axis along which one operand moves a row at a time and the other a value at a time (or
		// not at all): all the rows in one f32BinaryRows call, split across the workers.
		o, mode := outer[0], -1
		switch {
		case class == 2 && o.aStride == rowLen && o.bStride == 1:
			mode = f32RowsVS
		case class == 1 && o.aStride == 1 && o.bStride == rowLen:
			mode = f32RowsSV
		case class == 0 && o.aStride == rowLen && o.bStride == 0:
			mode = f32RowsVB
		case class == 0 && o.aStride == 0 && o.bStride == rowLen:
			mode = f32RowsBV
		}
		if mode >= 0 {
			minRows := max(1, binaryRowsParallelMinValues/rowLen)
			gobackend.ParallelRange(backend, o.dim, 1, minRows, func(lo, hi int) {
				ra, rb := a, b
				switch mode {
				case f32RowsVS:
					ra, rb = a[lo*rowLen:hi*rowLen], b[lo:hi]
				case f32RowsSV:
					ra, rb = a[lo:hi], b[lo*rowLen:hi*rowLen]
				case f32RowsVB:
					ra = a[lo*rowLen : hi*rowLen]
				default:
					rb = b[lo*rowLen : hi*rowLen]
				}
				f32BinaryRows(op, mode, dst[lo*rowLen:hi*rowLen], ra, rb, rowLen, hi-lo)
			})
			return
		}
	}
	idx := make([]int, len(outer))
	aOff, bOff := 0, 0
	for start := 0; start < len(dst); start += rowLen {
		row := dst[start : start+rowLen]
		switch class {
		case 0:
			k.vv(row, a[aOff:aOff+rowLen], b[bOff:bOff+rowLen])
		case 1:
			k.sv(row, a[aOff:aOff+1], b[bOff:bOff+rowLen])
		default:
			k.vs(row, a[aOff:aOff+rowLen], b[bOff:bOff+1])
		}
		for i := range outer { // outer[0] is the innermost of the outer axes
			idx[i]++
			aOff += outer[i].aStride
			bOff += outer[i].bStride
			if idx[i] < outer[i].dim {
				break
			}
			idx[i] = 0
			aOff -= outer[i].aStride * outer[i].dim
			bOff -= outer[i].bStride * outer[i].dim
		}
	}
}

// execSignFast is Sign for float32 without a branch per value (the generic loop's branches mispredict on
// values of random sign): -1 where x < 0, 1 where x > 0, +0 elsewhere (±0 and NaN), as execSignGeneric
// writes them; vectorized where the CPU allows (f32Sign). Other dtypes go to the generic executor.
func execSignFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	if inputs[0].RawShape.DType != dtypes.Float32 {
		return execSign(backend, node, inputs, inputsOwned)
	}
	input, output, err := unaryOperandAndOutput(backend, inputs, inputsOwned)
	if err != nil {
		return nil, err
	}
	f32Sign(output.Flat.([]float32), input.Flat.([]float32))
	return output, nil
}

// f32Sign writes the sign of each x into dst (same length; dst may be x); replaced by a vectorized version at
// init where the CPU has one.
var f32Sign = f32SignScalar

func f32SignScalar(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		var s float32 // +0 for ±0 and NaN
		if v > 0 {
			s = 1
		}
		if v < 0 {
			s = -1
		}
		dst[i] = s
	}
}

// execMaxFast is Max for float32 operands of the same shape or with a single value (ReLU's max(x, 0)), as
// execMaxNumericGeneric computes it: Go's max(x, c) with x from the operand that is not a single value, or
// max(lhs[i], rhs[i]); vectorized where the CPU allows (f32MaxVS, f32MaxVV: Go's own instruction sequence for
// max on float32, lane by lane, so NaN payloads and signed zeros come out the same). Other dtypes and
// broadcasts go to the generic executor.
func execMaxFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	l, r := inputs[0], inputs[1]
	if l.RawShape.DType != dtypes.Float32 || r.RawShape.DType != dtypes.Float32 ||
		!(l.RawShape.Size() == 1 || r.RawShape.Size() == 1 || l.RawShape.Equal(r.RawShape)) {
		return execMax(backend, node, inputs, inputsOwned)
	}
	lhs, rhs, output, lhsIsScalarOr1, rhsIsScalarOr1 := binaryOperandsAndOutputForExecution(backend, node, inputs, inputsOwned, node.Shape)
	if lhsIsScalarOr1 && !rhsIsScalarOr1 { // as execMax: the single value becomes the second operand
		lhs, rhs = rhs, lhs
	}
	a, b, dst := lhs.Flat.([]float32), rhs.Flat.([]float32), output.Flat.([]float32)
	if len(b) == 1 {
		f32MaxVS(dst, a, b)
	} else {
		f32MaxVV(dst, a, b)
	}
	return output, nil
}

// f32MaxVS: dst[i] = max(a[i], c[0]); f32MaxVV: dst[i] = max(a[i], b[i]) (Go's max). Replaced by vectorized
// versions at init where the CPU has them.
var (
	f32MaxVS = func(dst, a, c []float32) {
		dst, v := dst[:len(a)], c[0]
		for i, x := range a {
			dst[i] = max(x, v)
		}
	}
	f32MaxVV = func(dst, a, b []float32) {
		dst, b = dst[:len(a)], b[:len(a)]
		for i, x := range a {
			dst[i] = max(x, b[i])
		}
	}
)

// f32SumRows8 and f32SumColumns are vectorized kernels for reduceSumFloat32 with its values (set at init where
// the CPU has them, fastpaths_reduce_amd64.go): f32SumRows8 adds each row of x (rows of rowLen values) to
// out[off+r], 8 rows at a time, and returns how many rows it did (0: none, sumRowsFloat32 does them);
// f32SumColumns adds every row of x to out (rows of len(out) values).
var (
	f32SumRows8   = func(out []float32, off int, x []float32, rowLen int) int { return 0 }
	f32SumColumns = func(out, x []float32) {
		for start := 0; start+len(out) <= len(x); start += len(out) {
			f32AddRows(out, x[start:start+len(out)])
		}
	}
)

// f32ReduceKernelsEnabled lets reduceSumFloat32 use f32SumRows8 and f32SumColumns (false: the loops over rows,
// for the tests and benchmarks).
var f32ReduceKernelsEnabled = true

// f32AddRows adds src to dst in place (dst[i] = dst[i] + src[i]), vectorized where the CPU allows.
var f32AddRows = func(dst, src []float32) { f32Kernels[f32Add].vv(dst, dst, src) }

// AddFloat32InPlace is f32AddRows for the other executors (FusedDense's bias): dst[i] = dst[i] + src[i] for
// i < len(src) (len(dst) >= len(src)), the same additions as the scalar loop, vectorized where the CPU allows.
func AddFloat32InPlace(dst, src []float32) { f32AddRows(dst[:len(src)], src) }

// execReduceSumFast is ReduceSum for float32 by rows: each output is the sum of its values in the operand's
// flat order, from 0, as execReduceSumGeneric adds them.
func execReduceSumFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	reduceAxes, _ := node.Data.([]int)
	if operand.RawShape.DType != dtypes.Float32 || len(reduceAxes) == 0 || node.Shape.IsDynamic() {
		return execReduce(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	reduceSumFloat32(output.Flat.([]float32), operand.Flat.([]float32), operand.RawShape.Dimensions, reduceAxes)
	return output, nil
}

// reduceSumFloat32 sums x (dimensions dims) over reduceAxes into out (zeroed first).
func reduceSumFloat32(out, x []float32, dims, reduceAxes []int) {
	clear(out)
	if len(x) == 0 {
		return
	}
	reduced := make([]bool, len(dims))
	for _, a := range reduceAxes {
		reduced[a] = true
	}
	// Merged axes from the innermost out: size, whether reduced, the output stride.
	var axes []rowAxis // aStride: output stride (0 if reduced)
	var isReduced []bool
	outStride := 1
	for axis := len(dims) - 1; axis >= 0; axis-- {
		d := dims[axis]
		if d == 1 {
			continue
		}
		s := outStride
		if reduced[axis] {
			s = 0
		}
		if n := len(axes); n > 0 && isReduced[n-1] == reduced[axis] {
			axes[n-1].dim *= d
		} else {
			axes = append(axes, rowAxis{dim: d, aStride: s})
			isReduced = append(isReduced, reduced[axis])
		}
		if !reduced[axis] {
			outStride *= d
		}
	}
	if len(axes) == 0 { // a single value
		out[0] += x[0]
		return
	}
	rowLen, rowReduced := axes[0].dim, isReduced[0]
	outer := axes[1:]
	rowsPerStep, outStep := 1, 0
	if rowReduced && len(outer) > 0 {
		// The next axis out is kept: its rows go to distinct outputs, summed side by side (each output's
		// values still in their order).
		rowsPerStep, outStep = outer[0].dim, outer[0].aStride
		outer = outer[1:]
	}
	if !rowReduced && len(outer) == 1 && outer[0].aStride == 0 && f32ReduceKernelsEnabled {
		// Every row added to the same outputs (a bias gradient: [16, 900, 32] summed over the batch and cells).
		f32SumColumns(out[:rowLen], x)
		return
	}
	idx := make([]int, len(outer))
	off := 0
	for start := 0; start < len(x); start += rowLen * rowsPerStep {
		switch {
		case rowsPerStep > 1:
			sumRowsFloat32(out, off, outStep, x[start:start+rowLen*rowsPerStep], rowLen)
		case rowReduced:
			acc := out[off]
			for _, v := range x[start : start+rowLen] {
				acc += v
			}
			out[off] = acc
		default:
			f32AddRows(out[off:off+rowLen], x[start:start+rowLen])
		}
		for i := range outer {
			idx[i]++
			off += outer[i].aStride
			if idx[i] < outer[i].dim {
				break
			}
			idx[i] = 0
			off -= outer[i].aStride * outer[i].dim
		}
	}
}

// sumRowsFloat32 adds each row of x (rows of rowLen values) to out[off + r*outStep], the values of a row one by
// one in their order; four rows at a time, so that four independent sums are in flight.
func sumRowsFloat32(out []float32, off, outStep int, x []float32, rowLen int) {
	rows := len(x) / rowLen
	r := 0
	if outStep == 1 && f32ReduceKernelsEnabled {
		r = f32SumRows8(out, off, x, rowLen)
	}
	for ; r+4 <= rows; r += 4 {
		x0 := x[r*rowLen : (r+1)*rowLen]
		x1 := x[(r+1)*rowLen : (r+2)*rowLen]
		x2 := x[(r+2)*rowLen : (r+3)*rowLen]
		x3 := x[(r+3)*rowLen : (r+4)*rowLen]
		o := off + r*outStep
		a0, a1, a2, a3 := out[o], out[o+outStep], out[o+2*outStep], out[o+3*outStep]
		for t := range x0 {
			a0 += x0[t]
			a1 += x1[t]
			a2 += x2[t]
			a3 += x3[t]
		}
		out[o], out[o+outStep], out[o+2*outStep], out[o+3*outStep] = a0, a1, a2, a3
	}
	for ; r < rows; r++ {
		o := off + r*outStep
		acc := out[o]
		for _, v := range x[r*rowLen : (r+1)*rowLen] {
			acc += v
		}
		out[o] = acc
	}
}
