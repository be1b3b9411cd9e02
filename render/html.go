// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"strings"
)

// PNGDataURI encodes img as a "data:image/png;base64,..." URI, for <img src=...> in HTML output
// (notebooks).
func PNGDataURI(img image.Image) (string, error) {
	var buf bytes.Buffer
	if err := EncodePNG(&buf, img); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// ImagesRowHTML lays out images left to right, each with its caption underneath (HTML figure
// elements with alt text equal to the caption). len(captions) must equal len(images).
func ImagesRowHTML(captions []string, images []image.Image) (string, error) {
	if len(captions) != len(images) {
		return "", fmt.Errorf("ImagesRowHTML: %d captions for %d images", len(captions), len(images))
	}
	var sb strings.Builder
	sb.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start">`)
	for i, img := range images {
		uri, err := PNGDataURI(img)
		if err != nil {
			return "", err
		}
		c := html.EscapeString(captions[i])
		fmt.Fprintf(&sb, `<figure style="margin:0;text-align:center">`+
			`<img src="%s" alt="%s" style="image-rendering:pixelated"/>`+
			`<figcaption style="font-size:12px">%s</figcaption></figure>`, uri, c, c)
	}
	sb.WriteString(`</div>`)
	return sb.String(), nil
}

// ProgressHTML renders a progress bar (done of total) with a label, for notebooks that update it in
// place while training.
func ProgressHTML(done, total int, label string) string {
	return fmt.Sprintf(`<div style="font-family:monospace;font-size:12px">`+
		`<progress value="%d" max="%d" style="width:300px"></progress> %d/%d %s</div>`,
		done, max(total, 1), done, total, html.EscapeString(label))
}

// SVGImageHTML wraps an SVG document (a chart of BarChartSVG or LineChartSVG) in an <img> element whose source
// is the document itself (a data: URI), with alt as its text alternative, for notebooks. JupyterLab sanitizes
// the HTML outputs of an untrusted notebook (one opened from a fresh clone): it strips inline <svg> elements,
// leaving their labels as run-together text, and it does not render an untrusted image/svg+xml output at all;
// an <img> with a data: source passes, and the browser draws the SVG as an image (no scripts, no styles leak).
func SVGImageHTML(svg, alt string) string {
	return fmt.Sprintf(`<img src="data:image/svg+xml;base64,%s" alt="%s"/>`,
		base64.StdEncoding.EncodeToString([]byte(svg)), html.EscapeString(alt))
}
