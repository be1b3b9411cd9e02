// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// func avx2Kernel4x16StripFloat32(lhs, rhs, out *float32, contractingLen, tiles, outRowStrideBytes int)
//
// One strip of 4 packed lhs rows times `tiles` packed 16-column rhs strips (laid out one after the other),
// each 4x16 output tile written (not added) to out, whose rows are outRowStrideBytes apart; tile t goes to
// out + 64*t. Each output is the chain acc = fma(rhs[k], lhs[k], acc) over k in order, from +0, as
// avx2LargeKernelFloat32 computes it, with the accumulators kept in Y0-Y7 and the lhs values broadcast from
// memory (no register copies in the loop: the archsimd version's VFMADD213PS needs them).
TEXT ·avx2Kernel4x16StripFloat32(SB), NOSPLIT, $0-48
	MOVQ lhs+0(FP), SI
	MOVQ rhs+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ contractingLen+24(FP), CX
	MOVQ tiles+32(FP), R8
	MOVQ outRowStrideBytes+40(FP), R10
	LEAQ (R10)(R10*2), R9

tile:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ SI, R11
	MOVQ CX, R12

kloop:
	VMOVUPS (DI), Y8
	VMOVUPS 32(DI), Y9
	VBROADCASTSS (R11), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VBROADCASTSS 4(R11), Y11
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VBROADCASTSS 8(R11), Y12
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VBROADCASTSS 12(R11), Y13
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $64, DI
	ADDQ $16, R11
	DECQ R12
	JNZ kloop

	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	VMOVUPS Y4, (DX)(R10*2)
	VMOVUPS Y5, 32(DX)(R10*2)
	VMOVUPS Y6, (DX)(R9*1)
	VMOVUPS Y7, 32(DX)(R9*1)
	ADDQ $64, DX
	DECQ R8
	JNZ tile

	VZEROUPPER
	RET

// func avx2Kernel4x16StripDirectFloat32(lhs *float32, lhsRowStrideBytes int, rhs, out *float32, contractingLen, tiles, outRowStrideBytes, accumulate int)
//
// avx2Kernel4x16StripFloat32 with the 4 lhs rows read where they are (row i at lhs + i*lhsRowStrideBytes, its
// values consecutive) instead of from a packed strip, and, where accumulate != 0, each tile added to what out
// holds (out = acc + out) instead of written: the same chains of fused multiply-adds, broadcast from the same
// values, so the same bits as packing the rows and applying the packed output.
TEXT ·avx2Kernel4x16StripDirectFloat32(SB), NOSPLIT, $0-64
	MOVQ lhs+0(FP), SI
	MOVQ lhsRowStrideBytes+8(FP), R13
	MOVQ rhs+16(FP), DI
	MOVQ out+24(FP), DX
	MOVQ contractingLen+32(FP), CX
	MOVQ tiles+40(FP), R8
	MOVQ outRowStrideBytes+48(FP), R10
	MOVQ accumulate+56(FP), BX
	LEAQ (R10)(R10*2), R9
	LEAQ (R13)(R13*2), AX

dtile:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ SI, R11
	MOVQ CX, R12

