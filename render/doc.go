// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package render turns ARC grids and attention masks into pictures (PNG) and
// terminal text, for use by the CLI, the model code and notebooks.
//
// It depends only on the Go standard library.
//
// Conventions used throughout the package:
//
//   - A [Grid] is row-major: g[i][j] is the cell in row i, column j. Cell
//     values 0..9 are the ARC colors of [ARCPalette]; the value [Pad] (10) is
//     the pad token, drawn in [PadColor]. Rows may have different lengths: a
//     grid is as wide as its longest row, and missing cells are treated as
//     pad. Values outside 0..10 are drawn white in images and ANSI output, and
//     as '?' in plain text.
//   - Matrices (attention masks, heat maps) are passed as rows, cols and a
//     flat row-major slice data, with element (i, j) at data[i*cols+j].
//     Functions panic if len(data) < rows*cols.
//   - Image functions take a size in pixels per cell/element; values < 1 are
//     treated as 1.
//   - Text functions return one line per row, each line terminated by "\n".
package render
