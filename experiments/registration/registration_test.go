// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package registration

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
)

// writeTexture writes a size x size grayscale PNG of smooth random blobs (a stand-in for a natural
// image, so that the tests need no image package) and returns its directory.
func writeTexture(t *testing.T, size int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	img := image.NewGray16(image.Rect(0, 0, size, size))
	type blob struct{ r, c, s, a float64 }
	var blobs []blob
	for range 40 {
		blobs = append(blobs, blob{rng.Float64() * float64(size), rng.Float64() * float64(size), 2 + 4*rng.Float64(), rng.Float64()})
	}
	for r := range size {
		for c := range size {
			v := 0.0
			for _, b := range blobs {
				d := math.Hypot(float64(r)-b.r, float64(c)-b.c) / b.s
				v += b.a * math.Exp(-d*d)
			}
			img.SetGray16(c, r, color.Gray16{Y: uint16(min(1, v) * 0xffff)})
		}
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "blobs.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

// TestMakePairs checks that B is T(A) moved by the pair's translation, that the translations stay within
// MaxShift and are not zero, and that the pairs are the same for the same options.
func TestMakePairs(t *testing.T) {
	dir := writeTexture(t, 64, 1)
	o := PairOptions{ImagesDir: dir, Images: []string{"blobs.png"}, PairsPerImage: 4, Patch: 8, Grid: 2, MaxShift: 3, Modality: "invert", Seed: 5}
	pairs, err := MakePairs(o)
	if err != nil {
		t.Fatal(err)
	}
	img, err := LoadGray(filepath.Join(dir, "blobs.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if p.DR == 0 && p.DC == 0 || max(p.DR, -p.DR) > 3 || max(p.DC, -p.DC) > 3 {
			t.Errorf("pair %d: translation (%d,%d), want non-zero within 3", p.ID, p.DR, p.DC)
		}
		for r := range 16 {
			for c := range 16 {
				if got, want := p.B[r][c], 1-img[p.R0+r-p.DR][p.C0+c-p.DC]; got != want {
					t.Fatalf("pair %d: B(%d,%d) = %g, want T(A(r-dr, c-dc)) = %g", p.ID, r, c, got, want)
				}
			}
		}
	}
	again, _ := MakePairs(o)
	for i := range pairs {
		if again[i].R0 != pairs[i].R0 || again[i].DR != pairs[i].DR || again[i].DC != pairs[i].DC {
			t.Errorf("pair %d differs between two calls with the same options", i)
		}
	}
	for _, bad := range []PairOptions{{ImagesDir: dir, Images: []string{"blobs.png"}, Modality: "sepia"}, {ImagesDir: dir, Images: []string{"blobs.png"}, MaxShift: 8, Patch: 16},
		{ImagesDir: dir, Images: []string{"missing.png"}}, {ImagesDir: dir, Images: []string{"blobs.png"}, Patch: 30, Grid: 3}} {
		if _, err := MakePairs(bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

// TestDisplacement checks the translation read from actions: circular translations as signed offsets,
// zero-fill shifts, the identity, and an action that is not a translation.
func TestDisplacement(t *testing.T) {
	for _, c := range []struct {
		a      lattice.Action
		dr, dc int
	}{
		{lattice.Translation{Deltas: []int{3, 1}}, 3, 1},
		{lattice.Translation{Deltas: []int{15, 12}}, -1, -4},
		{lattice.Shift{Deltas: []int{-2, 3}}, -2, 3},
		{lattice.Shift{Deltas: []int{-10, 9}}, -10 + 16, 9 - 16}, // moves the center off: read from another cell, signed mod 16
		{lattice.IdentityAction{}, 0, 0},
	} {
		dr, dc, err := Displacement(c.a, 16)
		if err != nil || dr != c.dr || dc != c.dc {
			t.Errorf("%v: (%d,%d), %v; want (%d,%d)", c.a, dr, dc, err, c.dr, c.dc)
		}
	}
	if _, _, err := Displacement(nil, 16); err == nil {
		t.Errorf("nil action: want an error")
	}
}

// TestQuantizeAndError checks the ten levels and the paper's relative error.
func TestQuantizeAndError(t *testing.T) {
	for v, want := range map[float64]int32{0: 0, 0.0999: 0, 0.1: 1, 0.55: 5, 0.999: 9, 1: 9, -0.2: 0, 1.3: 9} {
		if got := Quantize(v); got != want {
			t.Errorf("Quantize(%g) = %d, want %d", v, got, want)
		}
	}
	if e := RelativeError(3, -4, 0, 0, 50); math.Abs(e-0.1) > 1e-12 {
		t.Errorf("relative error of (3,-4) over a 50-cell window = %g, want 0.1", e)
	}
	if RelativeError(2, 2, 2, 2, 32) >= SuccessThreshold || RelativeError(2, 2, 2, 3, 32) < SuccessThreshold {
		t.Errorf("on a 32-cell window the exact translation must succeed and one cell off must fail (2%% is 0.64 cells)")
	}
}

// TestRun registers two windows of a synthetic texture with the identity modality, under the oracle
// condition, and checks that LatFormer finds both translations; then that a resumed run trains nothing,
// and that Export writes what the reference script reads.
func TestRun(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "go")
	dir := writeTexture(t, 48, 3)
	out := filepath.Join(t.TempDir(), "reg.csv")
	export := filepath.Join(t.TempDir(), "pairs")
	o := Options{NewBackend: backend.New, PairOptions: PairOptions{ImagesDir: dir, Images: []string{"blobs.png"}, PairsPerImage: 2, Patch: 8, Grid: 2, MaxShift: 2, Modality: "identity", Seed: 2},
		Conditions: []string{Oracle}, Settings: hparams.Settings{{Key: latformer.ParamSteps, Value: 200}}, Out: out, Export: export}
	res, err := Run(o, Report{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		t.Logf("pair %d: true (%d,%d), estimated (%d,%d), cells right %.2f, %d steps, %s", r.ID, r.DR, r.DC, r.EstDR, r.EstDC, r.CellsRight, r.Steps, r.Action)
		if !r.Success {
			t.Errorf("pair %d: estimated (%d,%d), want (%d,%d)", r.ID, r.EstDR, r.EstDC, r.DR, r.DC)
		}
	}
	o.Resume = true
	trained := 0
	again, err := Run(o, Report{Done: func(Result, int, int) { trained++ }})
	if err != nil || trained != 0 || len(again.Results) != 2 {
		t.Errorf("resume: %d trained, %d results, %v; want 0 and 2", trained, len(again.Results), err)
	}
	data, err := os.ReadFile(filepath.Join(export, "pairs.csv"))
	if err != nil || strings.Count(string(data), "\n") != 3 {
		t.Errorf("pairs.csv: %q, %v; want a header and 2 rows", data, err)
	}
	for _, name := range []string{"000_a.png", "000_b.png", "001_a.png", "001_b.png"} {
		if _, err := os.Stat(filepath.Join(export, name)); err != nil {
			t.Errorf("export: %v", err)
		}
	}
	var sb strings.Builder
	WriteTable(&sb, res.Results, map[string][2]int{"oracle|phase_correlation": {1, 2}})
	if !strings.Contains(sb.String(), "50.0% (1/2)") || !strings.Contains(sb.String(), "**100.0%** (2/2)") {
		t.Errorf("table:\n%s", sb.String())
	}
}
