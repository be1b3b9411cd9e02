// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package browser is a small web page to look at ARC tasks and label them, the analogue of the
// annotation interface of the LatFormer paper (Appendix B.3, Figure 7b), served with the standard
// library (net/http, html/template; no JavaScript).
//
// The page shows:
//
//   - a task list with filters: split, category of the annotation (the definition of annotate.Task,
//     i.e. annotate.Default for the training split), solved or not in a results CSV of
//     `latformer arc`, labelled or not, and whether a label agrees with the definition;
//   - per task its pairs as pictures (package render), the annotation's category and per-pair action,
//     and, for each results CSV, the predicted test grids, whether they are exact, the action read from
//     the gates and the mask of that action on the task's canvas (lattice.ParseAction, Action.Mask): with
//     hard gates the model's mask is exactly that mask;
//   - a form to label the task with the core knowledge priors it needs (Priors, the list of Chollet
//     2019 that the paper used) and a free note, saved to a JSON file (LabelStore: an atomic write,
//     merged with the file's current content on every save);
//   - an export of the labels next to the definition: where a person and the definition agree and
//     disagree, as a table (HTML and CSV).
//
// Safety: the server reads only the task files it listed in the data directory at start; a task id from
// a URL is checked against a strict pattern and then looked up among those tasks, never joined into a
// path. Bad input to any form or filter gets a 400 page that says what is wrong; an unknown task a 404;
// a failure inside a handler a 500 page with a short message (the details go to the log, never a stack
// trace to the browser). Cross-origin form posts are refused (http.CrossOriginProtection), and with
// Options.LoopbackOnly requests whose Host is not a loopback name are refused (DNS rebinding). The
// command `latformer serve` binds to 127.0.0.1 unless --addr says otherwise.
package browser
