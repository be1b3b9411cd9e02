// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render

import (
	"encoding/xml"
	"fmt"
	"image"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestBarChartSVG checks that the chart is well-formed XML with one bar per (label, series) value and
// bar heights proportional to the values.
func TestBarChartSVG(t *testing.T) {
	svg := BarChartSVG("counts <ours>", []string{"a", "b", "c"}, []string{"ours", "paper"}, [][]float64{{1, 2, 4}, {2, 0, 1}})
	dec := xml.NewDecoder(strings.NewReader(svg))
	bars := 0
	var heights []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			for _, a := range se.Attr {
				if a.Name.Local == "height" {
					heights = append(heights, a.Value)
				}
			}
			bars++
		}
	}
	// 1 background + 6 bars + 2 legend squares.
	if bars != 9 {
		t.Errorf("got %d rects, want 9", bars)
	}
	if heights[5] != "220.0" || heights[2] != "110.0" || heights[4] != "0.0" {
		t.Errorf("bar heights %v: want the value-4 bar 220px, value-2 110px, value-0 0px", heights)
	}
	if !strings.Contains(svg, "counts &lt;ours&gt;") {
		t.Errorf("title not escaped")
	}
}

// TestBarChartSVGManySeries checks a chart of 7 series over 4 labels (Table 2's rows): bars at least 17 px
// wide, a distinct color per series, every legend entry inside the chart, the value labels upright.
func TestBarChartSVGManySeries(t *testing.T) {
	names := []string{"latformer", "attention_abs", "attention_rel", "cnn", "pixelcnn", "transformer", "transformer_aug"}
	values := make([][]float64, len(names))
	for s := range values {
		values[s] = []float64{0.0769, 0.25, 0.5, float64(s) / 10}
	}
	svg := BarChartSVG("rows", []string{"Translate", "Rotate + Translate", "Reflect + Translate", "Scale + Translate"}, names, values)
	var root struct {
		Width  float64 `xml:"width,attr"`
		Height float64 `xml:"height,attr"`
		Rects  []struct {
			X      float64 `xml:"x,attr"`
			Y      float64 `xml:"y,attr"`
			Width  string  `xml:"width,attr"`
			Height string  `xml:"height,attr"`
			Fill   string  `xml:"fill,attr"`
		} `xml:"rect"`
		Texts []struct {
			X         float64 `xml:"x,attr"`
			Y         float64 `xml:"y,attr"`
			Transform string  `xml:"transform,attr"`
			Body      string  `xml:",chardata"`
		} `xml:"text"`
	}
	if err := xml.Unmarshal([]byte(svg), &root); err != nil {
		t.Fatal(err)
	}
	if got := len(root.Rects); got != 1+28+7 {
		t.Fatalf("%d rects, want 36", got)
	}
	colors := map[string]bool{}
	for _, r := range root.Rects[1:29] {
		var w float64
		fmt.Sscan(r.Width, &w)
		if w < 17 {
			t.Errorf("bar %.1f px wide, want >= 17", w)
		}
		colors[r.Fill] = true
	}
	if len(colors) != len(names) {
		t.Errorf("%d bar colors for %d series", len(colors), len(names))
	}
	for _, r := range root.Rects[29:] { // legend squares
		if r.X < 0 || r.X > root.Width || r.Y > root.Height-12 {
			t.Errorf("legend square at (%.0f, %.0f) outside the %.0f x %.0f chart", r.X, r.Y, root.Width, root.Height)
		}
	}
	for _, txt := range root.Texts {
		if slices.Contains(names, txt.Body) && txt.X+7*float64(len(txt.Body)) > root.Width {
			t.Errorf("legend name %q runs past the chart's right edge (x %.0f, width %.0f)", txt.Body, txt.X, root.Width)
		}
	}
	if n := strings.Count(svg, "rotate(-90)"); n != 28 {
		t.Errorf("%d upright value labels, want 28", n)
	}
}

