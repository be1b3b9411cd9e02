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
		{runBench, []string{"--canvas", "10,x"}, `"x" is not a side`},
		{runBench, []string{"--steps", "0"}, "must be positive"},
	}
	for _, c := range cases {
		err := c.run(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want an error containing %q, got %v", c.args, c.want, err)
		}
	}
}
