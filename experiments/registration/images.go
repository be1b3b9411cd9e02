// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package registration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Where scikit-image's sample images are looked for when no directory is given (FindImagesDir), in this
// order: the environment variable, the checkout's .venv, Debian's package.
const (
	// EnvImagesDir names the environment variable that chooses the images directory.
	EnvImagesDir = "LATFORMER_SKIMAGE_DATA"
	// VenvImagesGlob is where `make jupyter-setup` puts the images, relative to the checkout: scikit-image
	// from PyPI (pinned in notebooks/requirements.txt) in the notebooks' virtual environment, whose wheel
	// ships every one of DefaultImages in skimage/data.
	VenvImagesGlob = ".venv/lib/python3*/site-packages/skimage/data"
	// DebianImagesDir is where Debian's python3-skimage puts them.
	DebianImagesDir = "/usr/lib/python3/dist-packages/skimage/data"
)

// installImages says how to get the images, for the errors.
const installImages = "`make jupyter-setup` installs scikit-image from PyPI into the checkout's .venv/; " +
	"or give the directory with --images DIR or $" + EnvImagesDir

// FindImagesDir returns the directory that holds the image files names: $LATFORMER_SKIMAGE_DATA when it is
// set (an error if it lacks one of them), else the first of ImagesDirCandidates (from the working
// directory) that holds them all. The error says where it looked and how to install the images.
func FindImagesDir(names []string) (string, error) {
	if dir := os.Getenv(EnvImagesDir); dir != "" {
		if missing := missingImages(dir, names); len(missing) > 0 {
			return "", fmt.Errorf("$%s=%s: %s; %s", EnvImagesDir, dir, describeMissing(missing, names), installImages)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding scikit-image's sample images: %w", err)
	}
	looked := []string{"$" + EnvImagesDir + " (not set)"}
	venvs := 0
	for _, dir := range ImagesDirCandidates(wd) {
		missing := missingImages(dir, names)
		if len(missing) == 0 {
			return dir, nil
		}
		if dir != DebianImagesDir {
			venvs++
		}
		looked = append(looked, fmt.Sprintf("%s (%s)", dir, describeMissing(missing, names)))
	}
	if venvs == 0 {
		looked = append(looked[:1], append([]string{filepath.Join(wd, VenvImagesGlob) +
			" and in the directories above (no match)"}, looked[1:]...)...)
	}
	return "", fmt.Errorf("scikit-image's sample images are not installed: looked in %s; %s",
		strings.Join(looked, ", "), installImages)
}

// ImagesDirCandidates are the directories FindImagesDir looks in after $LATFORMER_SKIMAGE_DATA, in order:
// the matches of VenvImagesGlob under dir, then under each directory above it (the checkout's .venv from
// any of its subdirectories: notebooks/ for a notebook's kernel), then DebianImagesDir.
func ImagesDirCandidates(dir string) []string {
	var dirs []string
	for d := filepath.Clean(dir); ; {
		matches, _ := filepath.Glob(filepath.Join(d, VenvImagesGlob)) // the pattern is well-formed
		dirs = append(dirs, matches...)
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return append(dirs, DebianImagesDir)
}

// missingImages are the names that are not files in dir.
func missingImages(dir string, names []string) []string {
	var missing []string
	for _, n := range names {
		if st, err := os.Stat(filepath.Join(dir, n)); err != nil || st.IsDir() {
			missing = append(missing, n)
		}
	}
	return missing
}

// describeMissing says which of names a directory lacks: "no a.png, b.png", or "none of the 15 images".
func describeMissing(missing, names []string) string {
	if len(missing) == len(names) && len(names) > 3 {
		return fmt.Sprintf("none of the %d images", len(names))
	}
	return "no " + strings.Join(missing, ", ")
}
