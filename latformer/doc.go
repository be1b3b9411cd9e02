// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package latformer is the LatFormer model of Atzeni, Sachan and Loukas (ICML 2023) for grid tasks: a
// token embedding of the 10 ARC colors and the pad token on a fixed canvas, one or more LatFormer layers
// (package layers) whose attention is modulated by lattice mask experts (package experts), and per-cell
// logits. A Learner trains a fresh model on the example pairs of one task (with the color-permutation
// augmentation of Appendix B.2), predicts test outputs with discretized gates, and reports the group
// element the experts learned. Learner.Reset and LearnerCache reuse one learner's compiled graphs for
// many tasks on the same canvas (ParamPadPairs pads the batch so that tasks share one batch shape too).
// A Solver solves a task as every experiment does: the lattice search once (LatticeProposals), the expert
// it implies, Learner.Fit started at its proposals, Learner.Predict, and the fallback to the search's top
// proposal or no training at all, as the settings say (ParamGateInit and the gate_init_* and search_*
// keys). Solver.Save keeps the task it solved last: the fitted learner's variables and hyperparameters
// with GoMLX's checkpoint package (ml/model/checkpoint) and what its prediction needs besides (SolutionFile);
// LoadSolution reads it back and SavedSolution.Predict predicts as Solve did, without training, to the bit.
//
// Hyperparameters are declared in Params (package hparams: defaults and allowed values), read from --set
// once by ParseSettings and live in a model.Store (NewStore). A Learner runs on the compute backend it is
// given: programs make one with package backend (backend.New, GoMLX's Go backend as
// "go:ops_parallel,parallelism=-1"; GoMLX's own default "go" runs the same steps 1.1-1.5x slower on 2 cores). The ARC experiment built on the learner is
// package experiments/arc.
package latformer
