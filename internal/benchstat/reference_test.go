// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package benchstat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeServer is a reference script run by /bin/sh that speaks --serve's protocol: a configuration line,
// "ready", then for "run N" the times 1..N (a line other than "run N" gets an error line), "quit" to stop.
const fakeServer = `echo "config: fake $*"
echo "noise line"
echo ready
while read cmd n; do
  case "$cmd" in
  run) t=""; i=1; while [ $i -le $n ]; do t="$t${t:+,}$i.5"; i=$((i+1)); done; echo "times=$t";;
  quit) exit 0;;
  *) echo "error: expected 'run N'";;
  esac
done`

func writeScript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ref.sh")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReferenceServer runs a fake reference through the protocol: the shown lines up to "ready" (the
// arguments and --serve passed on), blocks of steps with their times, and errors for a script that stops
// before it is ready, for a missing script and for an answer that is not a block's times.
func TestReferenceServer(t *testing.T) {
	srv, err := StartReference("/bin/sh", writeScript(t, fakeServer), "--canvas", "10")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"config: fake --canvas 10 --serve"}; !slices.Equal(srv.Shown, want) {
		t.Errorf("shown lines %q, want %q", srv.Shown, want)
	}
	for _, n := range []int{3, 1} {
		times, err := srv.Run(n)
		want := []float64{1.5, 2.5, 3.5}[:n]
		if err != nil || !slices.Equal(times, want) {
			t.Errorf("Run(%d) = %v, %v; want %v", n, times, err, want)
		}
	}
	if srv.Pid() <= 0 {
		t.Errorf("Pid() = %d", srv.Pid())
	}
	if err := srv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	if _, err := StartReference("/bin/sh", writeScript(t, "echo 'config: x'\necho 'Traceback: no torch' >&2\nexit 3")); err == nil ||
		!strings.Contains(err.Error(), "before it was ready") || !strings.Contains(err.Error(), "no torch") {
		t.Errorf("a script that stops early: err %v, want one saying so with its stderr", err)
	}
	if _, err := StartReference("/bin/sh", filepath.Join(t.TempDir(), "missing.py")); err == nil {
		t.Error("a missing script: no error")
	}
	bad, err := StartReference("/bin/sh", writeScript(t, "echo ready\nread cmd n\necho 'times=1,x'\nread cmd n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Run(2); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a malformed answer: err %v, want one naming the bad time", err)
	}
	bad.Close()
}

// TestParseServeTimes checks the answers to "run N": times in ms, and errors for anything else.
func TestParseServeTimes(t *testing.T) {
	got, err := ParseServeTimes("times=12.5,3,0.001\n")
	if err != nil || !slices.Equal(got, []float64{12.5, 3, 0.001}) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "error: expected 'run N'", "times=", "times=1,-2", "times=1,NaN", "step_ms=3"} {
		if _, err := ParseServeTimes(bad); err == nil {
			t.Errorf("ParseServeTimes(%q): no error", bad)
		}
	}
}

// TestSampleCPUWith checks that the processes named count as ours (their ticks added to this process's) and
// that an unknown process is an error.
func TestSampleCPUWith(t *testing.T) {
	self, err := SampleCPU()
	if err != nil {
		t.Skip("no /proc:", err)
	}
	for self.self < 3 { // use a few ticks of CPU (reading /proc), so that counting twice shows
		if self, err = SampleCPU(); err != nil {
			t.Fatal(err)
		}
	}
	twice, err := SampleCPUWith(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if twice.self < 2*self.self {
		t.Errorf("this process counted twice: %d ticks, want at least 2 x %d", twice.self, self.self)
	}
	if _, err := SampleCPUWith(1 << 30); err == nil {
		t.Error("an unknown process: no error")
	}
}
