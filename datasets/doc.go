// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package datasets holds the data side of LatFormer, in pure Go (no GoMLX):
//
//   - ARC tasks and grids (arc.go, grid.go): typed grids of colors 0..9, tasks of train and test pairs,
//     parsing with errors that name the file and the fault (ParseTask, LoadTask, LoadDir, LoadTasks), and
//     where the data lives (DataDir, ARCSplitDir).
//   - A user's task files and the ARC Prize's (arcprize.go): a task file, a folder of them or a challenges
//     file (LoadTaskFiles, ParseChallenges), the solutions and submission files (ParseSolutions,
//     Submission, ParseSubmission) and the ARC Prize's scoring rule (ScoreSubmission: a test input counts
//     when either attempt is exact, the total the mean of the task scores).
//   - Canvases (grid.go, actiontask.go): a grid at the top-left of a fixed canvas with the pad token
//     (PadToken) elsewhere, as the model sees it (ToCanvas), and a lattice action applied to a canvas
//     (ApplyAction, ActionGather, ActionExamples).
//   - The geometric categories (category.go): Category, the columns of the paper's Table 2, the label
//     that annotations, results rows, LARC selections and a person's labels carry.
//   - LARC (larc.go): the natural-language descriptions of the ARC training tasks (LoadLARC).
//   - Synthetic tasks (synthetic.go): the four geometric families of Appendix B.1 (SyntheticTasks).
//   - Augmentation (augment.go): the color permutations of Appendix B.2 (AugmentationPermutations) and
//     the noisy one-hot inputs of Appendix B.4 (NoisyOneHot).
//   - Download (download.go): ARC-AGI-1 from its GitHub repository, verified (DownloadARC).
//
// The annotation of ARC tasks by the geometric prior they need (the search over group elements and one
// color table, and the committed annotations of the training tasks) is package datasets/annotate.
package datasets