// TestBarChartSVGMissing checks that a NaN value (a model not run on a label) draws no bar and reads "not run", and
// does not spoil the y axis: the largest finite value still sets the scale.
func TestBarChartSVGMissing(t *testing.T) {
	svg := BarChartSVG("rows", []string{"a", "b"}, []string{"x", "y"}, [][]float64{{math.NaN(), 0.5}, {1, 0}})
	var root struct {
		Rects []struct {
			Height string `xml:"height,attr"`
		} `xml:"rect"`
	}
	if err := xml.Unmarshal([]byte(svg), &root); err != nil {
		t.Fatal(err)
	}
	// 1 background + 3 bars (the NaN one left out) + 2 legend squares.
	if got := len(root.Rects); got != 6 {
		t.Fatalf("%d rects, want 6", got)
	}
	var heights []string
	for _, r := range root.Rects[1:4] {
		heights = append(heights, r.Height)
	}
	if want := []string{"220.0", "110.0", "0.0"}; !slices.Equal(heights, want) { // y (1) at a, x (0.5) at b, y (0) at b
		t.Errorf("bar heights %v, want %v", heights, want)
	}
	if strings.Contains(svg, "NaN") || !strings.Contains(svg, ">not run<") {
		t.Errorf("the missing value should read \"not run\", not NaN:\n%s", svg)
	}
}

// TestHTMLTable checks rows, cells and escaping.
func TestHTMLTable(t *testing.T) {
	h := HTMLTable([]string{"x", "y"}, [][]string{{"1", "<2>"}, {"3", "4"}})
	if n := strings.Count(h, "<tr>"); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}
	if n := strings.Count(h, "<td"); n != 4 {
		t.Errorf("%d cells, want 4", n)
	}
	if !strings.Contains(h, "&lt;2&gt;") {
		t.Errorf("cell not escaped: %s", h)
	}
}

// TestImagesRowHTML checks one figure per image, with captions as alt text and PNG data URIs.
func TestImagesRowHTML(t *testing.T) {
	imgs := []image.Image{GridImage(Grid{{1, 2}}, 4), MaskImage(2, 2, []float64{1, 0, 0, 1}, 3)}
	h, err := ImagesRowHTML([]string{"grid", "mask <I>"}, imgs)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(h, `src="data:image/png;base64,`); n != 2 {
		t.Errorf("%d data URIs, want 2", n)
	}
	if !strings.Contains(h, `alt="mask &lt;I&gt;"`) {
		t.Errorf("caption not used as escaped alt text")
	}
	if _, err := ImagesRowHTML([]string{"one"}, imgs); err == nil {
		t.Errorf("want an error for mismatched lengths")
	}
}

// TestLineChartSVG checks that the chart is well-formed XML with one line and one shade per series, that
// NaN points are left out, and that the points sit where the axes say (log2 x, y from YMin to YMax).
func TestLineChartSVG(t *testing.T) {
	nan := math.NaN()
	svg := LineChartSVG(LineChart{Title: "a <b>", LogX: true, YMin: 0, YMax: 1, Width: 200, Height: 200, Legend: true}, []Series{
		{Name: "one", X: []float64{1, 4, 16}, Y: []float64{0, 0.5, 1}, Lo: []float64{0, 0.25, 1}, Hi: []float64{0, 0.75, 1}},
		{Name: "two", X: []float64{1, 4, 16}, Y: []float64{0.5, nan, 1}, Dashed: true},
	})
	dec := xml.NewDecoder(strings.NewReader(svg))
	count := map[string]int{}
	var lines [][]string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err != io.EOF {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
			if se.Name.Local == "polyline" {
				for _, a := range se.Attr {
					if a.Name.Local == "points" {
						lines = append(lines, strings.Fields(a.Value))
					}
				}
			}
		}
	}
	if count["polyline"] != 2 || count["polygon"] != 1 || count["circle"] != 5 {
		t.Errorf("%d lines, %d shades, %d points; want 2, 1 and 5 (the NaN point left out)", count["polyline"], count["polygon"], count["circle"])
	}
	// Plot area: left 48, right 12 -> x from 48 to 188; top 30, bottom 42+18 -> y from 30 to 140.
	want := []string{"48.0,140.0", "118.0,85.0", "188.0,30.0"}
	if len(lines) == 0 || strings.Join(lines[0], " ") != strings.Join(want, " ") {
		t.Errorf("first line at %v, want %v (log2 x: 4 halfway between 1 and 16)", lines, want)
	}
	if !strings.Contains(svg, "a &lt;b&gt;") || !strings.Contains(svg, "stroke-dasharray") {
		t.Errorf("title not escaped or dashed series not dashed")
	}
}
