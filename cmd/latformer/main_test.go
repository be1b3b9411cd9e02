// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

// TestFlagErrors checks that bad flags get an error that names the problem (before any training).
func TestFlagErrors(t *testing.T) {
	cases := []struct {
		run  func([]string) error
		args []string
		want string
	}{
		{runDemo, []string{"--tasks", "spin"}, `unknown task "spin"`},
		{runDemo, []string{"--canvas", "31"}, "--canvas must be in 2..30"},
		{runDemo, []string{"--train", "0"}, "must be positive"},
		{runDemo, []string{"--no-such-flag"}, "not defined"},
		{runDemo, []string{"--set", "no_such_param=3"}, "no_such_param"},
		{runBench, []string{"--canvas", "10,x"}, `"x" is not a whole number`},
		{runBench, []string{"--canvas", "10, 31"}, "31 is not a side"},
		{runBench, []string{"--steps", "0"}, "must be positive"},
	}
	for _, c := range cases {
		err := c.run(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want an error containing %q, got %v", c.args, c.want, err)
		}
	}
}

// TestExitCodes checks the command's exit statuses: help is 0, a usage mistake 2, a failure 1.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-h"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"--no-such-flag"}, 2},
		{[]string{"extra", "args"}, 2},
		{[]string{"--canvas", "31"}, 1},
	} {
		if got := exitCode("demo", runDemo, c.args); got != c.want {
			t.Errorf("latformer demo %v: exit status %d, want %d", c.args, got, c.want)
		}
	}
	if got := exitCode("arc", runARC, []string{"-h"}); got != 0 {
		t.Errorf("latformer arc -h: exit status %d, want 0", got)
	}
}
