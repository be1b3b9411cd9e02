// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"
	"unsafe"

	"github.com/pkg/errors"
)

// avx2LargeAsmEnabled selects avx2LargeKernelAsmFloat32 for the float32 AVX2 large kernel (where the CPU has
// FMA3, which the assembly uses); the tests and benchmarks switch it off to compare with avx2LargeKernelFloat32.
var avx2LargeAsmEnabled = archsimd.X86.FMA()

// avx2Kernel4x16StripFloat32 is in avx2_large_asm_amd64.s.
//
//go:noescape
func avx2Kernel4x16StripFloat32(lhs, rhs, out *float32, contractingLen, tiles, outRowStrideBytes int)

// avx2LargeKernelAsmFloat32 computes what avx2LargeKernelFloat32 computes (same arguments, same packed panels,
// the same 4x16 output tiles of packedOutput, each output the same chain of fused multiply-adds over the
// panel's contracting axis from zero, so the same bits), with the micro-kernel in assembly: the Go compiler's
// code for the archsimd kernel copies registers around its VFMADD213PS and loads each lhs value into a scalar
// register before broadcasting it (about 3 times the instructions of the loop below).
func avx2LargeKernelAsmFloat32(
	packedLHS, packedRHS []float32,
	packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
) {
	if !avx2LargeAsmEnabled {
		avx2LargeKernelFloat32(packedLHS, packedRHS, packedOutput, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols)
		return
	}
	if lhsActiveRows <= 0 || rhsActiveCols <= 0 || contractingLen <= 0 {
		return
	}
	const kernelRows, kernelCols = 4, 16
	paddedRows := (lhsActiveRows + kernelRows - 1) / kernelRows * kernelRows
	tiles := (rhsActiveCols + kernelCols - 1) / kernelCols
	// The assembly writes whole 4x16 tiles: check every address it touches is inside the buffers.
	if len(packedLHS) < paddedRows*contractingLen || len(packedRHS) < tiles*kernelCols*contractingLen ||
		tiles*kernelCols > rhsPanelCols || len(packedOutput) < paddedRows*rhsPanelCols {
		panic(errors.Errorf("avx2LargeKernelAsmFloat32: buffers too small for %d rows x %d columns (k=%d, output row stride %d): "+
			"packed lhs %d, rhs %d, output %d", lhsActiveRows, rhsActiveCols, contractingLen, rhsPanelCols,
			len(packedLHS), len(packedRHS), len(packedOutput)))
	}
	lhsPtr := unsafe.Pointer(unsafe.SliceData(packedLHS))
	rhsPtr := unsafe.SliceData(packedRHS)
	outPtr := unsafe.Pointer(unsafe.SliceData(packedOutput))
	for r := 0; r < lhsActiveRows; r += kernelRows {
		avx2Kernel4x16StripFloat32(
			(*float32)(unsafe.Add(lhsPtr, r*contractingLen*4)), rhsPtr,
			(*float32)(unsafe.Add(outPtr, r*rhsPanelCols*4)),
			contractingLen, tiles, rhsPanelCols*4)
	}
}

// avx2LargeDirectEnabled lets avx2LargePanelDirectFloat32 take the float32 AVX2 large kernel's lhs panels (false:
// every lhs panel packed and every output tile applied from the packed output, for the tests and benchmarks).
var avx2LargeDirectEnabled = true

// avx2LargeDirectMaxSize: the direct panels are taken where the output has at most this many columns or the
// contraction is at most this long. What they save is the lhs packing, about 1/n of the product's work, and
// applying the packed output, about 1/k; with both n and k large that is little, and in LatFormer's step the
// [32, 900] x [900, 900] products (n = k = 900) ran 10-20 % slower direct (thread CPU time, one core), while
// [900, 900] x [900, 33] (n = 33) and [900, 32] x [900, 32]ᵀ (k = 32) ran 1.4-2.5x faster.
const avx2LargeDirectMaxSize = 128

// avx2Kernel4x16StripDirectFloat32 is in avx2_large_asm_amd64.s.
//
//go:noescape
func avx2Kernel4x16StripDirectFloat32(lhs *float32, lhsRowStrideBytes int, rhs, out *float32, contractingLen, tiles, outRowStrideBytes, accumulate int)

// avx2Kernel6x16StripDirectFloat32 is in avx2_large_asm_amd64.s.
//
//go:noescape
func avx2Kernel6x16StripDirectFloat32(lhs *float32, lhsRowStrideBytes int, rhs, out *float32, contractingLen, tiles, outRowStrideBytes, accumulate int)

// avx2LargeDirect6RowsEnabled lets avx2LargePanelDirectFloat32 compute the whole 16-column tiles 6 rows at a time
// (avx2Kernel6x16StripDirectFloat32) before 4 at a time (false: 4 at a time only, for the tests and benchmarks).
var avx2LargeDirect6RowsEnabled = true

