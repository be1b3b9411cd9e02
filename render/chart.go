// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// seriesColors are the fill colors of the chart series, in order (distinct for up to ten series).
var seriesColors = []string{"#0074D9", "#FF851B", "#2ECC40", "#B10DC9", "#AAAAAA", "#FF4136", "#39CCCC",
	"#85144B", "#3D9970", "#001F3F"}

// BarChartSVG draws a grouped bar chart as an SVG document: one group per label, one bar per series
// (values[s][i] is series s at label i), a y axis from 0 to the largest value, value labels on the bars
// and a legend. Used by the notebooks for per-category counts and solved fractions. The chart widens so
// that a bar stays readable (at least 18 px), value labels turn upright when the bars are narrower than
// the labels, and the legend wraps onto more lines when the series names need them. A NaN value is a
// missing one (a model not run on that label): no bar, and "not run" where its value label would be.
func BarChartSVG(title string, labels []string, seriesNames []string, values [][]float64) string {
	const left, bottom, minBarW, uprightBelow = 50, 60, 18.0, 34.0
	nBars := max(1, len(labels)) * max(1, len(values))
	width := max(640, left+20+int(math.Ceil(float64(nBars)*minBarW/0.8)))
	// Legend entries, wrapped to the width.
	type entry struct{ x, row int }
	var legend []entry
	x, row := left, 0
	for _, name := range seriesNames {
		w := 16 + 7*len([]rune(name)) + 24
		if x > left && x+w > width-20 {
			x, row = left, row+1
		}
		legend = append(legend, entry{x, row})
		x += w
	}
	legendH := 18 * max(0, row)
	maxV := 0.0
	for _, s := range values {
		for _, v := range s {
			if !math.IsNaN(v) {
				maxV = math.Max(maxV, v)
			}
		}
	}
	if maxV == 0 {
		maxV = 1
	}
	plotW := float64(width - left - 20)
	groupW := plotW / float64(max(1, len(labels)))
	barW := groupW * 0.8 / float64(max(1, len(values)))
	upright := barW < uprightBelow
	top := 40
	if upright { // room above the tallest bar for its upright label
		top += 30
	}
	height := top + 220 + bottom + legendH
	plotH := float64(220)
	var sb strings.Builder
	fmt.Fprintf(&sb,
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`,
		width, height)
	fmt.Fprintf(&sb, `<rect width="100%%" height="100%%" fill="white"/>`)
	fmt.Fprintf(&sb, `<text x="%d" y="20" font-size="15" font-weight="bold">%s</text>`, left, html.EscapeString(title))
	// Axis and grid.
	for k := 0; k <= 4; k++ {
		v := maxV * float64(k) / 4
		y := float64(top) + plotH*(1-float64(k)/4)
		fmt.Fprintf(&sb, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, left, y, width-20, y)
		fmt.Fprintf(&sb, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`, left-5, y+4, trimFloat(v))
	}
	for i, label := range labels {
		x0 := float64(left) + groupW*float64(i) + groupW*0.1
		for s := range values {
			if i >= len(values[s]) {
				continue
			}
			v := values[s][i]
			x := x0 + barW*float64(s)
			y, text := float64(top)+plotH, "not run" // missing: no bar
			if !math.IsNaN(v) {
				h := plotH * v / maxV
				y, text = y-h, trimFloat(v)
				fmt.Fprintf(&sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, y, barW*0.95, h,
					seriesColors[s%len(seriesColors)])
			}
			if upright {
				fmt.Fprintf(&sb, `<text transform="translate(%.1f,%.1f) rotate(-90)" font-size="10">%s</text>`,
					x+barW/2+3, y-3, text)
			} else {
				fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10">%s</text>`,
					x+barW/2, y-3, text)
			}
		}
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, x0+groupW*0.4, top+int(plotH)+18,
			html.EscapeString(label))
	}
	for s, name := range seriesNames {
		e := legend[s]
		y := top + int(plotH) + bottom - 22 + 18*e.row
		fmt.Fprintf(&sb, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`,
			e.x, y, seriesColors[s%len(seriesColors)])
		fmt.Fprintf(&sb, `<text x="%d" y="%d">%s</text>`, e.x+16, y+10, html.EscapeString(name))
	}
	sb.WriteString(`</svg>`)
	return sb.String()
}

func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// HTMLTable renders a table with a header row as HTML (cells are escaped).
func HTMLTable(header []string, rows [][]string) string {
	var sb strings.Builder
	sb.WriteString(`<table style="border-collapse:collapse">`)
	sb.WriteString("<tr>")
	for _, h := range header {
		fmt.Fprintf(&sb, `<th style="border:1px solid #ccc;padding:3px 8px">%s</th>`, html.EscapeString(h))
	}
	sb.WriteString("</tr>")
	for _, row := range rows {
		sb.WriteString("<tr>")
		for _, c := range row {
			fmt.Fprintf(&sb, `<td style="border:1px solid #ccc;padding:3px 8px">%s</td>`, html.EscapeString(c))
		}
		sb.WriteString("</tr>")
	}
	sb.WriteString("</table>")
	return sb.String()
}

// Series is one line of a LineChartSVG: Y[i] at X[i], with an optional shade from Lo[i] to Hi[i] (nil:
// no shade).
type Series struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64
	Dashed bool
}

// LineChart configures LineChartSVG.
type LineChart struct {
	Title, XLabel, YLabel string
	LogX                  bool    // log2 x axis, ticks at the powers of 2 in range
	YMin, YMax            float64 // y range (both 0: from the data)
	Width, Height         int     // pixels (0: 360 x 280)
	Legend                bool    // draw the series names under the plot
}

// LineChartSVG draws lines with shaded bands (mean ± standard deviation, say) as an SVG document, the
// panels of the sample-efficiency figure (Figure 5). Points that are NaN are skipped.
func LineChartSVG(c LineChart, series []Series) string {
	f := newLineFrame(c, series)
	var sb strings.Builder
	fmt.Fprintf(&sb,
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`,
		f.width, f.height)
	sb.WriteString(`<rect width="100%" height="100%" fill="white"/>`)
	fmt.Fprintf(&sb, `<text x="%.1f" y="18" font-size="13" font-weight="bold" text-anchor="middle">%s</text>`,
		f.left+f.pw/2, html.EscapeString(c.Title))
	f.drawAxes(&sb, c)
	for si, s := range series {
		f.drawSeries(&sb, c, si, s)
	}
	sb.WriteString(`</svg>`)
	return sb.String()
}

