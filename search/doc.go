// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package search is the lattice search of the ARC solver: on a task's training pairs it finds the group
// elements g and the one color table f under which y = f(g·x, x) at every cell of every pair, ranks them,
// and hands them to the LatFormer learner as the elements its mask experts start at (package latformer).
// It is the setting of the paper's LatFormer layer, y = f(g·x, x) with g = g(x) ∈ G (Section 2), searched
// on the host: the mask of every element is known exactly (Theorem 1), so the search trains nothing. The
// geometric annotation that defines the ARC subset (package datasets/annotate) asks another question, of all
// of a task's pairs, test outputs included; the two scan a pair with the same code (internal/pairscan).
//
// # From a task to a prediction
//
// The stages, each a section below:
//
//  1. The group (Group): the elements g = T ∘ B searched, a base B (identity, flips, quarter turns,
//     scalings: the bases a mask expert encodes, experts.Expert.Bases) followed by a translation T, on the
//     canvas, on each input's grid (Group.Grid), or on a box read off each input (Group.Anchored).
//  2. The proposals (Propose, Proposal): the elements under which one table f(g·x, x) → y fits every cell of
//     every training pair, each with its table, ranked: fewest parts (Proposal.Cost), then fewest table
//     entries, then the smallest shift.
//  3. The anchors, for the elements that follow the input: selections (Selection: a box read off the input,
//     such as its largest object, one color, the odd one out of its panels), frame rules (FrameRule: crop at
//     one selection's box, act, place against another's) and the frame each rule gives an input (Frame).
//  4. The color roles (RoleTable; Proposal.WithRoles, ProposeRoles): a table that names a pair's background
//     and free color by their role, for the pairs a plain table cannot describe.
//  5. The expert they feed: package latformer turns each proposal into the hard gates of a mask expert
//     (experts.Element) and starts the learner's restarts there; an anchored expert also reads each
//     example's frame.
//  6. The prediction of the search alone (Proposal.Generalize, Proposal.Predict): the top proposal applied to
//     a test input, the solver's SearchOnly and its fallback.
//
// # The group and the proposals
//
// Propose is the search a solver runs on a task: on the task's own canvas (any rows x cols), over a Group
// of elements g = T ∘ B that the mask experts can encode (every base B, such as the experts' reflections,
// scalings and quarter turns, followed by every translation T, circular or zero-fill per axis: AxisShift),
// it keeps the elements under which one table f(g·x, x) → y is consistent over all the pairs it is given,
// every cell of the canvas, pad included, and ranks them (fewest non-identity parts, then fewest table
// entries, then smallest shift). Unlike the annotation (annotate.Task) it looks for one element shared by
// all pairs, and it is given training pairs only: it never sees a test output. A Proposal holds the
// element (Base, Shift, and Action, T ∘ B as the experts print it) and its table (Table, 11x11 keys
// (token of g·x, token of x), -1 where no training cell set one). Propose and the annotation scan a pair
// under an element with the same code (pairscan.Pair.ScanRegion and pairscan.Outside, on B·x in a padded
// layout where translations, zero-fill shifts included, are two index lookups) and merge tables with the
// same merge (pairscan.Merge); the gathers of both come from pairscan.ActionGather, equal to
// datasets.ApplyAction.
//
// Size-relative elements (Group.Grid, grid.go). Where the grids differ in size from pair to pair, a flip of
// an H x W grid at the canvas corner is a flip and a translation by H, and no canvas element fits every
// pair. With Grid the elements act on each input's own grid (GridExtents), as those of a grid-lattice mask
// expert (experts.ParamLattice "grid") do: turns and flips of the grid, circular translations modulo its
// sides, zero-fill shifts of the canvas, scaling last. Elements with the same gathers on every pair are one
// proposal (Proposal.Grid reports such an element).
//
// # Anchors: selections, frame rules and frames
//
// Anchors (Group.Anchored; anchor.go, frame.go): boxes read off each input, so that one element
// g(x) = T(a(x)) ∘ B can follow the input. A selection names a box of the input (its non-background, a
// color, its largest or smallest object, the grid); a frame rule crops the input at the box of one
// selection, lets the base act on the crop, and places the result against the box of another selection (or
// the canvas corner, or the crop's own place), edges aligned and a constant offset added. The
// anchor-relative mask expert (experts.Expert.Anchored) reads the same numbers (Frame) per input.
//
// A Selection is a row of the selection table (selection.go; ParseSelection reads one from its name): one
// of eight kinds (SelectionKind: the canvas corner, the source box, the grid, the foreground, a color, an
// object picked by a property, the odd one out among objects or panels, the grid's tile; objects.go,
// panels.go) and its modifiers (Cell: the first cell; Mirror: the box mirrored through the grid's middle;
// Win: a window of a fixed size at a corner; Inner: the inside). Selection.BoxOf reads its Box off an input,
// and none where it does not single out one box (an absent color, two objects that tie). A FrameRule names a
// source selection (Src), a reference (Dst: another selection, the canvas corner or the source box), the
// edges aligned (Align) and an Offset, or a placement toward or up against the reference (Placement), and may
// up-scale by the input's number of colors (ScaleByColors); its String is "crop(SRC)@DST[edges]+(dr,dc)". On
// an input a rule gives a Frame: the source box R0, C0, H, W, the shift DR, DC that places the result, and
// the scaling SR x SC.
//
// The anchored search (proposeAnchored) tries every base on the crop at every source selection that reads
// a box on every training input, placed at the corner or against every reference with every alignment and
// offset; elements with equal gathers on every pair are one proposal; an element costs one part more for
// its crop, for a placement other than the corner, for an offset, a window and tiles (Proposal.Cost), and
// between elements of as many parts the one whose table copies what it reads ranks first
// (Proposal.Recolorings).
// Proposal.Anchored returns a proposal's rule, Proposal.FrameOf its frame on an input; Gather and Predict of
// an input on which the rule reads no box fail with ErrNoBox.
//
// # Color roles
//
// Color roles (roles.go): a RoleTable names a pair's background and free color by role, for the tasks whose
// colors change from pair to pair (a background that becomes a constant color under objects of changing
// colors; a color recolored to one chosen by each input). Proposal.WithRoles attaches one to a proposal,
// read by Predict only where the plain table cannot map a cell; ProposeRoles searches the elements with a
// role table, for a caller whose Propose found none.
//
// # The expert they feed
//
// Package latformer runs the search and starts the learner at its proposals (latformer/proposals.go).
// arcsolver.Proposals builds the Group of a mask expert: its bases (experts.Expert.Bases) written as actions
// (Expert.ActionOf) with their parts as BaseCost, zero-fill shifts up to the gates' 2^L - 1, Grid or
// Anchored as the expert's lattice says. It calls Propose (ProposeRoles where no plain table fits), attaches
// role tables (Proposal.WithRoles), and turns each proposal's Base and Shift into an experts.Element, the
// expert's own parametrization, whose hard gates select exactly the proposal's Action (a translation the
// gates cannot hold drops the proposal). arcsolver.LatticeProposals tries the canvas, then the grid, then
// (LatticeProposalsAnchored) the anchored elements, and returns the expert whose elements the proposals
// are; the Solver gives the task a learner with that expert. Learner.Fit starts its first restarts at the
// proposals, best first: each sets the gate biases of the gating FFN's last layer to the element's logits
// (experts.Expert.LogitsFor, ±latformer.ParamGateInitMargin) and its weights to zero, so that the hard
// gates select the element whatever the input, and holds the gates there or trains them from there
// (latformer.ParamGateInitTrain). For an anchored expert every example carries its frame under the top
// proposal (arcsolver.WithFrames: Example.Frame is Frame.Ints), and the augmentation keeps the colors the
// rule names fixed.
//
// # The prediction of the search alone
//
// Proposal.Generalize completes a proposal's table for the keys no training cell set (the output every key
// (a, ·) agrees on, else a kept; then what the color permutations that fix black and pad say), and
// Proposal.Predict applies the element and the table to a test input (Proposal.Gather is the element alone).
// The Solver predicts this way with the top proposal where it trains no network (arcsolver.Options
// SearchOnly), and in place of the network where its fallback says so (arcsolver.ParamSearchFallback).
//
// # Files
//
// propose.go: Group, AxisShift, Propose and the canvas search, the rank order. proposal.go: Proposal and
// what it does with an input. roles.go: the color roles and ProposeRoles. grid.go: the size-relative search.
// frame.go: the anchored search. anchor.go: Selection, Box, FrameRule, Frame. objects.go: the objects and
// the selections that pick one. panels.go: the odd ones out, among objects and panels. scaled.go: the
// up-scaling by the input's number of colors (FrameRule.ScaleByColors).
package search
