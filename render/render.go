// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Pad is the cell value of the pad token (drawn in PadColor).
const Pad = 10

// ARCPalette holds the 10 standard ARC colors, indexed by cell value:
// 0 black #000000, 1 blue #0074D9, 2 red #FF4136, 3 green #2ECC40,
// 4 yellow #FFDC00, 5 grey #AAAAAA, 6 magenta #F012BE, 7 orange #FF851B,
// 8 light blue #7FDBFF, 9 maroon #870C25. All colors are opaque.
var ARCPalette = [10]color.RGBA{
	{0x00, 0x00, 0x00, 0xFF},
	{0x00, 0x74, 0xD9, 0xFF},
	{0xFF, 0x41, 0x36, 0xFF},
	{0x2E, 0xCC, 0x40, 0xFF},
	{0xFF, 0xDC, 0x00, 0xFF},
	{0xAA, 0xAA, 0xAA, 0xFF},
	{0xF0, 0x12, 0xBE, 0xFF},
	{0xFF, 0x85, 0x1B, 0xFF},
	{0x7F, 0xDB, 0xFF, 0xFF},
	{0x87, 0x0C, 0x25, 0xFF},
}

// PadColor is the color of pad cells (value Pad): dark grey-blue #1E1E2E.
var PadColor = color.RGBA{0x1E, 0x1E, 0x2E, 0xFF}

// GridLineColor is the color of the 1px lines between and around grid cells
// drawn by GridImage: mid grey #555555.
var GridLineColor = color.RGBA{0x55, 0x55, 0x55, 0xFF}

// invalidColor is used for cell values outside 0..Pad.
var invalidColor = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}

// Grid is a row-major 2-D grid of cell values: g[i][j] is row i, column j.
// Values 0..9 are ARC colors and 10 (Pad) is the pad token. Rows may be
// ragged; the grid is as wide as its longest row and missing cells are pad.
type Grid [][]int

// CellsGrid returns the grid of rows x cols cells stored row-major, as a model's canvas holds them (pad cells
// included, drawn in PadColor). It panics when len(cells) is not rows*cols.
func CellsGrid(rows, cols int, cells []int32) Grid {
	if rows < 0 || cols < 0 || len(cells) != rows*cols {
		panic(fmt.Sprintf("render.CellsGrid: %d cells for %d x %d", len(cells), rows, cols))
	}
	g := make(Grid, rows)
	for i := range g {
		g[i] = make([]int, cols)
		for j := range g[i] {
			g[i][j] = int(cells[i*cols+j])
		}
	}
	return g
}

// dims returns the number of rows and the width of the longest row.
func (g Grid) dims() (rows, cols int) {
	for _, r := range g {
		cols = max(cols, len(r))
	}
	return len(g), cols
}

// at returns g[i][j], or Pad if row i is shorter than j+1.
func (g Grid) at(i, j int) int {
	if j < len(g[i]) {
		return g[i][j]
	}
	return Pad
}

// cellColor returns the color for a cell value.
func cellColor(v int) color.RGBA {
	switch {
	case v >= 0 && v < len(ARCPalette):
		return ARCPalette[v]
	case v == Pad:
		return PadColor
	default:
		return invalidColor
	}
}

func fillRect(img *image.RGBA, x0, y0, w, h int, c color.RGBA) {
	for y := y0; y < y0+h; y++ {
		for x := x0; x < x0+w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// GridImage draws g with cell x cell pixels per cell, separated and
// surrounded by 1px lines in GridLineColor; pad cells are drawn in PadColor.
// For a grid of R rows and C columns the image is
// (C*(cell+1)+1) x (R*(cell+1)+1) pixels, and cell (i, j) covers
// x in [1+j*(cell+1), 1+j*(cell+1)+cell), y in [1+i*(cell+1), 1+i*(cell+1)+cell).
// An empty grid yields a 1x1 image. cell < 1 is treated as 1.
func GridImage(g Grid, cell int) *image.RGBA {
	cell = max(cell, 1)
	rows, cols := g.dims()
	w, h := cols*(cell+1)+1, rows*(cell+1)+1
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, 0, 0, w, h, GridLineColor)
	for i := range rows {
		for j := range cols {
			fillRect(img, 1+j*(cell+1), 1+i*(cell+1), cell, cell, cellColor(g.at(i, j)))
		}
	}
	return img
}

// GridsRow draws grids left to right with GridImage(g, cell), separated by a
// gap of cell pixels and aligned at the top. The image is as tall as the
// tallest grid; pixels not covered by any grid are transparent. An empty list
// yields an empty (0x0) image. cell < 1 is treated as 1.
func GridsRow(grids []Grid, cell int) *image.RGBA {
	cell = max(cell, 1)
	if len(grids) == 0 {
		return image.NewRGBA(image.Rectangle{})
	}
	imgs := make([]*image.RGBA, len(grids))
	w, h := cell*(len(grids)-1), 0
	for k, g := range grids {
		imgs[k] = GridImage(g, cell)
		b := imgs[k].Bounds()
		w += b.Dx()
		h = max(h, b.Dy())
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	x := 0
	for _, im := range imgs {
		b := im.Bounds()
		for y := 0; y < b.Dy(); y++ {
			copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x+b.Dx(), y)],
				im.Pix[im.PixOffset(0, y):im.PixOffset(b.Dx(), y)])
		}
		x += b.Dx() + cell
	}
	return out
}

