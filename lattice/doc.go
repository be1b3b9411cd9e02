// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package lattice holds the exact group theory of LatFormer (Atzeni, Sachan, Loukas, ICML 2023) in plain
// Go, with no graph and no GoMLX: the actions g of the symmetry group of an m-dimensional hypercubic
// lattice and of scaling, their binary attention masks M_g, composition, and the Fourier and kernel forms.
//
//   - Actions (Theorem 1): Translation (circular), Rotation (4-fold, any pair of equal-length axes),
//     Reflection (per axis), DiagonalReflection, Upscale, Downscale, IdentityAction and Compose; each
//     has Mask (the n x n mask M_g), Apply (g·X on a flattened tensor) and String. AllActions lists the
//     generators of a lattice, Permutation the gather index of an action.
//   - Per-axis primitives: TranslationMask1D, ReflectionMask1D, UpscaleMask1D, Rotation90Mask2D and
//     their grid-relative forms GridTranslationMask1D and GridReflectionMask1D.
//   - Table 1 and Theorem 2: FourierShift gives the shifts o(g), MaskFromFourierShift builds M_g by a
//     DFT along the rows; Corollary 1: KernelFromFourierShift, MaskFromKernels.
//   - Section 4.2: HeatKernel, CycleAdjacency and CycleHeatKernel, the kernels of mask smoothing.
//   - Matrix: a small dense float64 matrix with Kron, MatMul, Transpose, comparison and ASCII output.
//
// The gated mask experts that learn these masks are GoMLX graph code, in package experts.
//
// # Layout convention
//
// A lattice of shape (l_1, ..., l_m) holds n = l_1 * ... * l_m cells, flattened in row-major order: the
// cell with coordinates (c_1, ..., c_m) has flat index ((c_1 * l_2 + c_2) * l_3 + c_3) ... (the last axis
// varies fastest, as in Go slices, GoMLX tensors and NumPy). On a 2-D canvas axis 0 is the row (y) and
// axis 1 the column (x).
//
// A mask M is an n x n matrix whose row i is the attention of query cell i over the key cells: the
// masked attention of a tensor X (n x d) with a binary mask that has exactly one 1 per row is M X
// (Appendix C, base case), so row i of M_g has its 1 in the column of the cell whose value lands on
// cell i after the action g ("output cell i reads input cell j"). With this convention the Kronecker
// product of per-axis masks is the mask of the product action (Theorem 2), M_{g∘h} = M_g M_h (apply h
// first), and the mask of a down-scaling is the transpose of the corresponding up-scaling.
package lattice
