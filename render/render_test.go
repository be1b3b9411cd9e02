// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func identity(n int) []float64 {
	d := make([]float64, n*n)
	for i := range n {
		d[i*n+i] = 1
	}
	return d
}

func TestGridImageSize(t *testing.T) {
	cases := []struct {
		rows, cols, cell, w, h int
	}{
		{3, 3, 10, 34, 34},  // 3*11+1
		{2, 5, 4, 26, 11},   // w=5*5+1, h=2*5+1
		{30, 30, 1, 61, 61}, // 30*2+1
		{1, 1, 0, 3, 3},     // cell clamped to 1
		{0, 0, 8, 1, 1},     // empty grid
	}
	for _, c := range cases {
		g := make(Grid, c.rows)
		for i := range g {
			g[i] = make([]int, c.cols)
		}
		b := GridImage(g, c.cell).Bounds()
		if b.Dx() != c.w || b.Dy() != c.h || b.Min != (image.Point{}) {
			t.Errorf("GridImage %dx%d cell=%d: bounds %v, want %dx%d at origin", c.rows, c.cols, c.cell, b, c.w, c.h)
		}
	}
}

func TestGridImageColors(t *testing.T) {
	const cell = 5
	g := Grid{
		{0, 1, 2, 3},
		{4, 5, 6, 7},
		{8, 9, Pad, 42},
		{3}, // ragged: missing cells are pad
	}
	img := GridImage(g, cell)
	for i := range 4 {
		for j := range 4 {
			want := PadColor
			if j < len(g[i]) {
				switch v := g[i][j]; {
				case v < 10:
					want = ARCPalette[v]
				case v == Pad:
					want = PadColor
				default:
					want = color.RGBA{255, 255, 255, 255}
				}
			}
			x, y := 1+j*(cell+1)+cell/2, 1+i*(cell+1)+cell/2
			if got := img.RGBAAt(x, y); got != want {
				t.Errorf("cell (%d,%d) center (%d,%d) = %v, want %v", i, j, x, y, got, want)
			}
			// Cell corners too.
			x0, y0 := 1+j*(cell+1), 1+i*(cell+1)
			if got := img.RGBAAt(x0+cell-1, y0+cell-1); got != want {
				t.Errorf("cell (%d,%d) corner = %v, want %v", i, j, got, want)
			}
		}
	}
	// Grid lines: the borders and the separators.
	for _, p := range []image.Point{{0, 0}, {0, 3}, {cell + 1, 3}, {3, cell + 1}, {img.Bounds().Dx() - 1, img.Bounds().Dy() - 1}} {
		if got := img.RGBAAt(p.X, p.Y); got != GridLineColor {
			t.Errorf("grid line pixel %v = %v, want %v", p, got, GridLineColor)
		}
	}
}

func TestARCPalette(t *testing.T) {
	hex := []uint32{0x000000, 0x0074D9, 0xFF4136, 0x2ECC40, 0xFFDC00, 0xAAAAAA, 0xF012BE, 0xFF851B, 0x7FDBFF, 0x870C25}
	for i, h := range hex {
		want := color.RGBA{uint8(h >> 16), uint8(h >> 8), uint8(h), 0xFF}
		if ARCPalette[i] != want {
			t.Errorf("ARCPalette[%d] = %v, want %v", i, ARCPalette[i], want)
		}
	}
}

