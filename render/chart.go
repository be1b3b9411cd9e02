package render

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// seriesColors are the fill colors of the bar-chart series, in order.
var seriesColors = []string{"#0074D9", "#FF851B", "#2ECC40", "#B10DC9", "#AAAAAA"}

// BarChartSVG draws a grouped bar chart as an SVG document: one group per label, one bar per series
// (values[s][i] is series s at label i), a y axis from 0 to the largest value, value labels on the bars
// and a legend. Used by the notebooks for per-category counts and solved fractions.
func BarChartSVG(title string, labels []string, seriesNames []string, values [][]float64) string {
	const width, height, left, bottom, top = 640, 320, 50, 60, 40
	maxV := 0.0
	for _, s := range values {
		for _, v := range s {
			maxV = math.Max(maxV, v)
		}
	}
	if maxV == 0 {
		maxV = 1
	}
	plotW, plotH := float64(width-left-20), float64(height-top-bottom)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`, width, height)
	fmt.Fprintf(&sb, `<rect width="100%%" height="100%%" fill="white"/>`)
	fmt.Fprintf(&sb, `<text x="%d" y="20" font-size="15" font-weight="bold">%s</text>`, left, html.EscapeString(title))
	// Axis and grid.
	for k := 0; k <= 4; k++ {
		v := maxV * float64(k) / 4
		y := float64(top) + plotH*(1-float64(k)/4)
		fmt.Fprintf(&sb, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, left, y, width-20, y)
		fmt.Fprintf(&sb, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`, left-5, y+4, trimFloat(v))
	}
	groupW := plotW / float64(max(1, len(labels)))
	barW := groupW * 0.8 / float64(max(1, len(values)))
	for i, label := range labels {
		x0 := float64(left) + groupW*float64(i) + groupW*0.1
		for s := range values {
			if i >= len(values[s]) {
				continue
			}
			v := values[s][i]
			h := plotH * v / maxV
			x := x0 + barW*float64(s)
			y := float64(top) + plotH - h
			fmt.Fprintf(&sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, y, barW*0.95, h, seriesColors[s%len(seriesColors)])
			fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10">%s</text>`, x+barW/2, y-3, trimFloat(v))
		}
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, x0+groupW*0.4, height-bottom+18, html.EscapeString(label))
	}
	for s, name := range seriesNames {
		x := left + 160*s
		fmt.Fprintf(&sb, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`, x, height-22, seriesColors[s%len(seriesColors)])
		fmt.Fprintf(&sb, `<text x="%d" y="%d">%s</text>`, x+16, height-12, html.EscapeString(name))
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
