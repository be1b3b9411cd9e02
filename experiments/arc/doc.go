// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package arc is the ARC experiment of the paper (Section 5.2, Appendix B.2, Table 2): what the
// `latformer arc` command and notebook 04 share.
//
//   - Task selection: SelectTasks, by the committed annotation's category or by ids (Options).
//   - Solving one task: SolveTask places the task on a per-task canvas (datasets.TaskCanvas) or the paper's
//     30 × 30, has arcsolver.Solver solve it from its training pairs only (the lattice search, the expert,
//     the fit, the fallback: one owner for every experiment) and scores the predicted test outputs. A
//     Solver solves many tasks on one backend and reuses the compiled graphs of a canvas for the next task
//     on it (latformer.LearnerCache), optionally with canvases rounded up to a few sizes (Options.Buckets).
//   - The run loop: Run hands the selected tasks to experiments/runner (the loop every experiment shares:
//     several workers with a backend and a Solver each, one CSV row per finished task (Header,
//     Result.Record), resume of an interrupted run, no results file overwritten unless asked:
//     Options.Resume, Options.Force); Report receives the progress.
//   - Results: ReadResults, Summarize, WriteTable, and the paper's numbers (PaperTable2, CategoryTitle).
//   - A user's tasks (`latformer solve`): SolveRun solves the tasks of any files (datasets.LoadTaskFiles)
//     with the same Solver through experiments/runner (one row per task, SolveHeader, resume), Result.Second
//     is the second guess of each test input and Submission the ARC Prize submission; Solver.Save saves a
//     solved task (a GoMLX checkpoint of the fitted learner and what its prediction needs) and LoadSolution
//     loads it to predict again without training (SavedSolution.Solve), to the bit.
//
// Glossary, from the library to the command line:
//
//   - fit: training one task's learner on its training pairs (latformer.FitResult: steps, restarts, loss).
//   - solution: what solved a task (arcsolver.Solution: the fit, the search's proposals, the predictions);
//     saved and loaded as arcsolver.SavedSolution, here SavedSolution.
//   - result (row): a solution scored against the task's test outputs (Result), one CSV row per task.
//   - options: one type per level: arcsolver.Options (the solver), Options here (a run: the tasks, the
//     model, the canvas, and runner.Options: the results file, the workers, the settings).
//   - settings: hyperparameters as key=value pairs (hparams.Settings), checked by arcsolver.CheckSettings.
//   - recipe: named settings (arcsolver.Recipes, docs/recipes.md), applied before the user's --set.
//
// The model and the per-task learner are package latformer's. The annotation that defines the ARC subset
// (annotate.Task, annotate.Default) is package datasets/annotate: it is a property of the tasks alone (a
// search over group actions on input-output pairs, no model), it is read by other experiments and tools
// besides this one, and keeping it beside datasets lets it be used without GoMLX.
package arc