func TestGridsRow(t *testing.T) {
	const cell = 4
	a := Grid{{1, 2}, {3, 4}}       // 11x11
	b := Grid{{5, 6, 7}}            // 16x6
	c := Grid{{8}, {9}, {1}, {Pad}} // 6x21
	img := GridsRow([]Grid{a, b, c}, cell)
	wantW := 11 + cell + 16 + cell + 6
	if got := img.Bounds(); got.Dx() != wantW || got.Dy() != 21 {
		t.Fatalf("GridsRow bounds = %v, want %dx21", got, wantW)
	}
	// Top-left cell centers of each grid.
	checks := []struct {
		x, y int
		want color.RGBA
	}{
		{1 + cell/2, 1 + cell/2, ARCPalette[1]},
		{11 + cell + 1 + cell/2, 1 + cell/2, ARCPalette[5]},
		{11 + cell + 16 + cell + 1 + cell/2, 1 + 3*(cell+1) + cell/2, PadColor},
		{11 + 1, 1, color.RGBA{}},         // gap: transparent
		{11 + cell + 3, 10, color.RGBA{}}, // below the short grid b
	}
	for _, c := range checks {
		if got := img.RGBAAt(c.x, c.y); got != c.want {
			t.Errorf("pixel (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if b := GridsRow(nil, cell).Bounds(); !b.Empty() {
		t.Errorf("GridsRow(nil) bounds = %v, want empty", b)
	}
}

func TestMaskImageIdentity(t *testing.T) {
	const n, px = 4, 3
	img := MaskImage(n, n, identity(n), px)
	if b := img.Bounds(); b.Dx() != n*px || b.Dy() != n*px {
		t.Fatalf("bounds = %v, want %dx%d", b, n*px, n*px)
	}
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	for i := range n {
		for j := range n {
			want := black
			if i == j {
				want = white
			}
			if got := img.RGBAAt(j*px+px/2, i*px+px/2); got != want {
				t.Errorf("element (%d,%d) = %v, want %v", i, j, got, want)
			}
		}
	}
}

func TestMaskImageClamp(t *testing.T) {
	img := MaskImage(1, 4, []float64{-3, 0.5, 7, 0.2}, 1)
	want := []uint8{0, 128, 255, 51}
	for j, w := range want {
		if got := img.RGBAAt(j, 0); got != (color.RGBA{w, w, w, 255}) {
			t.Errorf("pixel %d = %v, want grey %d", j, got, w)
		}
	}
}

func TestHeatImage(t *testing.T) {
	first, mid, last := viridis[0], viridis[4], viridis[8]
	img := HeatImage(2, 3, []float64{-2, 0, 1, 3, 8, -2}, 2)
	if b := img.Bounds(); b.Dx() != 6 || b.Dy() != 4 {
		t.Fatalf("bounds = %v, want 6x4", b)
	}
	if got := img.RGBAAt(1, 1); got != first {
		t.Errorf("min -> %v, want first color %v", got, first)
	}
	if got := img.RGBAAt(5, 3); got != first {
		t.Errorf("min (second occurrence) -> %v, want %v", got, first)
	}
	if got := img.RGBAAt(3, 3); got != last {
		t.Errorf("max -> %v, want last color %v", got, last)
	}
	if got := img.RGBAAt(1, 3); got != mid { // 3 is halfway between -2 and 8
		t.Errorf("midpoint -> %v, want %v", got, mid)
	}
	if first != (color.RGBA{0x44, 0x01, 0x54, 0xFF}) || last != (color.RGBA{0xFD, 0xE7, 0x25, 0xFF}) {
		t.Errorf("viridis endpoints = %v, %v", first, last)
	}
	c := HeatImage(2, 2, []float64{0.3, 0.3, 0.3, 0.3}, 1)
	for y := range 2 {
		for x := range 2 {
			if got := c.RGBAAt(x, y); got != mid {
				t.Errorf("constant input pixel (%d,%d) = %v, want mid %v", x, y, got, mid)
			}
		}
	}
}

func TestColormapInterpolation(t *testing.T) {
	// Halfway between table points 0 and 1.
	a, b := viridis[0], viridis[1]
	got := colormap(1.0 / 16)
	want := color.RGBA{uint8((int(a.R) + int(b.R) + 1) / 2), uint8((int(a.G) + int(b.G) + 1) / 2), uint8((int(a.B) + int(b.B) + 1) / 2), 255}
	if got != want {
		t.Errorf("colormap(1/16) = %v, want %v", got, want)
	}
}

func TestMaskASCIIIdentity(t *testing.T) {
	s := MaskASCII(60, 60, identity(60), 30)
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 30 {
		t.Fatalf("got %d lines, want 30", len(lines))
	}
	for i, l := range lines {
		if len(l) != 30 {
			t.Fatalf("line %d has %d chars, want 30", i, len(l))
		}
		for j, c := range l {
			want := '.'
			if i == j {
				want = '#'
			}
			if c != want {
				t.Errorf("(%d,%d) = %q, want %q", i, j, c, want)
			}
		}
	}
	// No limit: full size.
	if full := MaskASCII(60, 60, identity(60), 0); strings.Count(full, "\n") != 60 || strings.Count(full, "#") != 60 {
		t.Errorf("maxSide=0: %d lines, %d '#', want 60 and 60", strings.Count(full, "\n"), strings.Count(full, "#"))
	}
}

func TestMaskASCIIThresholds(t *testing.T) {
	got := MaskASCII(2, 3, []float64{0.5, 0.49, 0.1, 0.099, -1, 1}, 0)
	if want := "#++\n..#\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Non-square downsampling with a partial last block: 5 cols, maxSide 2 -> factor 3 -> 2 cols.
	got = MaskASCII(1, 5, []float64{0, 0, 0.2, 0, 0.9}, 2)
	if want := "+#\n"; got != want {
		t.Errorf("downsampled got %q, want %q", got, want)
	}
}

func TestGridText(t *testing.T) {
	got := GridText(Grid{{0, 1, Pad}, {9, 42}})
	if want := "01.\n9?.\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGridANSI(t *testing.T) {
	got := GridANSI(Grid{{2, Pad}})
	want := "\x1b[48;2;255;65;54m  \x1b[49m··\x1b[0m\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if w := VisibleWidth(strings.TrimSuffix(got, "\n")); w != 4 {
		t.Errorf("visible width = %d, want 4", w)
	}
}

func TestSideBySideANSI(t *testing.T) {
	a := GridANSI(Grid{{1, 2, 3}, {4, 5, 6}}) // 2 lines, visible width 6
	b := GridText(Grid{{7}, {8}, {9}})        // 3 lines, width 1
	out := SideBySide(3, a, b)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3: %q", len(lines), out)
	}
	for i, l := range lines {
		if w := VisibleWidth(l); w != 6+3+1 {
			t.Errorf("line %d visible width %d, want 10: %q", i, w, l)
		}
	}
	if !strings.HasSuffix(lines[2], strings.Repeat(" ", 9)+"9") {
		t.Errorf("line 2 = %q, want 9 spaces then '9'", lines[2])
	}
	if got, want := SideBySide(1, "ab\nc", "x\ny\nz\n"), "ab x\nc  y\n   z\n"; got != want {
		t.Errorf("plain SideBySide = %q, want %q", got, want)
	}
	// No trailing padding when the last block ends first.
	if got, want := SideBySide(2, "a\nb", "x"), "a  x\nb\n"; got != want {
		t.Errorf("SideBySide = %q, want %q", got, want)
	}
}

