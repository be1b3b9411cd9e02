// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package experts holds the gated lattice mask experts of LatFormer (Section 4.1, Appendix A) as GoMLX
// graph code: small CNNs that build a soft attention mask from the identity with frozen convolution
// kernels whose gates are predicted from the layer input (Figure 3b).
//
// An Expert composes the translation, rotation, reflection and scaling experts on per-axis masks
// (Expert.Mask returns a factored LatticeMask, Dense materializes it), with heat-kernel smoothing
// (Section 4.2, Expert.SmoothedMask). Its gates are laid out by one table of segments (gates.go):
// GateLogits, GatesFromLogits, GateTensors, DecodeGates, Element, Action and LogitsFor all read it. With
// hard (discretized) gates the mask is exactly the binary mask M_g of one group element, whose exact form
// and the rest of the group theory are in package lattice.
//
// The layout convention (row-major cells, row i of a mask is the attention of output cell i) is
// lattice's.
package experts
