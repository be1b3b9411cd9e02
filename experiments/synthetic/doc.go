// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package synthetic runs the paper's experiments on the synthetic geometric tasks of Appendix B.1
// (datasets.SyntheticTasks): sample efficiency (Figure 5: test accuracy against the number of training
// pairs, for LatFormer, LatFormer without smoothing and the attention and Transformer baselines, and
// beside them LatFormer whose gates start at the elements an exact search over the training pairs
// determines, ModelLatFormerSearch) and robustness to noise (Table 4: LatFormer on 32 training pairs with
// the one-hot noise of Appendix B.4).
//
// A run is a list of units, one training of one model on the first n training pairs of one task, each
// scored by its exact-match accuracy on the task's test pairs. Results go to a CSV, one row per unit as
// it finishes, so that an interrupted run loses nothing and Options.Resume continues it; Summarize turns
// the rows into the mean and standard deviation over the tasks of a family (the figure's curves and
// shades, the table's cells), and ExamplesToReach reads off how many examples a model needs.
//
// Quick and Full return the settings of `latformer sample-efficiency` and `latformer noise` (--quick for
// CI, the default for the numbers of docs/sample-efficiency.md and docs/noise.md); every field can be changed.
package synthetic
