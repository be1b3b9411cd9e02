// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/latformer/latformer/experiments/arc"
	"github.com/latformer/latformer/experiments/larc"
	"github.com/latformer/latformer/experiments/registration"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/experiments/synthetic"
)

// comparers are the results files `latformer compare` knows, by their header (sameExperiment): each
// compares two files of its experiment (runner.Compare), and names its units and their outcome.
var comparers = []struct {
	header      []string
	units, what string
	compare     func(newPath, oldPath string) (runner.Comparison, error)
}{
	{arc.Header, "tasks", "solved or not", arc.Compare},
	{synthetic.Header, "training runs", "test pairs exact", synthetic.Compare},
	{larc.Header, "rows (task, condition)", "solved or not", larc.Compare},
	{registration.Header, "registrations", "translation estimated", registration.Compare},
}

// runCompare is `latformer compare NEW COMMITTED`.
func runCompare(args []string) error {
	fs := newFlagSet("compare", "latformer compare NEW.csv COMMITTED.csv",
		"Compares the results file of a new run with another of the same experiment (the committed one in results/),\n"+
			"unit by unit: "+
			"how many units are in both and have the same outcome (an ARC or LARC task solved or not, a\n"+
			"training run's test pairs exact, a registration's estimated translation), "+
			"each unit whose outcome differs,\n"+
			"and the units in one file only. "+
			"The make targets of the experiments print it after a new run. Exit status\n"+
			"0 whatever the outcomes; 1 when a file cannot be read.")
	flags, files := splitFileArgs(args)
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	if len(files) != 2 {
		return usageError{fmt.Errorf("want NEW.csv and COMMITTED.csv, got %q", files), fs}
	}
	lines, err := compareFiles(files[0], files[1])
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(lines, "\n"))
	return nil
}

// compareFiles compares two results files of one experiment (told by NEW's header) and returns the lines
// that say how.
func compareFiles(newPath, oldPath string) ([]string, error) {
	header, err := readHeader(newPath)
	if err != nil {
		return nil, err
	}
	for _, c := range comparers {
		if len(header) > 1 && sameExperiment(header, c.header) {
			comp, err := c.compare(newPath, oldPath)
			if err != nil {
				return nil, err
			}
			return comp.Lines(newPath, oldPath, c.units, c.what), nil
		}
	}
	return nil, fmt.Errorf("%s: header %q is none of a results file of arc, sample-efficiency/noise, larc "+
		"or registration", newPath, header)
}

// sameExperiment says whether a file's header is that of an experiment: its columns are the experiment's
// current header or a beginning of it (older files have fewer columns).
func sameExperiment(header, want []string) bool {
	return len(header) <= len(want) && slices.Equal(header, want[:len(header)])
}

// readHeader returns the first record of a CSV file.
func readHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := csv.NewReader(f).Read()
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: reading its header: %w", path, err)
	}
	return h, nil
}
