// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package experts holds the gated lattice mask experts of LatFormer (Section 4.1, Appendix A) as GoMLX
// graph code. They are small CNNs that build a soft attention mask from the identity with frozen
// convolution kernels. Their gates are predicted from the layer input (Figure 3b).
//
// An Expert composes the translation, rotation, reflection and scaling experts on per-axis masks.
// Expert.Mask returns a factored LatticeMask, and Dense materializes it. Expert.SmoothedMask adds the
// heat-kernel smoothing of Section 4.2. One table of segments lays out the gates (gates.go), and every
// function that reads or writes gates uses it.
//
// With hard (discretized) gates, the mask is exactly the binary mask M_g of one group element. Package
// lattice has that mask's exact form and the rest of the group theory. The layout convention is
// lattice's: cells are row-major, and row i of a mask is the attention of output cell i.
package experts
