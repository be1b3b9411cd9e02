// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/backend"
)

// row is the test experiment's row: unit n's value is n².
type row struct {
	unit, value int
	worker      int // not written: the result must not depend on the worker
}

var testFormat = Format[row]{
	Header: []string{"unit", "value"},
	Record: func(r row) []string { return []string{strconv.Itoa(r.unit), strconv.Itoa(r.value)} },
	Parse: func(rec []string) (row, error) {
		u, err1 := strconv.Atoi(rec[0])
		v, err2 := strconv.Atoi(rec[1])
		if err := errors.Join(err1, err2); err != nil {
			return row{}, err
		}
		if v != u*u {
			return row{}, fmt.Errorf("value %d of unit %d", v, u)
		}
		return row{unit: u, value: v}, nil
	},
	Key: func(r row) string { return strconv.Itoa(r.unit) },
}

// testWorker squares units; it records its calls and fails on the units in fail.
type testWorker struct {
	id      int
	backend compute.Backend
	busy    atomic.Bool
	closed  atomic.Int32
	fail    map[int]bool
	ran     *[]int
	mu      *sync.Mutex
	t       *testing.T
}

func (w *testWorker) Do(u int) (row, error) {
	if !w.busy.CompareAndSwap(false, true) {
		w.t.Errorf("worker %d runs two units at once", w.id)
	}
	defer w.busy.Store(false)
	time.Sleep(time.Millisecond)
	w.mu.Lock()
	*w.ran = append(*w.ran, u)
	w.mu.Unlock()
	if w.fail[u] {
		return row{}, fmt.Errorf("unit %d broke", u)
	}
	return row{unit: u, value: u * u, worker: w.id}, nil
}

func (w *testWorker) Close() { w.closed.Add(1) }

// harness makes specs over units 0..n-1 and records what the workers did.
type harness struct {
	t       *testing.T
	out     string
	mu      sync.Mutex
	ran     []int // units run, in the order they started
	workers []*testWorker
	errs    []error
	fail    map[int]bool
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, out: filepath.Join(t.TempDir(), "r.csv")}
}

func (h *harness) spec(n, workers int) Spec[int, row] {
	units := make([]int, n)
	for i := range units {
		units[i] = i
	}
	h.ran, h.workers, h.errs = nil, nil, nil
	return Spec[int, row]{Format: testFormat, Out: h.out, Units: units, Key: strconv.Itoa,
		Describe: func(u int) string { return fmt.Sprintf("unit %d", u) }, Workers: workers,
		NewBackend: func() (compute.Backend, error) { return backend.NewWithConfig(backend.DefaultGo) },
		NewWorker: func(b compute.Backend) (Worker[int, row], error) {
			w := &testWorker{id: len(h.workers), backend: b, fail: h.fail, ran: &h.ran, mu: &h.mu, t: h.t}
			h.workers = append(h.workers, w)
			return w, nil
		},
		Report: Report[Info, row]{Error: func(err error) { h.errs = append(h.errs, err) }}}
}

// rows reads the results file and checks that it holds each unit at most once.
func (h *harness) rows() []int {
	h.t.Helper()
	rows, err := testFormat.Read(h.out)
	if err != nil {
		h.t.Fatalf("reading %s: %v", h.out, err)
	}
	var units []int
	for _, r := range rows {
		units = append(units, r.unit)
	}
	slices.Sort(units)
	if len(slices.Compact(slices.Clone(units))) != len(units) {
		h.t.Errorf("a unit has several rows: %v", units)
	}
	return units
}

