// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package readmecheck holds the tests that keep the README, the docs/ pages and the repository's
// conventions true: each ```go block of README.md and docs/ must be part of code that an Example test runs,
// every relative link and #anchor of the repository's Markdown files must resolve and every docs/ page be
// reachable from README.md, docs/arc.md must stay a guide of at most 350 lines that links to its detail
// pages, the README's table of the imports between the packages must equal the code's, the tasks solved and
// wall times the docs quote from results/ must be the files', every source file carries the license header,
// and no code cell of a notebook has more than 40 lines.
package readmecheck