// lineFrame is the geometry of a LineChartSVG: the image size, the plot area (left, top, pw x ph pixels)
// and the data range it shows (x in the axis' units: log2 x with LogX).
type lineFrame struct {
	logX                   bool
	width, height          int
	left, top, pw, ph      float64
	xmin, xmax, ymin, ymax float64
}

// newLineFrame lays out the chart: the margins (room for the legend under the plot), the x range from the
// series' points that are drawn, and the y range from c or else from the data.
func newLineFrame(c LineChart, series []Series) lineFrame {
	f := lineFrame{logX: c.LogX, width: c.Width, height: c.Height}
	if f.width == 0 {
		f.width = 360
	}
	if f.height == 0 {
		f.height = 280
	}
	left, right, top, bottom := 48.0, 12.0, 30.0, 42.0
	if c.Legend {
		bottom += 18 * math.Ceil(float64(len(series))/2)
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := c.YMin, c.YMax
	fromData := ymin == 0 && ymax == 0
	if fromData {
		ymin, ymax = math.Inf(1), math.Inf(-1)
	}
	for _, s := range series {
		for i, x := range s.X {
			if math.IsNaN(s.Y[i]) || (c.LogX && x <= 0) {
				continue
			}
			xmin, xmax = math.Min(xmin, f.fx(x)), math.Max(xmax, f.fx(x))
			if fromData {
				ymin, ymax = math.Min(ymin, s.Y[i]), math.Max(ymax, s.Y[i])
			}
		}
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax = 0, 1
	}
	if xmax == xmin {
		xmin, xmax = xmin-1, xmax+1
	}
	if math.IsInf(ymin, 0) || ymax == ymin {
		ymin, ymax = 0, 1
	}
	f.left, f.top = left, top
	f.pw, f.ph = float64(f.width)-left-right, float64(f.height)-top-bottom
	f.xmin, f.xmax, f.ymin, f.ymax = xmin, xmax, ymin, ymax
	return f
}

// fx is x in the axis' units (log2 x with LogX).
func (f lineFrame) fx(x float64) float64 {
	if f.logX {
		return math.Log2(x)
	}
	return x
}

// px and py are the pixel coordinates of a data point (y clamped to the plot).
func (f lineFrame) px(x float64) float64 { return f.left + f.pw*(f.fx(x)-f.xmin)/(f.xmax-f.xmin) }

func (f lineFrame) py(y float64) float64 {
	y = math.Max(f.ymin, math.Min(f.ymax, y))
	return f.top + f.ph*(1-(y-f.ymin)/(f.ymax-f.ymin))
}

// xTicks are the x axis' tick values: the powers of 2 in range with LogX (every other one when more than
// 8), else 5 evenly spaced values.
func (f lineFrame) xTicks() []float64 {
	var ticks []float64
	if f.logX {
		for e := math.Ceil(f.xmin); e <= f.xmax; e++ {
			ticks = append(ticks, math.Exp2(e))
		}
		for len(ticks) > 8 {
			var kept []float64
			for i := 0; i < len(ticks); i += 2 {
				kept = append(kept, ticks[i])
			}
			ticks = kept
		}
		return ticks
	}
	for k := 0; k <= 4; k++ {
		ticks = append(ticks, f.xmin+(f.xmax-f.xmin)*float64(k)/4)
	}
	return ticks
}

// drawAxes draws the grid lines and ticks of both axes, the plot's frame and the axis labels.
func (f lineFrame) drawAxes(sb *strings.Builder, c LineChart) {
	left, top, pw, ph := f.left, f.top, f.pw, f.ph
	for k := 0; k <= 4; k++ {
		v := f.ymin + (f.ymax-f.ymin)*float64(k)/4
		y := f.py(v)
		fmt.Fprintf(sb, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, left, y, left+pw, y)
		fmt.Fprintf(sb, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-4, y+4, trimFloat(v))
	}
	for _, t := range f.xTicks() {
		x := f.px(t)
		fmt.Fprintf(sb, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, x, top, x, top+ph)
		fmt.Fprintf(sb, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, top+ph+14, trimFloat(t))
	}
	fmt.Fprintf(sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`, left, top, pw, ph)
	fmt.Fprintf(sb, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, left+pw/2, top+ph+30,
		html.EscapeString(c.XLabel))
	fmt.Fprintf(sb, `<text transform="translate(12 %.1f) rotate(-90)" text-anchor="middle">%s</text>`, top+ph/2,
		html.EscapeString(c.YLabel))
}

// drawSeries draws series si: its shaded band (when it has Lo and Hi), its line and points, and its legend
// entry (c.Legend).
func (f lineFrame) drawSeries(sb *strings.Builder, c LineChart, si int, s Series) {
	color := seriesColors[si%len(seriesColors)]
	if s.Lo != nil && s.Hi != nil {
		var upper, lower []string
		for i, x := range s.X {
			if math.IsNaN(s.Y[i]) {
				continue
			}
			upper = append(upper, fmt.Sprintf("%.1f,%.1f", f.px(x), f.py(s.Hi[i])))
			lower = append([]string{fmt.Sprintf("%.1f,%.1f", f.px(x), f.py(s.Lo[i]))}, lower...)
		}
		if len(upper) > 0 {
			fmt.Fprintf(sb, `<polygon points="%s" fill="%s" fill-opacity="0.15" stroke="none"/>`,
				strings.Join(append(upper, lower...), " "), color)
		}
	}
	var pts []string
	for i, x := range s.X {
		if !math.IsNaN(s.Y[i]) {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", f.px(x), f.py(s.Y[i])))
		}
	}
	dash := ""
	if s.Dashed {
		dash = ` stroke-dasharray="5 3"`
	}
	fmt.Fprintf(sb, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`, strings.Join(pts, " "),
		color, dash)
	for _, p := range pts {
		xy := strings.Split(p, ",")
		fmt.Fprintf(sb, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`, xy[0], xy[1], color)
	}
	if c.Legend {
		lx := f.left + float64(si%2)*f.pw/2
		ly := f.top + f.ph + 46 + 18*float64(si/2)
		fmt.Fprintf(sb, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`, lx, ly-4,
			lx+18, ly-4, color, dash)
		fmt.Fprintf(sb, `<text x="%.1f" y="%.1f">%s</text>`, lx+22, ly, html.EscapeString(s.Name))
	}
}