func count(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestRunWorkers runs 30 units on 3 workers: every unit once, each worker made once on a backend of its
// own, never running two units at once, and closed once at the end; a row per unit in the file and the
// outcome, and the backend described at the start.
func TestRunWorkers(t *testing.T) {
	h := newHarness(t)
	s := h.spec(30, 3)
	var info Info
	s.Report.Start = func(i Info) { info = i }
	done := 0
	s.Report.Done = func(r row, finished, total int) {
		done++
		if finished != done || total != 30 {
			t.Errorf("Done(%d of %d) after %d rows", finished, total, done)
		}
	}
	out, err := Run(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.workers) != 3 {
		t.Fatalf("%d workers made, want 3", len(h.workers))
	}
	used := map[int]int{}
	backends := map[compute.Backend]bool{}
	for i, w := range h.workers {
		backends[w.backend] = true
		if w.closed.Load() != 1 {
			t.Errorf("worker %d closed %d times, want once", i, w.closed.Load())
		}
	}
	if len(backends) != 3 || !strings.HasPrefix(info.Backend, backend.DefaultGo+" (") {
		t.Errorf("%d distinct backends, described as %q; want 3, and the pure-Go backend", len(backends), info.Backend)
	}
	for _, r := range out.Results {
		used[r.worker]++
	}
	if len(out.Results) != 30 || done != 30 || len(used) < 2 {
		t.Errorf("%d results, %d reported, %d workers used; want 30, 30 and more than one", len(out.Results), done, len(used))
	}
	if got := h.rows(); !slices.Equal(got, count(30)) {
		t.Errorf("file holds units %v, want 0..29", got)
	}
}

// TestResumeSkipsDone runs units 0..4, then 0..9 with Resume: only 5..9 run, their rows are appended
// under the one header, and the outcome has the 5 resumed rows first.
func TestResumeSkipsDone(t *testing.T) {
	h := newHarness(t)
	if _, err := Run(h.spec(5, 2)); err != nil {
		t.Fatal(err)
	}
	s := h.spec(10, 2)
	s.Resume = true
	var info Info
	s.Report.Start = func(i Info) { info = i }
	out, err := Run(s)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(h.ran)
	if !slices.Equal(h.ran, []int{5, 6, 7, 8, 9}) || info.Units != 10 || info.Done != 5 {
		t.Errorf("resume ran %v with %+v; want 5..9, 5 of 10 done", h.ran, info)
	}
	var first []int
	for _, r := range out.Results[:min(5, len(out.Results))] {
		first = append(first, r.unit)
	}
	slices.Sort(first)
	if len(out.Results) != 10 || !slices.Equal(first, count(5)) {
		t.Errorf("outcome %v: want the 5 resumed rows, then the 5 new", out.Results)
	}
	raw, _ := os.ReadFile(h.out)
	if strings.Count(string(raw), "unit,value") != 1 || !slices.Equal(h.rows(), count(10)) {
		t.Errorf("file after the resume:\n%s", raw)
	}
	h.spec(10, 2) // a resume of a finished run runs nothing
	s.Report.Start = nil
	if _, err := Run(s); err != nil || len(h.ran) != 0 {
		t.Errorf("resume of a finished run ran %v, %v", h.ran, err)
	}
}

// TestFailingUnit makes units 3 and 7 fail: the others are written, the rows finished before a failure
// are already in the file when it is reported, Run returns the first failure, and a resume runs only the
// two failed units.
func TestFailingUnit(t *testing.T) {
	h := newHarness(t)
	h.fail = map[int]bool{3: true, 7: true}
	s := h.spec(12, 1) // one worker: the units run in order
	written := 0
	s.Report.Done = func(row, int, int) { written++ }
	s.Report.Error = func(err error) {
		h.errs = append(h.errs, err)
		if got := len(h.rows()); got != written {
			t.Errorf("at the failure %v the file holds %d rows, want the %d finished", err, got, written)
		}
	}
	_, err := Run(s)
	if err == nil || !strings.Contains(err.Error(), "unit 3: unit 3 broke") || len(h.errs) != 2 {
		t.Errorf("error %v, %d reported; want the first failure (unit 3) and 2 reported", err, len(h.errs))
	}
	if got := h.rows(); len(got) != 10 || slices.Contains(got, 3) || slices.Contains(got, 7) {
		t.Errorf("file holds %v, want every unit but 3 and 7", got)
	}
	h.fail = nil
	s = h.spec(12, 2)
	s.Resume = true
	if _, err := Run(s); err != nil {
		t.Fatal(err)
	}
	slices.Sort(h.ran)
	if !slices.Equal(h.ran, []int{3, 7}) || !slices.Equal(h.rows(), count(12)) {
		t.Errorf("resume ran %v, file holds %v; want 3 and 7, then every unit", h.ran, h.rows())
	}
}

// TestFileRules checks the results file's rules: an existing file is kept and refused without Resume or
// Force, Force overwrites it, Resume of a missing file creates it.
func TestFileRules(t *testing.T) {
	h := newHarness(t)
	s := h.spec(3, 1)
	s.Resume = true // nothing to resume: a new file
	if _, err := Run(s); err != nil || !slices.Equal(h.rows(), count(3)) {
		t.Fatalf("resume of a missing file: %v, %v", h.rows(), err)
	}
	before, _ := os.ReadFile(h.out)
	s = h.spec(2, 1)
	if _, err := Run(s); err == nil || !strings.Contains(err.Error(), "already exists") || len(h.workers) != 0 {
		t.Errorf("existing file without Resume or Force: %v, %d workers made; want an error before any", err, len(h.workers))
	}
	if after, _ := os.ReadFile(h.out); string(after) != string(before) {
		t.Errorf("the refused run changed the file:\n%s", after)
	}
	s.Force = true
	if _, err := Run(s); err != nil || !slices.Equal(h.rows(), count(2)) {
		t.Errorf("force: file holds %v (%v), want units 0 and 1 only", h.rows(), err)
	}
}

// TestResumeBadLines resumes a file with a bad value in the middle and a cut last line (as a killed run
// leaves): both lines are reported by their line numbers, the other rows are kept, the file rewritten,
// and the two units run again.
func TestResumeBadLines(t *testing.T) {
	h := newHarness(t)
	if _, err := Run(h.spec(6, 1)); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(h.out)
	broken := strings.Replace(string(raw), "\n2,4\n", "\n2,x\n", 1)
	broken = broken[:len(broken)-3] // "5,25\n" cut to "5,"
	if err := os.WriteFile(h.out, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := testFormat.Read(h.out)
	if len(rows) != 4 || err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("read: %d rows, %v; want 4 and errors naming lines 4 and 7", len(rows), err)
	}
	s := h.spec(6, 1)
	s.Resume = true
	if _, err := Run(s); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.ran, []int{2, 5}) || len(h.errs) != 2 || !slices.Equal(h.rows(), count(6)) {
		t.Errorf("resume ran %v, reported %v, file %v; want 2 and 5 run, 2 lines reported, every unit once", h.ran, h.errs, h.rows())
	}
}

