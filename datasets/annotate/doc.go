// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package annotate gives ARC tasks the geometric category they need, by an objective, reproducible
// definition that stands in for the hand annotation of the paper (Section 5.2, Table 2, Appendix B.2).
//
// # What an annotation is
//
// The categories (datasets.Category) are the paper's geometric priors, the columns of Table 2:
// translate (Translate), rotate (Rotate + Translate), reflect (Reflect + Translate), scale (Scale +
// Translate), and none. The setting is group-action learning (Section 2 of the paper): y = f(g·x, x)
// with g = g(x) ∈ G. A task is in category c when, for each of its pairs, some element of the
// category's group G_c, followed by ONE per-cell color table f shared by all pairs, gives the output.
// An Annotation holds the category, the element chosen for each pair, and a Note on why a task is none.
//
// Canvas. Every grid (input and output) is placed at the top-left of a 30x30 canvas with the pad token
// (datasets.PadToken = 10) in all other cells (datasets.ToCanvas). Elements act on the whole canvas, as
// expert actions on the lattice {30, 30} (datasets.ApplyAction: lattice.Permutation where the action is
// a permutation, the first cell of each block for down-scaling, pad where nothing lands).
//
// Group elements. With T_δ the circular translation lattice.Translation{δ}, δ ∈ [0,30)²:
//
//   - G_translate = { T_δ }.
//   - G_rotate    = { T_δ ∘ R^k : k ∈ {0,1,2,3} }, R = lattice.Rotation{0, 1, 1} (90° counter-clockwise).
//   - G_reflect   = { T_δ } ∪ { T_δ ∘ F : F ∈ {Reflection{0} (flip rows), Reflection{1} (flip columns),
//     DiagonalReflection{0,1} (transpose), DiagonalReflection{0,1,Anti} (anti-transpose)} }.
//   - G_scale     = { T_δ } ∪ { T_δ ∘ S : S scales axis 0 by h_r and axis 1 by h_c, h_r, h_c ∈ {1..5},
//     each axis up (lattice.Upscale) or down (lattice.Downscale), (h_r, h_c) ≠ (1, 1) }: 80 elements S,
//     mixed ones (up on one axis, down on the other) being Compose(Upscale, Downscale).
//
// The element B ≠ identity of T_δ ∘ B is its non-translation part; an element is non-trivial when it
// has one (k ≠ 0, a reflection, a scaling ≠ (1,1)), and for translate when δ ≠ 0.
//
// The color table. The pairs of a task are its train pairs and its test pairs that have an output. A
// task fits category c iff there exist an element g_i ∈ G_c for each pair i (the element may differ
// from pair to pair, as g = g(x) in the paper) and one table f: (token of g_i·x_i at a cell, token of
// x_i at the cell) → output token, over the 11x11 token pairs and shared by all pairs, such that the
// output canvas y_i equals f(g_i·x_i, x_i) at all 900 cells of every pair, pad cells included (so f also
// draws the pad region of the output, which encodes the output's size), and at least one g_i is
// non-trivial.
//
// Precedence. A task that g_i = identity for all pairs solves (f depends on x alone: a per-cell
// recoloring that keeps the size) needs no geometry and is none. Otherwise its category is the first of
// datasets.Categories that it fits (translate, then rotate, then reflect, then scale: the simplest group
// first), and none if it fits none.
//
// # The search
//
// Consistent is the search for one category over a set of pairs; Task calls it for each category in
// turn, and a solver can call it on a task's train pairs. For each pair and each element g ∈ G_c the
// pair-local table of f is built by scanning the cells, stopping at the first conflict; elements with
// equal tables form one group. Elements are ordered by base (the listed non-translation elements B in
// order, then the pure translations; for translate only the translations) and then by δ in row-major
// order (δ = 0 first). An element's agreement is the number of cells where the output equals g·x; a
// group is represented by its most agreeing element (ties: element order), and groups are tried most
// agreeing first. One group per pair is chosen by backtracking over the pairs (fewest groups first),
// merging tables, until all pairs agree and a chosen group holds a non-trivial element; the order only
// decides which solution is reported, not whether one exists. Annotation.Actions reports, per pair, the
// representative of the chosen group (for the first pair whose group holds a non-trivial element, the
// best non-trivial one, if no representative is non-trivial). A search stops after MaxMerges table
// merges (ErrSearchCap); Task then calls the task none with a Note, without trying the later categories.
// Cells outside a pair's region (where x and y are both pad) are not scanned one by one: there the only
// constraint is f(a, pad) = pad for each token a that g·x has there, which follows from token counts.
//
// The solver's lattice search on a task's training pairs (Propose: one element shared by the training pairs,
// on the task's own canvas, ranked for the learner) is package search. It scans a pair under an element and
// merges tables with the same code as Consistent (internal/pairscan); it does not import this package.
//
// # Two actions
//
// TwoActions is the setting of a LatFormer layer with two experts: y = f(g₁·x, g₂·x, x), g₁, g₂ ∈ G_c,
// one table over the 11³ token triples shared by all pairs, same canvas, sets and precedence. It keeps
// Task's annotation where Task finds a category or excludes the task, and tries the other tasks again.
// Its search (ConsistentTwoActions) combines, per pair and category, the TwoActionsTopK elements that
// explain the most output cells that x does not; the same backtracking then chooses one pair of elements
// per task pair. Being pruned, it finds a lower bound on the tasks that fit with two actions.
//
// # The committed annotations
//
// Default and DefaultTwoActions return the annotations of the 400 ARC training tasks committed in
// annotations/ (see annotations/README.md for the counts and the tasks where the definition and a
// person disagree). To regenerate them, from the root of the checkout with the ARC data in place:
//
//	latformer annotate --out datasets/annotate/annotations/arc_training.json
//	latformer annotate --two-actions --out datasets/annotate/annotations/arc_training_two_actions.json
//
// The tests pin both files' per-category counts and task ids, and check that a fresh run reproduces them.
package annotate
