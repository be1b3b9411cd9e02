// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestListFlag checks the comma-separated lists: spaces trimmed and empty items dropped, the default
// kept until the flag is given and replaced when it is, a repeated flag concatenated, and a bad item an
// error naming it.
func TestListFlag(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	names := stringsFlag(fs, "names", []string{"x", "y"}, "")
	kept := stringsFlag(fs, "kept", []string{"d"}, "")
	sizes := intsFlag(fs, "sizes", nil, "")
	levels := floatsFlag(fs, "levels", []float64{0}, "")
	err := fs.Parse([]string{"--names", " a, b,,c ,", "--names", "d", "--sizes", " 1, 2 ,,3", "--levels", ",0.25 , 1e-1"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(*names, []string{"a", "b", "c", "d"}) || !slices.Equal(*kept, []string{"d"}) ||
		!slices.Equal(*sizes, []int{1, 2, 3}) || !slices.Equal(*levels, []float64{0.25, 0.1}) {
		t.Errorf("parsed names %q, kept %q, sizes %v, levels %v", *names, *kept, *sizes, *levels)
	}
	if got := fs.Lookup("names").DefValue; got != "x,y" {
		t.Errorf("default shown as %q, want x,y", got)
	}
	if err := fs.Parse([]string{"--sizes", "4, x"}); err == nil || !strings.Contains(err.Error(), `"x" is not a whole number`) {
		t.Errorf("bad item: %v", err)
	}
	if err := fs.Parse([]string{"--levels", "half"}); err == nil || !strings.Contains(err.Error(), `"half" is not a number`) {
		t.Errorf("bad number: %v", err)
	}
	empty := stringsFlag(fs, "empty", []string{"default"}, "")
	if err := fs.Parse([]string{"--empty", " , "}); err != nil || len(*empty) != 0 {
		t.Errorf("a list of empty items: %q, %v; want none", *empty, err)
	}
}

// runCommands are the commands with the run flags, and the arguments each needs to fail before any work
// on a bad run flag (larc: no text encoder without the nl condition).
var runCommands = []struct {
	name  string
	run   func([]string) error
	extra []string
}{
	{"arc", runARC, nil},
	{"larc", runLARC, []string{"--conditions", " io ,"}},
	{"sample-efficiency", runSampleEfficiency, []string{"--random-grids"}},
	{"noise", runNoise, []string{"--random-grids"}},
	{"registration", runRegistration, nil},
	{"solve", runSolve, []string{"../../datasets/testdata/arcprize/task_shift.json"}},
}

// TestRunFlags checks that every command with the run flags parses them and hands them to its
// experiment: --resume with --force, --workers -1 and an unknown --set key are each refused by the
// experiment's options (before any work), and the help lists the six flags with --workers 1 by default.
func TestRunFlags(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.csv")
	for _, c := range runCommands {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"--resume", "--force", "--workers", "2", "--set", "", "--quiet"}, "contradict"},
			{[]string{"--workers", "-1"}, "workers"},
			{[]string{"--set", "no_such_param=1"}, "no_such_param"},
		} {
			args := append(append([]string{"--out", out}, c.extra...), tc.args...)
			if err := c.run(args); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("latformer %s %q: got %v, want an error with %q", c.name, args, err, tc.want)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("latformer %s: a refused run created %s", c.name, out)
		}
		help := captureStdout(t, func() { _ = c.run([]string{"-h"}) })
		for _, flagName := range []string{"-out string", "-resume", "-force", "-workers int", "-set string", "-quiet"} {
			if !strings.Contains(help, "  "+flagName) {
				t.Errorf("latformer %s -h lacks %s:\n%s", c.name, flagName, help)
			}
		}
		if !strings.Contains(help, "one backend each (default 1)") {
			t.Errorf("latformer %s -h: --workers does not default to 1:\n%s", c.name, help)
		}
	}
}

// captureStdout returns what f prints on os.Stdout.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdout")
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = file
	f()
	os.Stdout = saved
	file.Close()
	data, _ := os.ReadFile(path)
	return string(data)
}
