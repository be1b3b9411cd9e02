// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package latformer is the LatFormer model of Atzeni, Sachan and Loukas (ICML 2023) for grid tasks: a
// token embedding of the 10 ARC colors and the pad token on a fixed canvas, one or more LatFormer layers
// (package layers) whose attention is modulated by lattice mask experts (package experts), and per-cell
// logits.
//
// A Learner trains a fresh model on the example pairs of one task (with the color-permutation augmentation
// of Appendix B.2), predicts test outputs with discretized gates, and reports the group element the experts
// learned. Fit may start its first restarts at given elements (Starts): they are data, and this package
// runs no search; package arcsolver makes them from the lattice search. Learner.Reset and LearnerCache reuse
// one learner's compiled graphs for many tasks on the same canvas. Learner.SaveCheckpoint and
// LearnerCache.LoadCheckpoint keep a fitted learner with GoMLX's checkpoint package.
//
// Hyperparameters are declared in Params (package hparams: defaults and allowed values), read from --set
// once by ParseSettings and live in a model.Store (NewStore). A Learner runs on the compute backend it is
// given: programs make one with package backend.
package latformer
