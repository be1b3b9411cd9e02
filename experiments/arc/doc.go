// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package arc is the ARC experiment of the paper (Section 5.2, Appendix B.2, Table 2): what the
// `latformer arc` command and notebook 04 share.
//
//   - Task selection: SelectTasks, by the committed annotation's category or by ids (Options).
//   - Solving one task: SolveTask places the task on a per-task canvas (datasets.TaskCanvas) or the paper's
//     30 × 30, has arcsolver.Solver solve it from its training pairs only (the lattice search, the expert,
//     the fit, the fallback: one owner for every experiment) and scores the predicted test outputs. A
//     Solver solves many tasks on one backend and reuses the compiled graphs of a canvas for the next task
//     on it (latformer.LearnerCache), optionally with canvases rounded up to a few sizes (SolverOptions).
//   - The run loop: Run hands the selected tasks to experiments/runner (the loop every experiment shares:
//     several workers with a backend and a Solver each, one CSV row per finished task (Header,
//     Result.Record), resume of an interrupted run, no results file overwritten unless asked:
//     Options.Resume, Options.Force); Report receives the progress.
//   - Results: ReadResults, Summarize, WriteTable, and the paper's numbers (PaperTable2, CategoryTitle).
//   - A user's tasks (`latformer solve`): SolveRun solves the tasks of any files (datasets.LoadTaskFiles)
//     with the same Solver through experiments/runner (one row per task, SolveHeader, resume), TaskResult.Second
//     is the second guess of each test input and Submission the ARC Prize submission; Solver.Save saves a
//     solved task (a GoMLX checkpoint of the fitted learner and what its prediction needs) and LoadSaved
//     loads it to predict again without training (Saved.Solve), to the bit.
//
// The model and the per-task learner are package latformer's. The annotation that defines the ARC subset
// (annotate.Task, annotate.Default) is package datasets/annotate: it is a property of the tasks alone (a
// search over group actions on input-output pairs, no model), it is read by other experiments and tools
// besides this one, and keeping it beside datasets lets it be used without GoMLX.
package arc
