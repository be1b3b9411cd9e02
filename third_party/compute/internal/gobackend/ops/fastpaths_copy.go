// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend"
)

// Transpose and Slice by rows (fastpaths.go): they only move values, so any dtype of 1, 2, 4 or 8 bytes is
// moved as unsigned integers of its size, a contiguous run with copy and otherwise a strided loop.

// flatWords returns the flat data of buf as a slice of unsigned integers of its element size (1, 2, 4 or 8
// bytes), or nil for another size.
func flatWords(buf *gobackend.Buffer) any {
	size := buf.RawShape.DType.Size()
	n := buf.RawShape.Size()
	if n == 0 {
		return nil
	}
	ptr := flatDataPointer(buf.Flat)
	if ptr == nil {
		return nil
	}
	switch size {
	case 1:
		return unsafe.Slice((*uint8)(ptr), n)
	case 2:
		return unsafe.Slice((*uint16)(ptr), n)
	case 4:
		return unsafe.Slice((*uint32)(ptr), n)
	case 8:
		return unsafe.Slice((*uint64)(ptr), n)
	}
	return nil
}

// flatDataPointer returns the address of the first element of a flat slice, or nil when the slice type is
// not one of the plain numeric or bool ones.
func flatDataPointer(flat any) unsafe.Pointer {
	switch f := flat.(type) {
	case []float32:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []float64:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []int32:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []int64:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []uint32:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []uint64:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []int16:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []uint16:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []int8:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []uint8:
		return unsafe.Pointer(unsafe.SliceData(f))
	case []bool:
		return unsafe.Pointer(unsafe.SliceData(f))
	}
	return nil
}

