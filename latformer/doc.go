// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package latformer is the LatFormer model of Atzeni, Sachan and Loukas (ICML 2023) for grid tasks. It
// embeds the 10 ARC colors and the pad token on a fixed canvas, applies one or more LatFormer layers
// (package layers) whose attention lattice mask experts modulate (package experts), and outputs
// per-cell logits.
//
// A Learner trains a fresh model on the example pairs of one task, with the color-permutation
// augmentation of Appendix B.2. It predicts test outputs with discretized gates and reports the group
// element the experts learned. Fit may start its first restarts at given elements (Starts). This package
// runs no search: package arcsolver makes the starts from the lattice search.
//
// Learner.Reset and LearnerCache reuse one learner's compiled graphs for many tasks on the same canvas.
// Learner.SaveCheckpoint and LearnerCache.LoadCheckpoint keep a fitted learner with GoMLX's checkpoint
// package.
//
// Params declares the hyperparameters, with their defaults and allowed values. ParseSettings reads them
// from --set, and a model.Store holds them (NewStore). A Learner runs on the compute backend it is given;
// programs make one with package backend.
package latformer
