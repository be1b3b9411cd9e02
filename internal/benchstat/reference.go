// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// ReferenceServer is a PyTorch reference script run with --serve: it builds its model, warms up and then
// times blocks of training steps when asked (Run), so that `latformer bench` can interleave them with its own
// and every side of a comparison is timed at the same moments of a shared host.
type ReferenceServer struct {
	// Shown are the lines of its output worth showing (configuration, backend, compile, equality), up to "ready".
	Shown  []string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr *bytes.Buffer
	name   string
}

// StartReference starts python script args... --serve and waits until it has warmed up.
func StartReference(python, script string, args ...string) (*ReferenceServer, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, err
	}
	return StartServer(python+" "+script, python, append([]string{script}, args...)...)
}

// StartServer starts program args... --serve, any program that speaks the protocol of the references'
// --serve (the importer row's Go program does), and waits until it has warmed up; name names it in errors.
func StartServer(name, program string, args ...string) (*ReferenceServer, error) {
	s := &ReferenceServer{name: name, stderr: &bytes.Buffer{}}
	s.cmd = exec.Command(program, append(args, "--serve")...)
	s.cmd.Stderr = s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewScanner(stdout)
	s.out.Buffer(make([]byte, 64<<10), 16<<20)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	var all []string
	for s.out.Scan() {
		line := s.out.Text()
		if line == "ready" {
			return s, nil
		}
		all = append(all, line)
		if shownLine(line) {
			s.Shown = append(s.Shown, line)
		}
	}
	err = s.cmd.Wait()
	return nil, fmt.Errorf("%s --serve stopped before it was ready (%v):\n%s\n%s", s.name, err,
		strings.Join(all, "\n"), s.stderr.String())
}

// Pid is the script's process id.
func (s *ReferenceServer) Pid() int { return s.cmd.Process.Pid }

// Run times n training steps and returns their wall times (ms).
func (s *ReferenceServer) Run(n int) ([]float64, error) {
	if _, err := fmt.Fprintf(s.in, "run %d\n", n); err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", s.name, err, s.stderr.String())
	}
	if !s.out.Scan() {
		return nil, fmt.Errorf("%s stopped during a block of %d steps:\n%s", s.name, n, s.stderr.String())
	}
	times, err := ParseServeTimes(s.out.Text())
	if err == nil && len(times) != n {
		err = fmt.Errorf("%d times for %d steps", len(times), n)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return times, nil
}

// Close asks the script to stop and waits for it.
func (s *ReferenceServer) Close() error {
	fmt.Fprintln(s.in, "quit")
	s.in.Close()
	if err := s.cmd.Wait(); err != nil {
		return fmt.Errorf("%s: %w\n%s", s.name, err, s.stderr.String())
	}
	return nil
}

// ParseServeTimes reads a --serve answer, "times=t1,...,tN" (ms).
func ParseServeTimes(line string) ([]float64, error) {
	list, ok := strings.CutPrefix(strings.TrimSpace(line), "times=")
	if !ok {
		return nil, fmt.Errorf("not a serve answer (times=t1,...,tN): %q", line)
	}
	var times []float64
	for _, v := range strings.Split(list, ",") {
		t, err := strconv.ParseFloat(v, 64)
		if err != nil || !(t >= 0) {
			return nil, fmt.Errorf("step time %q in %q", v, line)
		}
		times = append(times, t)
	}
	return times, nil
}

// shownLine reports whether a reference script's output line is worth showing: its configuration, backend,
// compile, contention and equality lines.
func shownLine(line string) bool {
	return strings.HasPrefix(line, "config:") || strings.HasPrefix(line, "backend:") ||
		strings.HasPrefix(line, "compile") || strings.Contains(line, "other_procs_cores_during_timing") ||
		strings.HasPrefix(line, "max_abs_diff_vs_dense=")
}
