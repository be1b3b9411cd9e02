// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// func transpose8x8Words32(src *uint32, srcRowStrideBytes int, dst *uint32, dstRowStrideBytes int)
//
// dst[j, i] = src[i, j] for i, j < 8 (rows srcRowStrideBytes / dstRowStrideBytes apart): 8 row loads,
// unpacks and shuffles within 128-bit lanes, then the lanes exchanged; 8 row stores. Bits are moved, never
// computed on.
TEXT ·transpose8x8Words32(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ srcRowStrideBytes+8(FP), AX
	MOVQ dst+16(FP), DI
	MOVQ dstRowStrideBytes+24(FP), BX
	LEAQ (AX)(AX*2), CX          // 3 src rows
	LEAQ (SI)(AX*4), DX          // src row 4
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(AX*1), Y1
	VMOVUPS (SI)(AX*2), Y2
	VMOVUPS (SI)(CX*1), Y3
	VMOVUPS (DX), Y4
	VMOVUPS (DX)(AX*1), Y5
	VMOVUPS (DX)(AX*2), Y6
	VMOVUPS (DX)(CX*1), Y7
	VUNPCKLPS Y1, Y0, Y8         // r0_0 r1_0 r0_1 r1_1 | r0_4 r1_4 r0_5 r1_5
	VUNPCKHPS Y1, Y0, Y9         // r0_2 r1_2 r0_3 r1_3 | r0_6 ...
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS $0x44, Y10, Y8, Y0   // column 0 rows 0-3 | column 4
	VSHUFPS $0xEE, Y10, Y8, Y1   // column 1 | column 5
	VSHUFPS $0x44, Y11, Y9, Y2   // column 2 | column 6
	VSHUFPS $0xEE, Y11, Y9, Y3   // column 3 | column 7
	VSHUFPS $0x44, Y14, Y12, Y4  // the same, rows 4-7
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7
	LEAQ (BX)(BX*2), CX          // 3 dst rows
	LEAQ (DI)(BX*4), DX          // dst row 4
	VPERM2F128 $0x20, Y4, Y0, Y8
	VMOVUPS Y8, (DI)
	VPERM2F128 $0x20, Y5, Y1, Y9
	VMOVUPS Y9, (DI)(BX*1)
	VPERM2F128 $0x20, Y6, Y2, Y10
	VMOVUPS Y10, (DI)(BX*2)
	VPERM2F128 $0x20, Y7, Y3, Y11
	VMOVUPS Y11, (DI)(CX*1)
	VPERM2F128 $0x31, Y4, Y0, Y12
	VMOVUPS Y12, (DX)
	VPERM2F128 $0x31, Y5, Y1, Y13
	VMOVUPS Y13, (DX)(BX*1)
	VPERM2F128 $0x31, Y6, Y2, Y14
	VMOVUPS Y14, (DX)(BX*2)
	VPERM2F128 $0x31, Y7, Y3, Y15
	VMOVUPS Y15, (DX)(CX*1)
	VZEROUPPER
	RET
