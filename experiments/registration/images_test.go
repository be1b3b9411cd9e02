// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package registration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCheckout makes a checkout whose .venv holds scikit-image's data directory with the files names
// (empty: FindImagesDir only looks for them), and its notebooks/ directory; it returns the checkout, the
// data directory and notebooks/.
func fakeCheckout(t *testing.T, names ...string) (root, data, notebooks string) {
	t.Helper()
	root = t.TempDir()
	data = filepath.Join(root, ".venv", "lib", "python3.11", "site-packages", "skimage", "data")
	notebooks = filepath.Join(root, "notebooks")
	for _, d := range []string{data, notebooks} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(data, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, data, notebooks
}

// TestFindImagesDir checks the order FindImagesDir resolves the images directory in: the checkout's .venv
// from a subdirectory of the checkout (a notebook's kernel runs in notebooks/), before Debian's directory;
// $LATFORMER_SKIMAGE_DATA before both; and the errors: a variable that names a directory without the
// images, and no directory holding them, which says where it looked and how to install them.
func TestFindImagesDir(t *testing.T) {
	names := []string{"blobs-test-only.png", "waves-test-only.png"}
	_, data, notebooks := fakeCheckout(t, names...)
	t.Setenv(EnvImagesDir, "")
	t.Chdir(notebooks)

	cands := ImagesDirCandidates(notebooks)
	if len(cands) != 2 || cands[0] != data || cands[1] != DebianImagesDir {
		t.Errorf("ImagesDirCandidates(%s) = %q, want [%s %s]", notebooks, cands, data, DebianImagesDir)
	}
	if dir, err := FindImagesDir(names); err != nil || dir != data {
		t.Errorf("FindImagesDir from notebooks/ = %q, %v; want the .venv's %s", dir, err, data)
	}

	// The variable wins over the .venv; a variable without the images is an error naming both.
	other := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(other, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvImagesDir, other)
	if dir, err := FindImagesDir(names); err != nil || dir != other {
		t.Errorf("FindImagesDir with $%s=%s: %q, %v; want the variable's directory", EnvImagesDir, other, dir, err)
	}
	_, err := FindImagesDir(append(names, "absent.png"))
	if err == nil || !strings.Contains(err.Error(), EnvImagesDir) || !strings.Contains(err.Error(), "absent.png") {
		t.Errorf("$%s without absent.png: error %v, want one naming the variable and the image", EnvImagesDir, err)
	}

	// Nowhere: the error lists the variable, the .venv (which lacks one image) and Debian's directory.
	t.Setenv(EnvImagesDir, "")
	_, err = FindImagesDir(append(names, "absent.png"))
	for _, want := range []string{"not installed", "$" + EnvImagesDir + " (not set)", data + " (no absent.png)", DebianImagesDir, "make jupyter-setup"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no directory holds absent.png: error %v, want it to say %q", err, want)
		}
	}
	// Outside any checkout: the .venv pattern it looked for, under the working directory.
	outside := t.TempDir()
	t.Chdir(outside)
	_, err = FindImagesDir(names)
	if want := filepath.Join(outside, VenvImagesGlob); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("outside a checkout: error %v, want it to name %s", err, want)
	}

	// MakePairs with no ImagesDir reads the images FindImagesDir finds.
	dir := writeTexture(t, 64, 1)
	t.Setenv(EnvImagesDir, dir)
	pairs, err := MakePairs(PairOptions{Images: []string{"blobs.png"}, PairsPerImage: 1, Patch: 8, MaxShift: 3})
	if err != nil || len(pairs) != 1 {
		t.Fatalf("MakePairs from $%s: %d pairs, %v", EnvImagesDir, len(pairs), err)
	}
	img, err := LoadGray(filepath.Join(dir, "blobs.png"))
	if err != nil {
		t.Fatal(err)
	}
	if p := pairs[0]; p.A[0][0] != img[p.R0][p.C0] {
		t.Errorf("MakePairs' window starts with %g, the image at (%d,%d) holds %g", p.A[0][0], p.R0, p.C0, img[p.R0][p.C0])
	}
}
