// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package registration is our analogue of the paper's image-registration experiment (Appendix B.5,
// Table 5). The paper's aerial and cytological image pairs (Lu et al. 2021) are not reachable here, so we
// build pairs the same way from natural images that scikit-image ships (its sample images, from PyPI's wheel
// in the checkout's .venv or from Debian's python3-skimage: FindImagesDir): the second "modality" is a
// documented intensity transform of the first, and the pair differs by a translation.
//
// One registration task: a W x W window of image A at (R0, C0), and the window of image B at the same
// place, where B is T(A) moved by (ΔR, ΔC): B(r, c) = T(A(r-ΔR, c-ΔC)). Both windows are quantized to 10
// intensity levels (ARC's ten colors) and cut into k x k patches of s x s cells (W = k·s). LatFormer,
// with only its translation expert, learns from the k² patch pairs y = f(g·x): f per cell (it learns the
// intensity transform, the step for which the paper used a separate modality-translation network) and g
// a translation, read from its discretized gates. Cells that enter a patch from outside it cannot be
// predicted from the patch: the pairs are never fitted exactly, and the kept restart is the one whose
// predictions are the most right.
//
// Success is the paper's: the relative registration error, the distance between the true and the
// estimated translation divided by the window's side, below 2%. The reference methods, phase
// correlation and SIFT (scripts/registration_reference.py, scikit-image and OpenCV from Debian), see the
// same windows before quantization (Export writes them).
package registration

import (
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/latformer/latformer/datasets"
)

// DefaultImages are the natural (photographed or micrographed) grayscale-able images of scikit-image's
// data used by default: textures, scenes, objects, cells and the sky; not the synthetic or binary ones.
var DefaultImages = []string{"astronaut.png", "brick.png", "camera.png", "chelsea.png", "coffee.png", "coins.png",
	"grass.png", "gravel.png", "hubble_deep_field.jpg", "ihc.png", "moon.png", "page.png", "retina.jpg",
	"rocket.jpg", "text.png"}

// Levels is the number of intensity levels of the quantized windows (the ten ARC colors).
const Levels = 10

// Modalities are the intensity transforms T that make the second image, by name.
var Modalities = map[string]func(float64) float64{
	// "parabola": T(v) = 4v(1-v). Not monotonic: black and white both become black, mid-grey white, so
	// edges keep their place but not their sign or contrast, as between two imaging modalities.
	"parabola": func(v float64) float64 { return 4 * v * (1 - v) },
	// "invert": T(v) = 1-v, a negative.
	"invert": func(v float64) float64 { return 1 - v },
	// "identity": one modality (a plain translation), for comparison.
	"identity": func(v float64) float64 { return v },
}

// Pair is one registration task.
type Pair struct {
	ID       int
	Image    string      // file name in the images directory
	R0, C0   int         // top-left of the window in image A
	DR, DC   int         // the true translation of B's content relative to A's
	A, B     [][]float64 // the windows, intensities in [0, 1] (B already transformed)
	Modality string
}

// PairOptions say how pairs are drawn.
type PairOptions struct {
	// ImagesDir is the directory holding the images; "" means FindImagesDir's
	// (the $LATFORMER_SKIMAGE_DATA, .venv or Debian directory holding Images).
	ImagesDir     string
	Images        []string // file names (nil: DefaultImages)
	PairsPerImage int      // default 2
	Patch         int      // s, the canvas side of LatFormer (default 16)
	Grid          int      // k, patches per window side (default 2): W = k·s
	MaxShift      int      // |ΔR|, |ΔC| <= MaxShift, not both 0 (default 4)
	Modality      string   // a key of Modalities (default "parabola")
	Seed          uint64
}

func (o PairOptions) withDefaults() (PairOptions, error) {
	if o.Images == nil {
		o.Images = DefaultImages
	}
	if o.PairsPerImage == 0 {
		o.PairsPerImage = 2
	}
	if o.Patch == 0 {
		o.Patch = 16
	}
	if o.Grid == 0 {
		o.Grid = 2
	}
	if o.MaxShift == 0 {
		o.MaxShift = 4
	}
	if o.Modality == "" {
		o.Modality = "parabola"
	}
	switch {
	case o.PairsPerImage < 1 || o.Grid < 1:
		return o, fmt.Errorf("pairs per image and grid must be >= 1")
	case o.Patch < 4 || o.Patch > datasets.MaxGridSide:
		return o, fmt.Errorf("patch side must be in 4..%d, got %d", datasets.MaxGridSide, o.Patch)
	case o.MaxShift < 1 || 2*o.MaxShift >= o.Patch:
		return o, fmt.Errorf("max shift must be >= 1 and less than half the patch side %d, got %d", o.Patch, o.MaxShift)
	case Modalities[o.Modality] == nil:
		return o, fmt.Errorf("unknown modality %q: want one of %v", o.Modality, modalityNames())
	}
	if o.ImagesDir == "" {
		dir, err := FindImagesDir(o.Images)
		if err != nil {
			return o, err
		}
		o.ImagesDir = dir
	}
	return o, nil
}

func modalityNames() []string {
	var names []string
	for n := range Modalities {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LoadGray reads an image file (PNG or JPEG) as luminance in [0, 1], row-major.
func LoadGray(path string) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b := img.Bounds()
	out := make([][]float64, b.Dy())
	for y := range out {
		out[y] = make([]float64, b.Dx())
		for x := range out[y] {
			g := color.Gray16Model.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray16)
			out[y][x] = float64(g.Y) / 0xffff
		}
	}
	return out, nil
}

