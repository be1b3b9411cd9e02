// Package experts implements the lattice attention masks of LatFormer (Atzeni, Sachan, Loukas,
// ICML 2023, "Infusing Lattice Symmetry Priors in Attention Mechanisms for Sample-Efficient Abstract
// Geometric Reasoning") and the gated convolutional "lattice mask experts" that learn them.
//
// It has two halves:
//
//   - Exact masks (pure Go, no graph): the binary n x n attention masks M_g of every action g of the
//     symmetry group of an m-dimensional hypercubic lattice (translations, 4-fold rotations, axis and
//     diagonal reflections) and of up-/down-scaling (Theorem 1), their Fourier-shift representation
//     (Theorem 2, Table 1) and their kernel form (Corollary 1). See Action, Translation, Rotation,
//     Reflection, DiagonalReflection, Upscale, Downscale, Compose, FourierShift and MaskFromFourierShift.
//
//   - Gated mask experts (GoMLX graph functions): the CNNs of Section 4.1 and Appendix A that build a
//     soft mask from the identity by frozen convolutions whose gates are predicted from the input, their
//     composition, gate discretization and mask smoothing (Section 4.2). See MaskExpert.
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
package experts
