// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/experiments/registration"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// runRegistration is `latformer registration` (our analogue of Table 5).
func runRegistration(args []string) error {
	fs, f, run := registrationFlagSet()
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// --quick trains 150 steps: after registration.Settings, before --set.
	quickSettings := hparams.Settings{{Key: latformer.ParamSteps, Value: 150}}
	base := registration.Settings
	if *f.quick {
		base = base.With(quickSettings...)
	}
	settings, err := run.settingsFor(arcsolver.Params(), base)
	if err != nil {
		return err
	}
	if f.ImagesDir == "" {
		// Where FindImagesDir finds none, registration.Run says where it looked (after the other options' checks).
		if dir, err := registration.FindImagesDir(*f.images); err == nil {
			f.ImagesDir = dir
		}
	}
	if err := run.prepare(fs, joinAll(f.ImagesDir, *f.images)); err != nil {
		return err
	}
	o := f.Options
	o.Images, o.Conditions, o.Options = *f.images, *f.conditions, run.options(settings)
	if *f.quick {
		o.Images, o.PairsPerImage, o.Patch, o.MaxShift, o.Conditions =
			o.Images[:min(3, len(o.Images))], 1, 8, 2, []string{registration.Raw}
		o.Settings = quickSettings.With(o.Settings...)
	}
	outcome, err := runUnits(unitReport[registration.RunInfo, registration.Result]{desc: "registering",
		quiet: run.quiet, summary: registrationSummary, line: registrationLine},
		func(r registration.Report) (registration.Outcome, error) { return registration.Run(o, r) })
	if outcome.Out == "" {
		return err
	}
	fmt.Println()
	refs := map[string][2]int{}
	if f.reference != "" {
		if refs, err = registration.ReadReference(f.reference); err != nil {
			return err
		}
	}
	registration.WriteTable(os.Stdout, outcome.Results, refs)
	printWall(outcome.Elapsed, outcome.Out)
	return err
}

// registrationFlags are the flags of `latformer registration` (the run flags aside).
type registrationFlags struct {
	registration.Options
	images, conditions *[]string // --image-list, --conditions
	quick              *bool
	reference          string
}

// registrationFlagSet returns the flag set of `latformer registration`, its flags and its run flags.
func registrationFlagSet() (*flag.FlagSet, *registrationFlags, *runFlags) {
	fs := newFlagSet("registration", "latformer registration [flags]",
		"Table 5 analogue: image registration on natural images (scikit-image's sample images). A second\n"+
			"modality is an intensity transform of each image, translated; "+
			"LatFormer (translation expert only) learns\n"+
			"from the k x k patch pairs of a window and its translation is read from the gates. Success: relative\n"+
			"registration error < 2%. Phase correlation and SIFT on the same windows: "+
			"scripts/registration_reference.py\n"+
			"on the --export directory. One CSV row per registration (--resume continues).")
	f := &registrationFlags{}
	fs.StringVar(&f.ImagesDir, "images", "", "directory of the images (default: $"+registration.EnvImagesDir+
		", else scikit-image's sample images in the checkout's\n"+registration.VenvImagesGlob+
		" (make jupyter-setup installs them from PyPI), else Debian's "+registration.DebianImagesDir+")")
	f.images = stringsFlag(fs, "image-list", registration.DefaultImages, "comma-separated image `files` in --images")
	f.quick = fs.Bool("quick", false,
		"quick mode for CI: 3 images, 1 pair each, 8 x 8 patches, raw condition only, 150 steps")
	fs.IntVar(&f.PairsPerImage, "pairs-per-image", 2, "windows (registration tasks) per image")
	fs.IntVar(&f.Patch, "patch", 16, "patch side s, LatFormer's canvas (the paper's is 30)")
	fs.IntVar(&f.Grid, "grid", 2, "patches per window side k: the window is k*s cells")
	fs.IntVar(&f.MaxShift, "max-shift", 4, "largest translation per axis (|dr|, |dc|)")
	fs.StringVar(&f.Modality, "modality", "parabola",
		"intensity transform T of the second modality: parabola (4v(1-v)), invert (1-v), identity")
	f.conditions = stringsFlag(fs, "conditions", []string{registration.Raw, registration.Oracle},
		"comma-separated `conditions`: raw (LatFormer sees A and learns T as its per-cell function), "+
			"oracle (it sees T(A): a perfect modality translation)")
	fs.Uint64Var(&f.Seed, "seed", 0, "seed of the windows and translations")
	fs.StringVar(&f.Export, "export", "",
		"write the windows (16-bit PNG) and pairs.csv to this directory, for scripts/registration_reference.py")
	fs.StringVar(&f.reference, "reference", "",
		"the reference script's CSV (phase correlation, SIFT), shown beside LatFormer")
	run := addRunFlags(fs, runHelp{unit: "registration", units: "registrations",
		out:     "runs/registration-<date>-<time>.csv",
		set:     `LatFormer hyperparameters after the registration settings, "key=value;..."`,
		recipes: arcsolver.Recipes()})
	return fs, f, run
}

// registrationSummary is the line under the backend's at the start of a registration run.
func registrationSummary(info registration.RunInfo) string {
	p := info.Options.PairOptions
	return fmt.Sprintf("registration: %d registrations "+
		"(%d images x %d windows of %d x %d cells in %d x %d patches of %d, shifts up to %d, modality %s, "+
		"conditions %s; images from %s), %d already done; results in %s",
		info.Units, len(p.Images), p.PairsPerImage, p.Patch*p.Grid, p.Patch*p.Grid, p.Grid, p.Grid, p.Patch,
		p.MaxShift, p.Modality, strings.Join(info.Options.Conditions, ","), p.ImagesDir, info.Done,
		info.Options.Out)
}

// registrationLine is the plain line printed for each finished registration.
func registrationLine(r registration.Result, finished, total int) string {
	ok := "fail"
	if r.Success {
		ok = "OK"
	}
	return fmt.Sprintf("[%d/%d] pair %d %-22s %-6s true (%d,%d) estimated (%d,%d) error %.3f %-4s  "+
		"cells right %.2f  %d steps  %.1fs",
		finished, total, r.ID, r.Image, r.Condition, r.DR, r.DC, r.EstDR, r.EstDC, r.RelError, ok, r.CellsRight,
		r.Steps, r.Seconds)
}