func TestVisibleWidth(t *testing.T) {
	for s, want := range map[string]int{
		"":                          0,
		"abc":                       3,
		"··":                        2,
		"\x1b[48;2;1;2;3m  \x1b[0m": 2,
		"\x1b[49m··x":               3,
	} {
		if got := VisibleWidth(s); got != want {
			t.Errorf("VisibleWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestSavePNGRoundTrip(t *testing.T) {
	img := GridsRow([]Grid{{{1, 2}, {3, Pad}}, {{4}}}, 6)
	path := filepath.Join(t.TempDir(), "a", "b", "grids.png")
	if err := SavePNG(path, img); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Bounds() != img.Bounds() {
		t.Errorf("decoded bounds %v, want %v", dec.Bounds(), img.Bounds())
	}
	x, y := 1+3, 1+3
	if got := color.RGBAModel.Convert(dec.At(x, y)); got != ARCPalette[1] {
		t.Errorf("decoded pixel = %v, want %v", got, ARCPalette[1])
	}
}

func TestSavePNGError(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(file, "sub", "x.png") // parent is a regular file
	err := SavePNG(bad, MaskImage(1, 1, []float64{1}, 1))
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("err = %v, want an error mentioning %s", err, bad)
	}
}

func TestEncodePNG(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodePNG(&buf, HeatImage(3, 5, make([]float64, 15), 2)); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 10 || cfg.Height != 6 {
		t.Errorf("decoded size %dx%d, want 10x6", cfg.Width, cfg.Height)
	}
	if err := EncodePNG(&buf, nil); err == nil {
		t.Error("EncodePNG(nil) returned nil error")
	}
}

func TestShortDataPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MaskImage with short data did not panic")
		}
	}()
	MaskImage(2, 2, []float64{1, 2, 3}, 1)
}

// TestSVGImageHTML: the chart goes as an <img> whose data: source decodes to the SVG, with an escaped alt text.
func TestSVGImageHTML(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><text>a & b</text></svg>`
	h := SVGImageHTML(svg, `chart "x" & y`)
	const prefix = `<img src="data:image/svg+xml;base64,`
	if !strings.HasPrefix(h, prefix) || !strings.HasSuffix(h, `" alt="chart &#34;x&#34; &amp; y"/>`) {
		t.Fatalf("SVGImageHTML = %q", h)
	}
	enc := h[len(prefix):strings.Index(h, `" alt=`)]
	got, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || string(got) != svg {
		t.Fatalf("decoded %q (%v), want %q", got, err, svg)
	}
}

// TestCellsGrid checks that a row-major canvas becomes the grid with cell (i, j) at cells[i*cols+j], pad
// cells kept, and that a length that is not rows*cols panics.
func TestCellsGrid(t *testing.T) {
	g := CellsGrid(2, 3, []int32{1, 2, 3, 4, 5, Pad})
	if want := (Grid{{1, 2, 3}, {4, 5, Pad}}); !reflect.DeepEqual(g, want) {
		t.Errorf("CellsGrid = %v, want %v", g, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("5 cells for 2 x 3: want a panic")
		}
	}()
	CellsGrid(2, 3, []int32{1, 2, 3, 4, 5})
}