// TestResumeOldHeader reads a file of an older header (a column fewer): its rows are read with
// ErrOldFormat, and a resume rewrites it in the current format before appending.
func TestResumeOldHeader(t *testing.T) {
	h := newHarness(t)
	format := testFormat
	format.Header = []string{"unit", "value", "note"}
	format.OldHeaders = [][]string{testFormat.Header}
	format.Record = func(r row) []string { return append(testFormat.Record(r), "new") }
	format.Parse = func(rec []string) (row, error) { return testFormat.Parse(rec[:2]) }
	if err := os.WriteFile(h.out, []byte("unit,value\n0,0\n1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rows, err := format.Read(h.out); len(rows) != 2 || !errors.Is(err, ErrOldFormat) {
		t.Errorf("old file: %d rows, %v; want 2 and ErrOldFormat", len(rows), err)
	}
	s := h.spec(3, 1)
	s.Format, s.Resume = format, true
	if _, err := Run(s); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(h.out)
	if string(raw) != "unit,value,note\n0,0,new\n1,1,new\n2,4,new\n" || !slices.Equal(h.ran, []int{2}) {
		t.Errorf("after the resume (ran %v):\n%s", h.ran, raw)
	}
}

// TestCheckRefuses checks that a row refused by Check stops a resume before any work, the file unchanged.
func TestCheckRefuses(t *testing.T) {
	h := newHarness(t)
	if _, err := Run(h.spec(2, 1)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(h.out)
	s := h.spec(4, 1)
	s.Resume = true
	var seen []bool
	s.Check = func(r row, inRun bool) error {
		seen = append(seen, inRun)
		if r.unit == 1 {
			return errors.New("unit 1 of another model")
		}
		return nil
	}
	_, err := Run(s)
	if err == nil || !strings.Contains(err.Error(), "another model") || len(h.workers) != 0 || !slices.Equal(seen, []bool{true, true}) {
		t.Errorf("refused resume: %v, %d workers, Check saw %v", err, len(h.workers), seen)
	}
	if after, _ := os.ReadFile(h.out); string(after) != string(before) {
		t.Errorf("the refused resume changed the file")
	}
}

// TestCostOrder checks that with a cost the units are handed out largest first, ties in their order.
func TestCostOrder(t *testing.T) {
	h := newHarness(t)
	s := h.spec(6, 1)
	s.Cost = func(u int) float64 { return float64(u % 3) } // costs 0 1 2 0 1 2
	if _, err := Run(s); err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 5, 1, 4, 0, 3}; !slices.Equal(h.ran, want) {
		t.Errorf("order %v, want %v", h.ran, want)
	}
}

// TestDuplicateKeys checks that two units with one key are refused.
func TestDuplicateKeys(t *testing.T) {
	h := newHarness(t)
	s := h.spec(2, 1)
	s.Units = []int{1, 1}
	if _, err := Run(s); err == nil || !strings.Contains(err.Error(), `"1"`) {
		t.Errorf("duplicate keys: %v", err)
	}
}

// TestNoBackend checks that a run without a backend maker is refused before any work: the program chooses
// the workers' backend (the library never does), and no results file is created.
func TestNoBackend(t *testing.T) {
	h := newHarness(t)
	s := h.spec(3, 1)
	s.NewBackend = nil
	if _, err := Run(s); err == nil || !strings.Contains(err.Error(), "no backend") {
		t.Errorf("Run without NewBackend: error %v, want one saying there is no backend", err)
	}
	if _, err := os.Stat(h.out); !errors.Is(err, os.ErrNotExist) || len(h.workers) != 0 {
		t.Errorf("Run without NewBackend: results file %v, %d workers made; want none", err, len(h.workers))
	}
}

// TestDefaultOutNeverShared starts two runs at once on the same default name (runs started in the same
// second): each writes a file of its own, the first free of the name and the name with -2, with every
// unit, and says which in Info.Out and Outcome.Out; a third, sharded, takes -3 and writes its run file
// beside it.
func TestDefaultOutNeverShared(t *testing.T) {
	h := [2]*harness{newHarness(t)}
	name := h[0].out
	h[1] = &harness{t: t, out: name}
	var outs [2]Outcome[row]
	var infos [2]Info
	var errs [2]error
	var wg sync.WaitGroup
	for i := range h {
		s := h[i].spec(5, 1)
		s.DefaultOut = true
		s.Report.Start = func(info Info) { infos[i] = info }
		wg.Go(func() { outs[i], errs[i] = Run(s) })
	}
	wg.Wait()
	names := []string{outs[0].Out, outs[1].Out}
	slices.Sort(names)
	base := strings.TrimSuffix(name, ".csv")
	if want := []string{base + "-2.csv", name}; !slices.Equal(names, want) {
		t.Errorf("the two runs wrote %q, want %q", names, want)
	}
	for i := range h {
		if errs[i] != nil || len(outs[i].Results) != 5 || infos[i].Out != outs[i].Out {
			t.Errorf("run %d: %v, %d results, Info.Out %q, Outcome.Out %q", i, errs[i], len(outs[i].Results), infos[i].Out,
				outs[i].Out)
		}
		h[i].out = outs[i].Out
		if got := h[i].rows(); !slices.Equal(got, count(5)) {
			t.Errorf("%s holds units %v, want 0..4", outs[i].Out, got)
		}
	}
	third := newHarness(t)
	third.out = name
	s := third.spec(5, 1)
	s.DefaultOut, s.Sharding = true, &Sharding{Shard{0, 2}, testMeta}
	out, err := Run(s)
	if err != nil || out.Out != base+"-3.csv" {
		t.Fatalf("a third run on the name: %q, %v; want %s-3.csv", out.Out, err, base)
	}
	if _, err := os.Stat(RunFilePath(out.Out)); err != nil {
		t.Errorf("the sharded run's run file: %v", err)
	}
}

// TestReportConvert checks that a converted report hands Start the experiment's info made from the
// runner's, keeps Done and Error, and leaves Start nil (the info never made) when the report has none.
func TestReportConvert(t *testing.T) {
	type expInfo struct {
		Info
		Note string
	}
	var got expInfo
	made := 0
	info := func(i Info) expInfo { made++; return expInfo{Info: i, Note: "extra"} }
	r := Report[expInfo, int]{Start: func(e expInfo) { got = e }, Done: func(int, int, int) {}}
	c := r.Convert(info)
	c.Start(Info{Backend: "b", Units: 3, Done: 1})
	if got.Note != "extra" || got.RunnerInfo().Units != 3 || got.Backend != "b" || c.Done == nil || c.Error != nil {
		t.Errorf("converted Start saw %+v; Done set %v, Error set %v", got, c.Done != nil, c.Error != nil)
	}
	if empty := (Report[expInfo, int]{}).Convert(info); empty.Start != nil || made != 1 {
		t.Errorf("a report without Start: converted Start set %v, info made %d times (want 1)", empty.Start != nil, made)
	}
}
