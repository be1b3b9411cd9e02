// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package pairscan is the scan that the annotation (package datasets/annotate) and the solver's lattice
// search (package search) share: a pair of an input and an output canvas (Pair: x, the output, the region
// of cells where either is not pad, x in a padded layout), the scan of a pair under an element g = T ∘ B
// into the color table f(g·x, x) → y (ScanRegion, then Outside for the cells outside the region; Scan,
// both), the tables of f with one or two actions and their merge (Table1, Table2, Merge), and the gathers
// of lattice actions on a canvas (ActionGather, equal to datasets.ApplyAction; AxisGather, a translation
// along one axis in the padded layout). Both packages scan a pair with this one code.
package pairscan
