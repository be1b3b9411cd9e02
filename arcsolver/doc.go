// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package arcsolver is the ARC solver's policy on top of the LatFormer learner (package latformer) and
// the lattice search (package search). A Solver takes a task from its grids to a prediction:
//
//  1. The lattice search runs once on the training pairs (LatticeProposals). It finds the group elements
//     under which one color table maps every input to its output: on the canvas, then on each input's
//     grid, then on boxes read off each input (ParamSearchLattices). With ParamGateInit "search" they
//     start the network. With ParamSearchScreen, a task the search finds nothing for goes untrained.
//  2. The proposals choose the expert (canvas, grid or anchored lattice), and so the learner. Their
//     elements become Fit's starts (latformer.Starts).
//  3. latformer.Learner.Fit trains: restarts from the starts, then from the paper's initialization.
//  4. Without the search, when no restart's hard gates fit (or their fit predicts no grid for a test
//     input: rankedFit), a second learner fits gates over candidate frames read off the inputs
//     (FrameCandidates). The better fit stays.
//  5. When neither fits, a third learner, the first with softmax shifts, fits with ParamShiftRestarts'
//     restarts (fitShifts). The better fit stays.
//  6. latformer.Learner.Predict predicts the test outputs. The search's top proposal may replace the
//     network's predictions (ParamSearchFallback).
//
// Solver.Save and LoadSolution keep a solved task and predict again without training. Recipes names the
// settings of the paper's rows and ours. Params holds the solver's hyperparameters and latformer's.
//
// Files, in the order a task passes them: solver.go (Solver, Solve), search.go (step 1), frames.go and
// candidates.go (step 4), shifts.go (step 5), solution.go (the Solution, and step 6's fallback); saved.go
// (Save, LoadSolution), params.go and recipes.go.
package arcsolver
