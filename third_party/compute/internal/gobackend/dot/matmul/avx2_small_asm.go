// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "simd/archsimd"

// avx2SmallAsmEnabled lets avx2SmallBlockedVectorCols compute its 4x16 blocks with avx2Kernel4x16SmallFloat32
// (where the CPU has FMA3, which the assembly uses); the tests and benchmarks switch it off to compare. The Go
// compiler's code for the archsimd loop copies registers around each VFMADD213PS and loads each lhs value into a
// scalar register before broadcasting it (as in the large kernel before compute-matmul-large-asm.patch).
var avx2SmallAsmEnabled = archsimd.X86.FMA()

// avx2Kernel4x16SmallFloat32 is in avx2_large_asm_amd64.s.
//
//go:noescape
func avx2Kernel4x16SmallFloat32(lhs *float32, lhsRowStrideBytes int, rhs *float32, rhsRowStrideBytes int, out *float32, outRowStrideBytes, contractingLen, tiles int)

// avx2Kernel2x4TransposedFloat32 is in avx2_large_asm_amd64.s; avx2DotBlock2x4 calls it where avx2SmallAsmEnabled.
//
//go:noescape
func avx2Kernel2x4TransposedFloat32(lhs, rhs, out *float32, rowStrideBytes, chunks, outRowStrideBytes int)