// MakePairs draws the registration tasks: for each image, PairsPerImage windows at random textured places
// (far enough from the border for the shift) with random translations. Deterministic given the options.
func MakePairs(o PairOptions) ([]Pair, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	w := o.Patch * o.Grid
	t := Modalities[o.Modality]
	var pairs []Pair
	for ii, name := range o.Images {
		img, err := LoadGray(filepath.Join(o.ImagesDir, name))
		if err != nil {
			return nil, fmt.Errorf("%w (the default images are scikit-image's sample images: %s)", err, installImages)
		}
		h, wd := len(img), len(img[0])
		m := o.MaxShift
		if h < w+2*m || wd < w+2*m {
			return nil, fmt.Errorf("%s is %dx%d, too small for a %d-cell window shifted by up to %d", name, h, wd, w, m)
		}
		rng := rand.New(rand.NewPCG(o.Seed, uint64(ii)+1))
		for range o.PairsPerImage {
			p := Pair{ID: len(pairs), Image: name, Modality: o.Modality}
			// A window with texture: flat regions (sky, a uniform background) hold no translation to
			// find. The first of up to 100 random places whose intensities have a standard deviation of
			// at least MinStd, else the most textured of them.
			bestStd := -1.0
			for range 100 {
				r0, c0 := m+rng.IntN(h-w-2*m+1), m+rng.IntN(wd-w-2*m+1)
				if sd := windowStd(img, r0, c0, w); sd > bestStd {
					p.R0, p.C0, bestStd = r0, c0, sd
				}
				if bestStd >= MinStd {
					break
				}
			}
			for p.DR == 0 && p.DC == 0 {
				p.DR, p.DC = rng.IntN(2*m+1)-m, rng.IntN(2*m+1)-m
			}
			p.A, p.B = make([][]float64, w), make([][]float64, w)
			for r := range w {
				p.A[r], p.B[r] = make([]float64, w), make([]float64, w)
				for c := range w {
					p.A[r][c] = img[p.R0+r][p.C0+c]
					p.B[r][c] = t(img[p.R0+r-p.DR][p.C0+c-p.DC])
				}
			}
			pairs = append(pairs, p)
		}
	}
	return pairs, nil
}

// MinStd is the least standard deviation of a window's intensities (in [0, 1]) for it to count as
// textured (MakePairs).
const MinStd = 0.1

// windowStd is the standard deviation of the intensities of the w x w window at (r0, c0).
func windowStd(img [][]float64, r0, c0, w int) float64 {
	var sum, sq float64
	for r := r0; r < r0+w; r++ {
		for _, v := range img[r][c0 : c0+w] {
			sum += v
			sq += v * v
		}
	}
	n := float64(w * w)
	mean := sum / n
	return math.Sqrt(max(0, sq/n-mean*mean))
}

// Quantize maps an intensity in [0, 1] to one of Levels levels (equal bins).
func Quantize(v float64) int32 {
	return int32(min(Levels-1, max(0, int(v*Levels))))
}

// Patches cuts the windows of p into its k x k quantized patch pairs of side s (row by row), the input
// from A (or from T(A) when oracle: the modality already translated, as the paper's rows with a
// modality-translation network) and the output from B.
func (p Pair) Patches(s int, oracle bool) (inputs, outputs []datasets.Canvas) {
	t := Modalities[p.Modality]
	k := len(p.A) / s
	for pi := range k {
		for pj := range k {
			in := datasets.Canvas{Rows: s, Cols: s, Cells: make([]int32, s*s)}
			out := datasets.Canvas{Rows: s, Cols: s, Cells: make([]int32, s*s)}
			for r := range s {
				for c := range s {
					a := p.A[pi*s+r][pj*s+c]
					if oracle {
						a = t(a)
					}
					in.Cells[r*s+c] = Quantize(a)
					out.Cells[r*s+c] = Quantize(p.B[pi*s+r][pj*s+c])
				}
			}
			inputs, outputs = append(inputs, in), append(outputs, out)
		}
	}
	return inputs, outputs
}

// RelativeError is the paper's registration error: the distance between the true and the estimated
// translation, divided by the window side (rows and columns are both w here).
func RelativeError(trueDR, trueDC, dr, dc, w int) float64 {
	return math.Hypot(float64(dr-trueDR)/float64(w), float64(dc-trueDC)/float64(w))
}

// SuccessThreshold is the paper's success criterion: relative registration error below 2%.
const SuccessThreshold = 0.02

// Export writes the pairs for the reference script: pairs.csv (id, image, r0, c0, dr, dc, modality) and
// for each pair <id>_a.png and <id>_b.png, the windows as 16-bit grayscale PNGs.
func Export(dir string, pairs []Pair) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "pairs.csv"))
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"id", "image", "r0", "c0", "dr", "dc", "modality", "window"})
	for _, p := range pairs {
		_ = w.Write([]string{strconv.Itoa(p.ID), p.Image, strconv.Itoa(p.R0), strconv.Itoa(p.C0), strconv.Itoa(p.DR),
			strconv.Itoa(p.DC), p.Modality, strconv.Itoa(len(p.A))})
		for suffix, win := range map[string][][]float64{"a": p.A, "b": p.B} {
			if err := writeGray16(filepath.Join(dir, fmt.Sprintf("%03d_%s.png", p.ID, suffix)), win); err != nil {
				f.Close()
				return err
			}
		}
	}
	w.Flush()
	return errors.Join(w.Error(), f.Close())
}

func writeGray16(path string, win [][]float64) error {
	img := image.NewGray16(image.Rect(0, 0, len(win[0]), len(win)))
	for r, row := range win {
		for c, v := range row {
			img.SetGray16(c, r, color.Gray16{Y: uint16(math.Round(min(1, max(0, v)) * 0xffff))})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