// avx2LargePanelDirectFloat32 computes one lhs panel (rows [rowStart, rowStart+rows)) of one contracting panel
// ([kStart, kStart+kLen)) times the packed rhs panel (columns [colStart, colStart+cols)) into outputMatrix, as
// packing the lhs rows, avx2LargeKernelAsmFloat32 and avx2ApplyPackedOutputFloat32 do, with the same bits, but
// without their copies: the micro-kernel reads each 4 lhs rows where they are, and writes (first contracting
// panel) or adds (the others, out = acc + out as the apply step adds) its whole 16-column tiles straight into the
// output. Only the last rows (rows % 4) are packed, and the last columns (cols % 16) go through packedOutput.
// It returns false, having done nothing, where it is switched off, the CPU lacks FMA, or the output has more
// than avx2LargeDirectMaxSize columns and the contraction is longer than that too.
func avx2LargePanelDirectFloat32(
	lhsMatrix, outputMatrix []float32,
	packedLHS, packedRHS, packedOutput []float32,
	rowStart, rows, kStart, kLen, contractingSize, colStart, cols, rhsCrossSize int,
	params CacheParams,
) bool {
	if !avx2LargeDirectEnabled || !avx2LargeAsmEnabled || (rhsCrossSize > avx2LargeDirectMaxSize && contractingSize > avx2LargeDirectMaxSize) {
		return false
	}
	if rows <= 0 || cols <= 0 || kLen <= 0 {
		return true
	}
	const kernelRows, kernelCols = 4, 16
	fullRows := rows - rows%kernelRows
	fullTiles := cols / kernelCols
	tailCols := cols - fullTiles*kernelCols
	first := kStart == 0
	accumulate := 1
	if first {
		accumulate = 0
	}
	tiles := (cols + kernelCols - 1) / kernelCols
	// Every address the assembly reads or writes must be inside the slices.
	if (rowStart+rows-1)*contractingSize+kStart+kLen > len(lhsMatrix) || (rowStart+rows-1)*rhsCrossSize+colStart+cols > len(outputMatrix) ||
		len(packedRHS) < tiles*kernelCols*kLen || len(packedOutput) < kernelRows*params.RHSPanelCrossSize ||
		tiles*kernelCols > params.RHSPanelCrossSize || len(packedLHS) < kernelRows*kLen {
		panic(errors.Errorf("avx2LargePanelDirectFloat32: slices too small for rows [%d, %d) x columns [%d, %d), k [%d, %d): "+
			"lhs %d, output %d, packed rhs %d, packed output %d", rowStart, rowStart+rows, colStart, colStart+cols, kStart, kStart+kLen,
			len(lhsMatrix), len(outputMatrix), len(packedRHS), len(packedOutput)))
	}
	lhsPtr := unsafe.Pointer(unsafe.SliceData(lhsMatrix))
	outPtr := unsafe.Pointer(unsafe.SliceData(outputMatrix))
	rhsPtr := unsafe.SliceData(packedRHS)
	tailRHS := (*float32)(unsafe.Add(unsafe.Pointer(rhsPtr), fullTiles*kernelCols*kLen*4))
	packedOutPtr := unsafe.SliceData(packedOutput)
	// The whole tiles of rows [0, r6) 6 rows at a time, the rest 4 at a time: r6 a multiple of 12, so that the
	// rows left are whole 4-row blocks (a tile is never computed twice: with accumulate that would add it twice).
	r6 := 0
	if avx2LargeDirect6RowsEnabled && fullTiles > 0 {
		r6 = fullRows - fullRows%12
		for r := 0; r < r6; r += 6 {
			row := rowStart + r
			avx2Kernel6x16StripDirectFloat32((*float32)(unsafe.Add(lhsPtr, (row*contractingSize+kStart)*4)), contractingSize*4, rhsPtr,
				(*float32)(unsafe.Add(outPtr, (row*rhsCrossSize+colStart)*4)),
				kLen, fullTiles, rhsCrossSize*4, accumulate)
		}
	}
	for r := 0; r < fullRows; r += kernelRows {
		row := rowStart + r
		lhsRow := (*float32)(unsafe.Add(lhsPtr, (row*contractingSize+kStart)*4))
		if fullTiles > 0 && r >= r6 {
			avx2Kernel4x16StripDirectFloat32(lhsRow, contractingSize*4, rhsPtr,
				(*float32)(unsafe.Add(outPtr, (row*rhsCrossSize+colStart)*4)),
				kLen, fullTiles, rhsCrossSize*4, accumulate)
		}
		if tailCols > 0 {
			// The last tile into packedOutput's first 4 rows, then its tailCols columns applied.
			avx2Kernel4x16StripDirectFloat32(lhsRow, contractingSize*4, tailRHS, packedOutPtr,
				kLen, 1, params.RHSPanelCrossSize*4, 0)
			avx2ApplyPackedOutputFloat32(packedOutput, outputMatrix, first, params.RHSPanelCrossSize,
				row, colStart+fullTiles*kernelCols, rhsCrossSize, kernelRows, tailCols)
		}
	}
	if fullRows < rows {
		// The last rows % 4 rows: packed (zero rows below them), as the packed path computes them.
		row := rowStart + fullRows
		avx2PackLHSKernelRows4(lhsMatrix, packedLHS, row, kStart, contractingSize, rows-fullRows, kLen, kernelRows)
		avx2LargeKernelAsmFloat32(packedLHS, packedRHS, packedOutput, params.LHSPanelCrossSize, params.RHSPanelCrossSize,
			kLen, rows-fullRows, cols)
		avx2ApplyPackedOutputFloat32(packedOutput, outputMatrix, first, params.RHSPanelCrossSize,
			row, colStart, rhsCrossSize, rows-fullRows, cols)
	}
	return true
}
