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