func checkMatrix(fn string, rows, cols int, data []float64) (int, int) {
	rows, cols = max(rows, 0), max(cols, 0)
	if len(data) < rows*cols {
		panic(fmt.Sprintf("render.%s: len(data)=%d < rows*cols=%d*%d", fn, len(data), rows, cols))
	}
	return rows, cols
}

// MaskImage draws a rows x cols matrix (row-major, element (i, j) at
// data[i*cols+j]) as a grey-scale image with px x px pixels per element:
// 1 is white, 0 is black (as Figure 2 of the LatFormer paper). Values are
// clamped to [0, 1]; NaN is drawn black. The image is (cols*px) x (rows*px)
// pixels, with element (i, j) covering x in [j*px, (j+1)*px),
// y in [i*px, (i+1)*px). px < 1 is treated as 1. It panics if
// len(data) < rows*cols.
func MaskImage(rows, cols int, data []float64, px int) *image.RGBA {
	rows, cols = checkMatrix("MaskImage", rows, cols, data)
	px = max(px, 1)
	img := image.NewRGBA(image.Rect(0, 0, cols*px, rows*px))
	for i := range rows {
		for j := range cols {
			v := data[i*cols+j]
			if math.IsNaN(v) {
				v = 0
			}
			l := uint8(math.Round(min(max(v, 0), 1) * 255))
			fillRect(img, j*px, i*px, px, px, color.RGBA{l, l, l, 0xFF})
		}
	}
	return img
}

// viridis is a 9-point approximation of matplotlib's viridis colormap, at
// t = 0, 1/8, ..., 1.
var viridis = [9]color.RGBA{
	{0x44, 0x01, 0x54, 0xFF},
	{0x47, 0x2C, 0x7A, 0xFF},
	{0x3B, 0x51, 0x8B, 0xFF},
	{0x2C, 0x71, 0x8E, 0xFF},
	{0x21, 0x90, 0x8D, 0xFF},
	{0x27, 0xAD, 0x81, 0xFF},
	{0x5C, 0xC8, 0x63, 0xFF},
	{0xAA, 0xDC, 0x32, 0xFF},
	{0xFD, 0xE7, 0x25, 0xFF},
}

// colormap maps t in [0, 1] to viridis by linear interpolation.
func colormap(t float64) color.RGBA {
	t = min(max(t, 0), 1)
	s := t * float64(len(viridis)-1)
	k := min(int(s), len(viridis)-2)
	f := s - float64(k)
	a, b := viridis[k], viridis[k+1]
	lerp := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{lerp(a.R, b.R), lerp(a.G, b.G), lerp(a.B, b.B), 0xFF}
}

// HeatImage draws a rows x cols matrix like MaskImage (same layout and
// sizes) but with a viridis colormap (9-point table, linear interpolation)
// and automatic scaling: the minimum finite value maps to the first
// colormap color (dark purple #440154) and the maximum to the last (yellow
// #FDE725). If all finite values are equal, they are drawn in the middle
// color (#21908D). +Inf is drawn as the maximum, -Inf and NaN as the
// minimum. px < 1 is treated as 1. It panics if len(data) < rows*cols.
func HeatImage(rows, cols int, data []float64, px int) *image.RGBA {
	rows, cols = checkMatrix("HeatImage", rows, cols, data)
	px = max(px, 1)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range data[:rows*cols] {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, cols*px, rows*px))
	for i := range rows {
		for j := range cols {
			v := data[i*cols+j]
			var t float64
			switch {
			case math.IsNaN(v) || math.IsInf(v, -1):
				t = 0
			case math.IsInf(v, 1):
				t = 1
			case hi > lo:
				t = (v - lo) / (hi - lo)
			default:
				t = 0.5
			}
			fillRect(img, j*px, i*px, px, px, colormap(t))
		}
	}
	return img
}

// EncodePNG writes img to w in PNG format.
func EncodePNG(w io.Writer, img image.Image) error {
	if img == nil {
		return fmt.Errorf("render: encode png: nil image")
	}
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// SavePNG writes img as a PNG file at path, creating parent directories as
// needed. Errors mention the path.
func SavePNG(path string, img image.Image) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("render: save %s: %w", path, err)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("render: save %s: %w", path, err)
	}
	if err := EncodePNG(f, img); err != nil {
		_ = f.Close()
		return fmt.Errorf("render: save %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("render: save %s: %w", path, err)
	}
	return nil
}