// execTransposeFast is Transpose by rows: axes of size 1 dropped, output axes that are consecutive in the
// operand merged, then either contiguous runs copied (the last axis stays last) or a strided loop.
func execTransposeFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	perm, ok := node.Data.([]int)
	if !ok || node.Shape.IsDynamic() {
		return execTranspose(backend, node, inputs, inputsOwned)
	}
	src := flatWords(operand)
	if src == nil {
		return execTranspose(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	dst := flatWords(output)
	axes := transposeRowAxes(operand.RawShape.Dimensions, perm)
	if s, ok := src.([]uint32); ok && len(axes) >= 2 && transposeParallelEnabled {
		// Large 32-bit transposes split along the output's outermost axis across the workers (a copy: the same
		// values on any split).
		d := dst.([]uint32)
		block := len(d) / axes[0].dim // values per index of the outermost axis
		gobackend.ParallelRange(backend, axes[0].dim, 1, max(1, transposeParallelMinValues/block), func(lo, hi int) {
			sub := append([]rowAxis{{dim: hi - lo, aStride: axes[0].aStride}}, axes[1:]...)
			stridedCopyFrom(d[lo*block:hi*block], s, lo*axes[0].aStride, sub)
		})
		return output, nil
	}
	switch s := src.(type) {
	case []uint8:
		stridedCopy(dst.([]uint8), s, axes)
	case []uint16:
		stridedCopy(dst.([]uint16), s, axes)
	case []uint32:
		stridedCopy(dst.([]uint32), s, axes)
	case []uint64:
		stridedCopy(dst.([]uint64), s, axes)
	}
	return output, nil
}

// transposeParallelMinValues is the least number of 32-bit values a worker takes in a transpose (LatFormer's
// [16, 30, 30, 32] and [14400, 32] at canvas 30 are split in two); smaller ones run on the calling goroutine.
const transposeParallelMinValues = 1 << 17

// transposeParallelEnabled lets execTransposeFast split 32-bit transposes across the workers (false: one
// goroutine, for the tests and benchmarks).
var transposeParallelEnabled = true

// transposeRowAxes returns the output's axes (outermost first) with their operand strides, the axes of size 1
// dropped and output axes merged where they are consecutive in the operand.
func transposeRowAxes(dims, perm []int) []rowAxis {
	strides := make([]int, len(dims))
	s := 1
	for axis := len(dims) - 1; axis >= 0; axis-- {
		strides[axis] = s
		s *= dims[axis]
	}
	var axes []rowAxis // aStride: the operand stride
	for _, p := range perm {
		d := dims[p]
		if d == 1 {
			continue
		}
		if n := len(axes); n > 0 && axes[n-1].aStride == strides[p]*d {
			// The previous output axis is the next-outer operand axis: merge.
			axes[n-1].dim *= d
			axes[n-1].aStride = strides[p]
			continue
		}
		axes = append(axes, rowAxis{dim: d, aStride: strides[p]})
	}
	return axes
}

// stridedCopy fills dst in order from src read along axes (outermost first; aStride the source stride of
// each, the source offset starting at start): the innermost axis copied as a run when its stride is 1.
func stridedCopy[T uint8 | uint16 | uint32 | uint64](dst, src []T, axes []rowAxis) {
	stridedCopyFrom(dst, src, 0, axes)
}

func stridedCopyFrom[T uint8 | uint16 | uint32 | uint64](dst, src []T, start int, axes []rowAxis) {
	if len(axes) == 0 {
		dst[0] = src[start]
		return
	}
	inner := axes[len(axes)-1]
	outer := axes[:len(axes)-1]
	if d32, ok := any(dst).([]uint32); ok && transposeTilesEnabled && len(outer) > 0 && outer[len(outer)-1].aStride == 1 &&
		inner.aStride != 1 && inner.dim >= 8 && outer[len(outer)-1].dim >= 8 {
		transposeWords32(d32, any(src).([]uint32), start, outer[:len(outer)-1], outer[len(outer)-1].dim, inner.dim, inner.aStride)
		return
	}
	if stridedPlanesEnabled && len(outer) > 0 && inner.aStride != 1 && inner.dim < 8 {
		stridedCopyPlanes(dst, src, start, outer[:len(outer)-1], outer[len(outer)-1], inner)
		return
	}
	idx := make([]int, len(outer))
	off := start
	for o := 0; o < len(dst); o += inner.dim {
		row := dst[o : o+inner.dim]
		if inner.aStride == 1 {
			copy(row, src[off:off+inner.dim])
		} else {
			j := off
			for i := range row {
				row[i] = src[j]
				j += inner.aStride
			}
		}
		for i := len(outer) - 1; i >= 0; i-- {
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

// stridedPlanesEnabled lets stridedCopyFrom copy short strided rows plane by plane (stridedCopyPlanes); the
// tests turn it off to compare.
var stridedPlanesEnabled = true

// stridedCopyPlanes is stridedCopyFrom's loop for a short strided innermost axis (fewer than 8 values, as in
// LatFormer's [batch, 20, 2] factors): the two innermost axes (mid, inner) copied as a plane by two nested
// loops, the outer axes' index advanced once per plane instead of once per row of inner.dim values. The same
// words in the same places.
func stridedCopyPlanes[T uint8 | uint16 | uint32 | uint64](dst, src []T, start int, planes []rowAxis, mid, inner rowAxis) {
	idx := make([]int, len(planes))
	off := start
	size := mid.dim * inner.dim
	for o := 0; o < len(dst); o += size {
		out := dst[o : o+size]
		if inner.dim == 2 {
			// Two rows of the operand (inner.aStride apart) interleaved.
			span := (mid.dim-1)*mid.aStride + 1
			a, b := src[off:off+span], src[off+inner.aStride:off+inner.aStride+span]
			for m := range mid.dim {
				out[2*m], out[2*m+1] = a[m*mid.aStride], b[m*mid.aStride]
			}
		} else {
			k, rowOff := 0, off
			for range mid.dim {
				j := rowOff
				for range inner.dim {
					out[k] = src[j]
					k++
					j += inner.aStride
				}
				rowOff += mid.aStride
			}
		}
		for i := len(planes) - 1; i >= 0; i-- {
			idx[i]++
			off += planes[i].aStride
			if idx[i] < planes[i].dim {
				break
			}
			idx[i] = 0
			off -= planes[i].aStride * planes[i].dim
		}
	}
}

// transposeWords32 is stridedCopyFrom where the two innermost output axes are a 2-D transpose: for each
// position of the planes' axes (outermost first, as in stridedCopyFrom), the plane out[c, r] = src[off + c +
// r*stride] (c < m, r < n; out rows n long) by 8x8 tiles in vector registers, the last m % 8 and n % 8 one word
// at a time. The same words in the same places as stridedCopyFrom's loop (a copy: nothing is computed).
func transposeWords32(dst, src []uint32, start int, planes []rowAxis, m, n, stride int) {
	idx := make([]int, len(planes))
	off := start
	for o := 0; o < len(dst); o += m * n {
		out := dst[o : o+m*n]
		c := 0
		for ; c+8 <= m; c += 8 {
			r := 0
			for ; r+8 <= n; r += 8 {
				transpose8x8Words32(&src[off+c+r*stride], stride*4, &out[c*n+r], n*4)
			}
			for ; r < n; r++ {
				for cc := c; cc < c+8; cc++ {
					out[cc*n+r] = src[off+cc+r*stride]
				}
			}
		}
		for ; c < m; c++ {
			for r := range n {
				out[c*n+r] = src[off+c+r*stride]
			}
		}
		for i := len(planes) - 1; i >= 0; i-- {
			idx[i]++
			off += planes[i].aStride
			if idx[i] < planes[i].dim {
				break
			}
			idx[i] = 0
			off -= planes[i].aStride * planes[i].dim
		}
	}
}

// execSliceFast is Slice by rows: the operand read along the output's axes with the slice's starts and
// strides, trailing whole axes merged into the rows.
func execSliceFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	params, ok := node.Data.(*sliceNode)
	if !ok || node.Shape.IsDynamic() || node.Shape.Size() == 0 {
		return execSlice(backend, node, inputs, inputsOwned)
	}
	src := flatWords(operand)
	if src == nil {
		return execSlice(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	dst := flatWords(output)
	dims := operand.RawShape.Dimensions
	axes := sliceRowAxes(dims, output.RawShape.Dimensions, params.starts, params.strides)
	start, stride := 0, 1
	for axis := len(dims) - 1; axis >= 0; axis-- {
		start += params.starts[axis] * stride
		stride *= dims[axis]
	}
	switch s := src.(type) {
	case []uint8:
		stridedCopyFrom(dst.([]uint8), s, start, axes)
	case []uint16:
		stridedCopyFrom(dst.([]uint16), s, start, axes)
	case []uint32:
		stridedCopyFrom(dst.([]uint32), s, start, axes)
	case []uint64:
		stridedCopyFrom(dst.([]uint64), s, start, axes)
	}
	return output, nil
}

// sliceRowAxes returns the output's axes (outermost first) with their operand strides (the slice's stride
// times the operand's), axes of size 1 dropped and an axis merged into the next-inner one where the operand
// walk continues without a jump (the inner axis read whole with stride 1, the outer with stride 1).
func sliceRowAxes(dims, outDims, starts, strides []int) []rowAxis {
	var rev []rowAxis // innermost first
	stride := 1
	for axis := len(dims) - 1; axis >= 0; axis-- {
		d := outDims[axis]
		as := strides[axis] * stride
		stride *= dims[axis]
		if d == 1 {
			continue
		}
		if n := len(rev); n > 0 && rev[n-1].aStride*rev[n-1].dim == as {
			rev[n-1].dim *= d
			continue
		}
		rev = append(rev, rowAxis{dim: d, aStride: as})
	}
	axes := make([]rowAxis, len(rev))
	for i, a := range rev {
		axes[len(rev)-1-i] = a
	}
	return axes
}

// execBroadcastInDimFast is BroadcastInDim by rows: the operand read along the output's axes with stride 0
// on the broadcast ones (axes of size 1 dropped, adjacent axes merged where the walk continues without a
// jump), contiguous runs copied and a broadcast innermost axis filled with its one value. The operand's axes
// must map to increasing output axes (as the generic executor assumes); a single value is left to the
// generic fill.
func execBroadcastInDimFast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	broadcastAxes, ok := node.Data.([]int)
	if !ok || node.Shape.IsDynamic() || node.Shape.Size() == 0 || operand.RawShape.Size() <= 1 ||
		len(broadcastAxes) != operand.RawShape.Rank() {
		return execBroadcastInDim(backend, node, inputs, inputsOwned)
	}
	for i := 1; i < len(broadcastAxes); i++ {
		if broadcastAxes[i] <= broadcastAxes[i-1] {
			return execBroadcastInDim(backend, node, inputs, inputsOwned)
		}
	}
	src := flatWords(operand)
	if src == nil {
		return execBroadcastInDim(backend, node, inputs, inputsOwned)
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	outDims := output.RawShape.Dimensions
	dims := make([]int, len(outDims)) // the operand's dimensions at the output's rank
	for i := range dims {
		dims[i] = 1
	}
	for operandAxis, outputAxis := range broadcastAxes {
		dims[outputAxis] = operand.RawShape.Dimensions[operandAxis]
	}
	var rev []rowAxis // innermost first
	stride := 1
	for axis := len(dims) - 1; axis >= 0; axis-- {
		d := outDims[axis]
		as := stride
		if dims[axis] == 1 {
			as = 0
		}
		stride *= dims[axis]
		if d == 1 {
			continue
		}
		if n := len(rev); n > 0 && rev[n-1].aStride*rev[n-1].dim == as {
			rev[n-1].dim *= d
			continue
		}
		rev = append(rev, rowAxis{dim: d, aStride: as})
	}
	axes := make([]rowAxis, len(rev))
	for i, a := range rev {
		axes[len(rev)-1-i] = a
	}
	switch s := src.(type) {
	case []uint8:
		stridedCopyFrom(flatWords(output).([]uint8), s, 0, axes)
	case []uint16:
		stridedCopyFrom(flatWords(output).([]uint16), s, 0, axes)
	case []uint32:
		stridedCopyFrom(flatWords(output).([]uint32), s, 0, axes)
	case []uint64:
		stridedCopyFrom(flatWords(output).([]uint64), s, 0, axes)
	}
	return output, nil
}
