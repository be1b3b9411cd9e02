// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/render"
)

// Series returns the models and the families that results hold, in the order of the figure's legend
// and panels (and of the tables): FigureModels, ModelLatFormerSearch, then the other models sorted; the
// families in the order of datasets.SyntheticFamilies, then the others sorted. The order fixes each
// model's colour in FigureSVG whatever the run that wrote the rows.
func Series(results []Result) ([]string, []datasets.SyntheticFamily) {
	var models []string
	var families []datasets.SyntheticFamily
	for _, r := range results {
		if !slices.Contains(models, r.Model) {
			models = append(models, r.Model)
		}
		if !slices.Contains(families, r.Family) {
			families = append(families, r.Family)
		}
	}
	legend := append(slices.Clone(FigureModels), ModelLatFormerSearch)
	slices.SortFunc(models, func(a, b string) int { return compareRanked(legend, a, b) })
	slices.SortFunc(families, func(a, b datasets.SyntheticFamily) int {
		return compareRanked(datasets.SyntheticFamilies, a, b)
	})
	return models, families
}

// compareRanked orders a and b by their index in list, those not in it after, sorted.
func compareRanked[T cmp.Ordered](list []T, a, b T) int {
	rank := func(x T) int {
		if i := slices.Index(list, x); i >= 0 {
			return i
		}
		return len(list)
	}
	if c := rank(a) - rank(b); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// FigureSVG draws Figure 5 from the points (noise 0): one panel per family, test accuracy against the
// number of training pairs (log scale), a line per model with its standard deviation over the tasks as
// a shade, in the order of models (which fixes the colours; Series gives the legend's). The panels sit
// side by side in one SVG document.
func FigureSVG(points []Point, models []string, families []datasets.SyntheticFamily) string {
	const panelW, panelH = 330, 330
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`, panelW*len(families), panelH)
	for i, f := range families {
		var series []render.Series
		for _, m := range models {
			var s render.Series
			s.Name = m
			s.Dashed = m == ModelLatFormerNoSmooth
			for _, p := range points {
				if p.Model == m && p.Family == f && p.Noise == 0 {
					s.X = append(s.X, float64(p.NumTrain))
					s.Y = append(s.Y, p.Mean)
					s.Lo = append(s.Lo, math.Max(0, p.Mean-p.Std))
					s.Hi = append(s.Hi, math.Min(1, p.Mean+p.Std))
				}
			}
			series = append(series, s)
		}
		// A model without points in this panel (a series run on other families only) gets no legend
		// entry when it comes last; the colours go by position, so only the trailing ones are dropped.
		for len(series) > 0 && len(series[len(series)-1].X) == 0 {
			series = series[:len(series)-1]
		}
		panel := render.LineChartSVG(render.LineChart{
			Title: fmt.Sprintf("(%c) %s", 'a'+i, f), XLabel: "training pairs", YLabel: "mean test accuracy",
			LogX: true, YMin: 0, YMax: 1, Width: panelW, Height: panelH, Legend: true,
		}, series)
		// Nest the panel at its place: its own <svg> root gets x and y.
		fmt.Fprintf(&sb, `<g transform="translate(%d 0)">%s</g>`, panelW*i, panel)
	}
	sb.WriteString(`</svg>`)
	return sb.String()
}

// WriteReach writes, per family, the number of training pairs each model needs to reach target mean
// accuracy (ExamplesToReach; "> N" when it does not within the largest size N measured) and the ratio
// of each model's number to LatFormer's.
func WriteReach(w io.Writer, points []Point, models []string, families []datasets.SyntheticFamily, target float64) {
	largest := map[string]int{}
	for _, p := range points {
		k := p.Model + "|" + string(p.Family)
		largest[k] = max(largest[k], p.NumTrain)
	}
	fmt.Fprintf(w, "| training pairs to reach %.2g mean accuracy | %s |\n|---|%s\n", target,
		strings.Join(models, " | "), strings.Repeat("---|", len(models)))
	for _, f := range families {
		cells := make([]string, len(models))
		ref, refOK := ExamplesToReach(points, ModelLatFormer, f, target)
		for i, m := range models {
			n, ok := ExamplesToReach(points, m, f, target)
			switch {
			case ok && refOK && m != ModelLatFormer:
				cells[i] = fmt.Sprintf("%.3g (%.3gx)", n, n/ref)
			case ok:
				cells[i] = fmt.Sprintf("%.3g", n)
			case largest[m+"|"+string(f)] > 0 && refOK:
				cells[i] = fmt.Sprintf("> %d (> %.3gx)",
					largest[m+"|"+string(f)], float64(largest[m+"|"+string(f)])/ref)
			case largest[m+"|"+string(f)] > 0:
				cells[i] = fmt.Sprintf("> %d", largest[m+"|"+string(f)])
			default:
				cells[i] = "—"
			}
		}
		fmt.Fprintf(w, "| %s | %s |\n", f, strings.Join(cells, " | "))
	}
}