// GridANSI renders g for a terminal using 24-bit ANSI background colors
// (ESC[48;2;R;G;Bm), two spaces per cell. Pad cells are written as "··" on
// the default background (ESC[49m). Each row ends with a reset (ESC[0m) and
// "\n". Each cell is 2 columns wide on screen.
func GridANSI(g Grid) string {
	rows, cols := g.dims()
	var sb strings.Builder
	for i := range rows {
		for j := range cols {
			v := g.at(i, j)
			if v == Pad {
				sb.WriteString("\x1b[49m··")
				continue
			}
			c := cellColor(v)
			fmt.Fprintf(&sb, "\x1b[48;2;%d;%d;%dm  ", c.R, c.G, c.B)
		}
		sb.WriteString("\x1b[0m\n")
	}
	return sb.String()
}

// GridText renders g as plain text: one character per cell (the digit for
// 0..9, '.' for Pad, '?' for anything else), one row per line, each line
// terminated by "\n".
func GridText(g Grid) string {
	rows, cols := g.dims()
	var sb strings.Builder
	for i := range rows {
		for j := range cols {
			switch v := g.at(i, j); {
			case v >= 0 && v <= 9:
				sb.WriteByte(byte('0' + v))
			case v == Pad:
				sb.WriteByte('.')
			default:
				sb.WriteByte('?')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// MaskASCII renders a rows x cols matrix (row-major, element (i, j) at
// data[i*cols+j]) as text, one character per element: '#' for values
// >= 0.5, '+' for values in [0.1, 0.5), '.' otherwise (including NaN).
// Each row is one line terminated by "\n".
//
// If rows or cols exceeds maxSide (maxSide <= 0 means no limit), that
// dimension is downsampled by an integer factor f = ceil(n/maxSide): each
// output character shows the maximum of a block of f consecutive elements
// along it (the last block may be smaller), giving ceil(n/f) <= maxSide
// characters. It panics if len(data) < rows*cols.
func MaskASCII(rows, cols int, data []float64, maxSide int) string {
	rows, cols = checkMatrix("MaskASCII", rows, cols, data)
	factor := func(n int) int {
		if maxSide <= 0 || n <= maxSide {
			return 1
		}
		return (n + maxSide - 1) / maxSide
	}
	fr, fc := factor(rows), factor(cols)
	var sb strings.Builder
	for bi := 0; bi < rows; bi += fr {
		for bj := 0; bj < cols; bj += fc {
			m := math.Inf(-1)
			for i := bi; i < min(bi+fr, rows); i++ {
				for j := bj; j < min(bj+fc, cols); j++ {
					if v := data[i*cols+j]; !math.IsNaN(v) {
						m = max(m, v)
					}
				}
			}
			switch {
			case m >= 0.5:
				sb.WriteByte('#')
			case m >= 0.1:
				sb.WriteByte('+')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// VisibleWidth returns the number of terminal columns s occupies, counting
// runes and ignoring ANSI escape sequences (CSI sequences such as
// "\x1b[48;2;0;0;0m" and two-byte ESC sequences). Every rune counts as one
// column.
func VisibleWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		w++
	}
	return w
}

// skipEscape returns the index just past the escape sequence starting at
// s[i] == ESC.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	if s[i] != '[' {
		return i + 1 // two-byte sequence
	}
	i++
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7E { // CSI final byte
			break
		}
	}
	return i
}

// splitLines splits a text block into lines, ignoring one trailing "\n".
func splitLines(b string) []string {
	b = strings.TrimSuffix(b, "\n")
	if b == "" {
		return nil
	}
	return strings.Split(b, "\n")
}

// SideBySide joins multi-line text blocks horizontally, top-aligned, with
// gap spaces between them. Each block is padded with spaces to its widest
// line, measured with VisibleWidth (so ANSI escape sequences do not count),
// and blocks with fewer lines are padded with blank lines. No padding is
// added after the last non-empty piece of a line. A single trailing "\n" in
// a block is ignored; every output line is terminated by "\n".
func SideBySide(gap int, blocks ...string) string {
	gap = max(gap, 0)
	lines := make([][]string, len(blocks))
	widths := make([]int, len(blocks))
	n := 0
	for k, b := range blocks {
		lines[k] = splitLines(b)
		n = max(n, len(lines[k]))
		for _, l := range lines[k] {
			widths[k] = max(widths[k], VisibleWidth(l))
		}
	}
	var sb strings.Builder
	for i := range n {
		last := -1
		for k := range blocks {
			if i < len(lines[k]) && lines[k][i] != "" {
				last = k
			}
		}
		for k := 0; k <= last; k++ {
			var l string
			if i < len(lines[k]) {
				l = lines[k][i]
			}
			sb.WriteString(l)
			if k < last {
				sb.WriteString(strings.Repeat(" ", widths[k]-VisibleWidth(l)+gap))
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