dkloop:
	VMOVUPS (DI), Y8
	VMOVUPS 32(DI), Y9
	VBROADCASTSS (R11), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VBROADCASTSS (R11)(R13*1), Y11
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VBROADCASTSS (R11)(R13*2), Y12
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VBROADCASTSS (R11)(AX*1), Y13
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $64, DI
	ADDQ $4, R11
	DECQ R12
	JNZ dkloop

	TESTQ BX, BX
	JZ dstore
	VADDPS (DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS (DX)(R10*1), Y2, Y2
	VADDPS 32(DX)(R10*1), Y3, Y3
	VADDPS (DX)(R10*2), Y4, Y4
	VADDPS 32(DX)(R10*2), Y5, Y5
	VADDPS (DX)(R9*1), Y6, Y6
	VADDPS 32(DX)(R9*1), Y7, Y7

dstore:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	VMOVUPS Y4, (DX)(R10*2)
	VMOVUPS Y5, 32(DX)(R10*2)
	VMOVUPS Y6, (DX)(R9*1)
	VMOVUPS Y7, 32(DX)(R9*1)
	ADDQ $64, DX
	DECQ R8
	JNZ dtile

	VZEROUPPER
	RET

// func avx2Kernel6x16StripDirectFloat32(lhs *float32, lhsRowStrideBytes int, rhs, out *float32, contractingLen, tiles, outRowStrideBytes, accumulate int)
//
// avx2Kernel4x16StripDirectFloat32 for 6 lhs rows at a time: 12 accumulators (each rhs vector pair loaded once for
// 6 rows instead of 4, and 12 independent chains to cover the fused multiply-add's latency), each output the same
// chain of fused multiply-adds from +0 over k in order, then out = acc + out where accumulate != 0: the same bits.
TEXT ·avx2Kernel6x16StripDirectFloat32(SB), NOSPLIT, $0-64
	MOVQ lhs+0(FP), SI
	MOVQ lhsRowStrideBytes+8(FP), R13
	MOVQ rhs+16(FP), DI
	MOVQ out+24(FP), DX
	MOVQ contractingLen+32(FP), CX
	MOVQ tiles+40(FP), R8
	MOVQ outRowStrideBytes+48(FP), R10
	LEAQ (R10)(R10*2), R9
	LEAQ (R13)(R13*2), AX
	LEAQ (R13)(R13*4), BX

d6tile:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	MOVQ SI, R11
	MOVQ CX, R12

d6kloop:
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VBROADCASTSS (R11), Y14
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VBROADCASTSS (R11)(R13*1), Y15
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS (R11)(R13*2), Y14
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VBROADCASTSS (R11)(AX*1), Y15
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS (R11)(R13*4), Y14
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VBROADCASTSS (R11)(BX*1), Y15
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11
	ADDQ $64, DI
	ADDQ $4, R11
	DECQ R12
	JNZ d6kloop

	LEAQ (R10)(R10*4), R12
	MOVQ accumulate+56(FP), R11
	TESTQ R11, R11
	JZ d6store
	VADDPS (DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS (DX)(R10*1), Y2, Y2
	VADDPS 32(DX)(R10*1), Y3, Y3
	VADDPS (DX)(R10*2), Y4, Y4
	VADDPS 32(DX)(R10*2), Y5, Y5
	VADDPS (DX)(R9*1), Y6, Y6
	VADDPS 32(DX)(R9*1), Y7, Y7
	VADDPS (DX)(R10*4), Y8, Y8
	VADDPS 32(DX)(R10*4), Y9, Y9
	VADDPS (DX)(R12*1), Y10, Y10
	VADDPS 32(DX)(R12*1), Y11, Y11

d6store:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	VMOVUPS Y4, (DX)(R10*2)
	VMOVUPS Y5, 32(DX)(R10*2)
	VMOVUPS Y6, (DX)(R9*1)
	VMOVUPS Y7, 32(DX)(R9*1)
	VMOVUPS Y8, (DX)(R10*4)
	VMOVUPS Y9, 32(DX)(R10*4)
	VMOVUPS Y10, (DX)(R12*1)
	VMOVUPS Y11, 32(DX)(R12*1)
	ADDQ $64, DX
	DECQ R8
	JNZ d6tile

	VZEROUPPER
	RET

// func avx2Kernel4x16SmallFloat32(lhs *float32, lhsRowStrideBytes int, rhs *float32, rhsRowStrideBytes int, out *float32, outRowStrideBytes, contractingLen, tiles int)
//
// The small non-transposed kernel's 4x16 blocks (avx2SmallBlockedVectorCols) from unpacked operands: 4 lhs rows
// (row i at lhs + i*lhsRowStrideBytes, its values consecutive) times `tiles` 16-column blocks of the rhs (row k of
// a block at rhs + k*rhsRowStrideBytes, block t at rhs + 64*t), each 4x16 output tile written to out + 64*t (rows
// outRowStrideBytes apart). Each output is the chain acc = fma(lhs[k], rhs[k], acc) over k in order from +0, as
// avx2SmallBlockedVectorCols computes it.
TEXT ·avx2Kernel4x16SmallFloat32(SB), NOSPLIT, $0-64
	MOVQ lhs+0(FP), SI
	MOVQ lhsRowStrideBytes+8(FP), R13
	MOVQ rhs+16(FP), DI
	MOVQ rhsRowStrideBytes+24(FP), BX
	MOVQ out+32(FP), DX
	MOVQ outRowStrideBytes+40(FP), R10
	MOVQ contractingLen+48(FP), CX
	MOVQ tiles+56(FP), R8
	LEAQ (R13)(R13*2), AX

stile:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ SI, R11
	MOVQ DI, R9
	MOVQ CX, R12

skloop:
	VMOVUPS (R9), Y8
	VMOVUPS 32(R9), Y9
	VBROADCASTSS (R11), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VBROADCASTSS (R11)(R13*1), Y11
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VBROADCASTSS (R11)(R13*2), Y12
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VBROADCASTSS (R11)(AX*1), Y13
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ BX, R9
	ADDQ $4, R11
	DECQ R12
	JNZ skloop

	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	LEAQ (DX)(R10*2), R11
	VMOVUPS Y4, (R11)
	VMOVUPS Y5, 32(R11)
	VMOVUPS Y6, (R11)(R10*1)
	VMOVUPS Y7, 32(R11)(R10*1)
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ R8
	JNZ stile

	VZEROUPPER
	RET

// func avx2Kernel2x4TransposedFloat32(lhs, rhs, out *float32, rowStrideBytes, chunks, outRowStrideBytes int)
//
// avx2DotBlock2x4's vector part: 2 lhs rows and 4 rhs rows (both rowStrideBytes apart, values consecutive), an
// 8-lane accumulator per (lhs row, rhs row) pair of fused multiply-adds over `chunks` 8-wide chunks in order from
// +0, each reduced as avx2ReduceSum4x8 does (high half + low half, then pairs added horizontally twice), the 4
// outputs of lhs row i stored at out + i*outRowStrideBytes.
TEXT ·avx2Kernel2x4TransposedFloat32(SB), NOSPLIT, $0-48
	MOVQ lhs+0(FP), SI
	MOVQ rhs+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ rowStrideBytes+24(FP), R13
	MOVQ chunks+32(FP), CX
	MOVQ outRowStrideBytes+40(FP), R10
	LEAQ (SI)(R13*1), R12
	LEAQ (DI)(R13*1), R8
	LEAQ (DI)(R13*2), R9
	LEAQ (R8)(R13*2), BX
	XORQ R11, R11
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

tloop:
	VMOVUPS (SI)(R11*1), Y8
	VMOVUPS (R12)(R11*1), Y9
	VMOVUPS (DI)(R11*1), Y10
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y10, Y9, Y4
	VMOVUPS (R8)(R11*1), Y11
	VFMADD231PS Y11, Y8, Y1
	VFMADD231PS Y11, Y9, Y5
	VMOVUPS (R9)(R11*1), Y12
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y12, Y9, Y6
	VMOVUPS (BX)(R11*1), Y13
	VFMADD231PS Y13, Y8, Y3
	VFMADD231PS Y13, Y9, Y7
	ADDQ $32, R11
	DECQ CX
	JNZ tloop

	VEXTRACTF128 $1, Y0, X8
	VADDPS X0, X8, X8
	VEXTRACTF128 $1, Y1, X9
	VADDPS X1, X9, X9
	VEXTRACTF128 $1, Y2, X10
	VADDPS X2, X10, X10
	VEXTRACTF128 $1, Y3, X11
	VADDPS X3, X11, X11
	VHADDPS X9, X8, X8
	VHADDPS X11, X10, X10
	VHADDPS X10, X8, X8
	VMOVUPS X8, (DX)

	VEXTRACTF128 $1, Y4, X8
	VADDPS X4, X8, X8
	VEXTRACTF128 $1, Y5, X9
	VADDPS X5, X9, X9
	VEXTRACTF128 $1, Y6, X10
	VADDPS X6, X10, X10
	VEXTRACTF128 $1, Y7, X11
	VADDPS X7, X11, X11
	VHADDPS X9, X8, X8
	VHADDPS X11, X10, X10
	VHADDPS X10, X8, X8
	VMOVUPS X8, (DX)(R10*1)

	VZEROUPPER
	RET

// func avx2Lanes4x16AccFloat32(lhs *uint32, lhsRowStrideBytes int, rT *uint32, kStrideBytes int, chunks int, acc *float32)
//
// avx2SmallLanes4x16's accumulators and their tree: for t = 0..7, accumulator t of rows 0..3 (lhs rows,
// lhsRowStrideBytes apart) and columns 0..15 (rT rows, kStrideBytes apart) is the chain, from zero, of
// VFMADD231PS over c = 0..chunks-1 of lhs[i, 8c+t] (broadcast) times rT[8c+t, 0..15]; stored at acc[(i*2+h)*64
// + t*8], then each (i, h)'s 8 accumulators are added in the tree's order ((a4+a0)+(a5+a1)) + ((a6+a2)+(a7+a3))
// and the sum stored at acc[(i*2+h)*64]. chunks >= 1.
TEXT ·avx2Lanes4x16AccFloat32(SB), NOSPLIT, $0-48
	MOVQ lhs+0(FP), SI
	MOVQ lhsRowStrideBytes+8(FP), R8
	MOVQ rT+16(FP), DI
	MOVQ kStrideBytes+24(FP), R9
	MOVQ chunks+32(FP), R10
	MOVQ acc+40(FP), DX
	LEAQ (R8)(R8*2), R11   // 3 row strides
	MOVQ R9, R12
	SHLQ $3, R12           // 8 k strides: one chunk of rT rows
	XORQ R13, R13          // t

lanes4t:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	LEAQ (SI)(R13*4), AX   // &lhs[0, t]
	MOVQ R13, BX
	IMULQ R9, BX
	ADDQ DI, BX            // &rT[t, 0]
	MOVQ R10, CX

lanes4c:
	VMOVUPS (BX), Y8
	VMOVUPS 32(BX), Y9
	VBROADCASTSS (AX), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VBROADCASTSS (AX)(R8*1), Y11
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VBROADCASTSS (AX)(R8*2), Y12
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VBROADCASTSS (AX)(R11*1), Y13
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $32, AX
	ADDQ R12, BX
	DECQ CX
	JNZ lanes4c

	MOVQ R13, R14
	SHLQ $5, R14
	ADDQ DX, R14           // &acc[t*8]
	VMOVUPS Y0, (R14)
	VMOVUPS Y1, 256(R14)
	VMOVUPS Y2, 512(R14)
	VMOVUPS Y3, 768(R14)
	VMOVUPS Y4, 1024(R14)
	VMOVUPS Y5, 1280(R14)
	VMOVUPS Y6, 1536(R14)
	VMOVUPS Y7, 1792(R14)
	INCQ R13
	CMPQ R13, $8
	JLT lanes4t

	MOVQ $8, CX
	MOVQ DX, R14

lanes4tree:
	VMOVUPS 128(R14), Y0
	VADDPS (R14), Y0, Y0   // a4 + a0
	VMOVUPS 160(R14), Y1
	VADDPS 32(R14), Y1, Y1 // a5 + a1
	VADDPS Y1, Y0, Y0
	VMOVUPS 192(R14), Y2
	VADDPS 64(R14), Y2, Y2 // a6 + a2
	VMOVUPS 224(R14), Y3
	VADDPS 96(R14), Y3, Y3 // a7 + a3
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VMOVUPS Y0, (R14)
	ADDQ $256, R14
	DECQ CX
	JNZ lanes4tree
	VZEROUPPER
	RET
