// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package bench

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/benchstat"
	"github.com/latformer/latformer/layers"
)

// Options say what Run times (the flags of `latformer bench`).
type Options struct {
	// Attentions are the attention paths timed: "full" (the paper's masked attention) and "factored"
	// (mask-only, per lattice axis).
	Attentions []string
	// Sides are the canvas sides timed; RefCanvases those of the PyTorch references and of the ratios.
	Sides, RefCanvases []int
	Backends           []string // backend configurations timed in turn
	TopOps             int      // ops named in the "bench top-ops" lines (0: none)
	// Batch, Dim and FFN are the reference configuration's; Steps the timed steps per canvas and path, Warm
	// the untimed ones before (at least 1: the first compiles the graph).
	Batch, Dim, FFN, Steps, Warm int
	// Reference and FactoredRef are the PyTorch reference scripts (empty: none); Python runs them unless
	// Torches ("label=interpreter [args];...") names several installations.
	Reference, FactoredRef, Python, Torches string
	CPUProfile                              string           // a CPU profile of the timed steps (empty: none)
	Importer                                string           // the importer row's program (bench/importer; empty: none)
	Settings                                hparams.Settings // hyperparameters on top of the reference configuration
}

// Check returns an error naming the first option with a value the bench cannot use.
func (o *Options) Check() error {
	for _, a := range o.Attentions {
		if a != "full" && a != "factored" {
			return fmt.Errorf("--attention: %q is neither full nor factored", a)
		}
	}
	for _, c := range append(slices.Clone(o.Sides), o.RefCanvases...) {
		if c < 2 || c > datasets.MaxGridSide {
			return fmt.Errorf("--canvas: %d is not a side in 2..%d", c, datasets.MaxGridSide)
		}
	}
	if o.Steps < 1 || o.Batch < 1 {
		return fmt.Errorf("--steps and --batch must be positive")
	}
	if o.Warm < 1 {
		return fmt.Errorf("--warmup must be at least 1 (the first step compiles the graph)")
	}
	if _, err := o.torchRows(); err != nil {
		return err
	}
	return nil
}

// torchRow is one PyTorch installation (and mode) the references run with: a label for the output lines,
// the interpreter and extra arguments for both scripts.
type torchRow struct {
	label, python string
	args          []string
}

// torchRows parses --torch ("label=interpreter [args];..."); without it, one row "pytorch" with --python.
func (o *Options) torchRows() ([]torchRow, error) {
	if strings.TrimSpace(o.Torches) == "" {
		return []torchRow{{label: "pytorch", python: o.Python}}, nil
	}
	var rows []torchRow
	seen := map[string]bool{}
	for _, entry := range strings.Split(o.Torches, ";") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		label, cmd, ok := strings.Cut(entry, "=")
		label, fields := strings.TrimSpace(label), strings.Fields(cmd)
		if !ok || label == "" || len(fields) == 0 || strings.ContainsAny(label, " /") {
			return nil, fmt.Errorf("--torch: %q is not label=interpreter [args] (a label without spaces or slashes)",
				entry)
		}
		if seen[label] {
			return nil, fmt.Errorf("--torch: label %q given twice", label)
		}
		seen[label] = true
		rows = append(rows, torchRow{label: label, python: fields[0], args: fields[1:]})
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("--torch: no rows in %q", o.Torches)
	}
	return rows, nil
}

// Run times, canvas by canvas, the Go steps on each backend and the PyTorch references interleaved
// (timeCanvas), and prints on stdout one "bench canvas=N attention=full|factored ... step_ms=X" line per canvas
// and attention path (X: the median), "bench stats" lines, and with a reference the ratios median/median and
// min/min ("bench ratio go/pytorch2 canvas=N attention=full: X") and a warning when a side was contended.
func Run(o Options) error {
	if err := o.Check(); err != nil {
		return err
	}
	printHost()
	for _, cfg := range o.Backends {
		b, err := backend.NewWithConfig(cfg)
		if err != nil {
			return fmt.Errorf("--backends %s: %w", cfg, err)
		}
		fmt.Printf("backend: %s\n", backend.Describe(b))
	}
	fmt.Printf("config: batch %d, d %d, d_ff %d, 1 LatFormer layer, "+
		"experts translation (L=5) + rotation + reflection + scaling, cross-entropy over all cells, Adam\n",
		o.Batch, o.Dim, o.FFN)
	fmt.Printf("timing: %d warm-up steps, then %d timed steps per canvas and path (and per PyTorch reference) "+
		"in %d blocks, every side's blocks interleaved at each canvas; median and min of the timed steps\n",
		o.Warm, o.Steps, benchRounds)
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rows, err := o.torchRows()
	if err != nil {
		return err
	}
	// The reference canvases without our sides come last: their references alone (no ratios).
	canvases := slices.Clone(o.Sides)
	for _, c := range o.RefCanvases {
		if !slices.Contains(canvases, c) {
			canvases = append(canvases, c)
		}
	}
	var all []benchSide
	for _, c := range canvases {
		sides, err := o.timeCanvas(c, rows)
		if err != nil {
			return err
		}
		all = append(all, sides...)
	}
	warnContended(all)
	return nil
}

// benchRounds is the number of blocks each side's timed steps are split into, interleaved with the other
// sides' blocks at the same canvas; benchPause is the rest between two blocks (a PyTorch build's OpenMP
// threads spin a while after their last parallel region, Go's background GC may finish a cycle).
const (
	benchRounds = 5
	benchPause  = 100 * time.Millisecond
)

// timer is a side being timed at one canvas: run times a block of n steps (wall ms each).
type timer struct {
	label string
	times []float64
	run   func(n int) ([]float64, error)
}

// timeCanvas times every side at canvas c, interleaved: our sides (each backend and attention path) and, at a
// reference canvas, each PyTorch row's references, built and warmed up first, then benchRounds rounds in which
// every side times a block of its steps (the order rotating from round to round). A shared host's speed drifts
// within seconds; timed one after the other, sides compared timings taken up to a minute apart (at canvas 10,
// ratios of 0.61 to 1.45 in nine runs of the same code). It then prints our sides' lines and the references'
// with the ratios. Our learners stay alive meanwhile, with the heap a training keeps (the Go heap is no longer
// handed back to the system before the references, which made our first steps after it fault their pages in).
func (o *Options) timeCanvas(c int, rows []torchRow) ([]benchSide, error) {
	steppers, err := o.ourSides(c)
	if err != nil {
		return nil, err
	}
	imp, err := o.startImporter(c)
	if imp != nil {
		defer imp.srv.Close()
	}
	if err != nil {
		return nil, err
	}
	refs, err := o.startReferences(c, rows)
	defer func() {
		for _, r := range refs {
			r.srv.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	timers := make([]*timer, 0, len(steppers)+len(refs)+1)
	var pids []int
	for _, st := range steppers {
		timers = append(timers, st.timer)
	}
	if imp != nil {
		timers = append(timers, imp.timer)
		pids = append(pids, imp.srv.Pid())
	}
	for _, r := range refs {
		timers = append(timers, r.timer)
		pids = append(pids, r.srv.Pid())
	}
	// Contention over the whole interleaved run: the CPU time of processes other than ours and the references'.
	before, errBefore := benchstat.SampleCPUWith(pids...)
	if err := runRounds(timers, o.Steps, c); err != nil {
		return nil, err
	}
	after, errAfter := benchstat.SampleCPUWith(pids...)
	other := benchstat.UnknownCores
	if errBefore == nil && errAfter == nil {
		other = benchstat.OtherCoresBetween(before, after)
	}
	all := o.printOurs(c, steppers, other)
	if imp != nil {
		all = append(all, o.printImporter(c, imp, other))
	}
	ours := slices.Clone(all)
	for _, r := range refs {
		all = append(all, o.printReference(c, r, ours, other))
	}
	return all, nil
}

// ourSides builds and warms up our learners at canvas c, one per backend and attention path (none if c is only a
// reference canvas), each with the side it times (statistics filled in by printOurs).
func (o *Options) ourSides(c int) ([]*goStepper, error) {
	var steppers []*goStepper
	if !slices.Contains(o.Sides, c) {
		return nil, nil
	}
	for _, cfg := range o.Backends {
		// kind names our side in the ratio lines: the backend's kind ("go", "xla"), so that an xla:cpu run reads
		// xla/pytorch2.
		kind, _, _ := strings.Cut(cfg, ":")
		for _, att := range o.Attentions {
			set := o.Settings
			if att == "factored" {
				set = set.With(hparams.Setting{Key: layers.ParamAttention, Value: layers.AttentionMaskOnly})
			}
			st, err := newGoStepper(cfg, c, o.Batch, o.Dim, o.FFN, o.Warm, set,
				o.TopOps > 0 && o.CPUProfile == "" && kind == "go")
			if err != nil {
				return nil, fmt.Errorf("backend %s, canvas %d, attention %s: %w", cfg, c, att, err)
			}
			st.cfg, st.timer = cfg, &timer{label: cfg + " " + att, run: st.run}
			st.side = benchSide{name: fmt.Sprintf("%s %s canvas=%d", kind, att, c), attention: att, ours: kind}
			steppers = append(steppers, st)
		}
	}
	return steppers, nil
}

// importer is the importer row's program (bench/importer) running as a server at one canvas.
type importer struct {
	srv   *benchstat.ReferenceServer
	timer *timer
}

// startImporter starts, at one of our canvases, the importer row's program on the full step (nil without
// --importer) and prints its configuration lines.
func (o *Options) startImporter(c int) (*importer, error) {
	if o.Importer == "" || !slices.Contains(o.Sides, c) {
		return nil, nil
	}
	srv, err := benchstat.StartServer("importer "+o.Importer, o.Importer,
		"--canvas", fmt.Sprint(c), "--batch", fmt.Sprint(o.Batch),
		"--d", fmt.Sprint(o.Dim), "--dff", fmt.Sprint(o.FFN), "--attention", "full", "--warmup", fmt.Sprint(o.Warm))
	if err != nil {
		return nil, fmt.Errorf("--importer (canvas %d): %w", c, err)
	}
	for _, line := range srv.Shown {
		fmt.Printf("importer: %s\n", line)
	}
	return &importer{srv: srv, timer: &timer{label: "importer full", run: srv.Run}}, nil
}

// printImporter prints the importer row's lines and returns its side, which the references' ratios name
// "importer".
func (o *Options) printImporter(c int, imp *importer, other float64) benchSide {
	st := benchstat.Summarize(imp.timer.times, other)
	fmt.Printf("bench importer canvas=%d attention=full batch=%d d=%d step_ms=%.1f\n", c, o.Batch, o.Dim, st.MedianMs)
	fmt.Printf("bench stats importer canvas=%d attention=full %s\n", c, st)
	return benchSide{name: fmt.Sprintf("importer full canvas=%d", c), attention: "full", ours: "importer", stats: st}
}

// reference is a PyTorch reference script running as a server (--serve) for one row at one canvas.
type reference struct {
	row      torchRow
	factored bool // the factored (mask-only) script, else the full reference
	srv      *benchstat.ReferenceServer
	timer    *timer
}

// startReferences starts, at a reference canvas, each row's reference servers (the full step and, with
// --factored-reference, the factored one) and prints their configuration lines; the servers started are returned
// with an error too, to be closed.
func (o *Options) startReferences(c int, rows []torchRow) ([]*reference, error) {
	if o.Reference == "" || !slices.Contains(o.RefCanvases, c) {
		return nil, nil
	}
	var refs []*reference
	for _, row := range rows {
		args := append([]string{"--canvas", fmt.Sprint(c), "--batch", fmt.Sprint(o.Batch), "--d", fmt.Sprint(o.Dim),
			"--threads", fmt.Sprint(runtime.GOMAXPROCS(0))}, row.args...)
		scripts := []string{o.Reference}
		if o.FactoredRef != "" {
			scripts = append(scripts, o.FactoredRef)
		}
		for i, script := range scripts {
			a := slices.Clone(args)
			if i == 0 {
				a = append(a, "--fit-steps", "0", "--no-breakdown")
			} else {
				a = append(a, "--reference", o.Reference)
			}
			srv, err := benchstat.StartReference(row.python, script, a...)
			if err != nil {
				return refs, fmt.Errorf("PyTorch reference (%s, canvas %d): %w", row.label, c, err)
			}
			for _, line := range srv.Shown {
				fmt.Printf("reference (%s): %s\n", row.label, line)
			}
			refs = append(refs, &reference{row: row, factored: i == 1, srv: srv,
				timer: &timer{label: row.label + " " + script, run: srv.Run}})
		}
	}
	return refs, nil
}

// runRounds times `steps` steps of every timer in benchRounds blocks, round by round, each round's order starting
// one timer further, with benchPause before each block.
func runRounds(timers []*timer, steps, c int) error {
	for round := range benchRounds {
		n := steps/benchRounds + btoi(round < steps%benchRounds)
		if n == 0 {
			continue
		}
		for i := range timers {
			t := timers[(i+round)%len(timers)]
			time.Sleep(benchPause)
			times, err := t.run(n)
			if err != nil {
				return fmt.Errorf("canvas %d, %s: %w", c, t.label, err)
			}
			t.times = append(t.times, times...)
		}
	}
	return nil
}

// printOurs fills in our sides' statistics (other: the cores other processes used), prints their lines and top ops
// and returns the sides.
func (o *Options) printOurs(c int, steppers []*goStepper, other float64) []benchSide {
	ours := make([]benchSide, 0, len(steppers))
	for _, st := range steppers {
		s := &st.side
		s.stats = benchstat.Summarize(st.timer.times, other)
		fmt.Printf("bench canvas=%d attention=%s batch=%d d=%d step_ms=%.1f backend=%s\n", c, s.attention, o.Batch,
			o.Dim, s.stats.MedianMs, st.cfg)
		fmt.Printf("bench stats canvas=%d attention=%s %s\n", c, s.attention, s.stats)
		ours = append(ours, *s)
		if len(st.profiles) == 0 {
			continue
		}
		if shares, err := benchstat.TopOps(st.profiles...); err != nil {
			fmt.Printf("bench top-ops canvas=%d attention=%s backend=%s: (profile unreadable: %v)\n", c, s.attention,
				st.cfg, err)
		} else {
			fmt.Printf("bench top-ops canvas=%d attention=%s backend=%s: %s (share of the timed steps' CPU time)\n",
				c, s.attention, st.cfg, benchstat.FormatTopOps(shares, o.TopOps))
		}
	}
	return ours
}

// printReference prints a reference's lines and the ratios of our sides to it, and returns its side.
func (o *Options) printReference(c int, r *reference, ours []benchSide, other float64) benchSide {
	st := benchstat.Summarize(r.timer.times, other)
	label, name := r.row.label, fmt.Sprintf("%s full canvas=%d", r.row.label, c)
	if r.factored {
		label, name = r.row.label+"-factored", fmt.Sprintf("%s factored canvas=%d", r.row.label, c)
	}
	fmt.Printf("bench reference=%s canvas=%d batch=%d d=%d step_ms=%.1f\n", label, c, o.Batch, o.Dim, st.MedianMs)
	fmt.Printf("bench stats reference=%s canvas=%d %s\n", label, c, st)
	for _, s := range ours {
		switch {
		case !r.factored:
			fmt.Printf("bench ratio %s/%s canvas=%d attention=%s: %.2f (below 1 means faster than %s's full step)\n",
				s.ours, label, c, s.attention, benchstat.Ratio(s.stats.MedianMs, st.MedianMs), label)
			fmt.Printf("bench ratio-min %s/%s canvas=%d attention=%s: %.2f "+
				"(min/min; the line above is median/median)\n",
				s.ours, label, c, s.attention, benchstat.Ratio(s.stats.MinMs, st.MinMs))
		case s.attention == "factored":
			fmt.Printf("bench ratio %s/%s canvas=%d attention=factored: %.2f (same work)\n",
				s.ours, label, c, benchstat.Ratio(s.stats.MedianMs, st.MedianMs))
			fmt.Printf("bench ratio-min %s/%s canvas=%d attention=factored: %.2f (min/min, same work)\n",
				s.ours, label, c, benchstat.Ratio(s.stats.MinMs, st.MinMs))
		}
	}
	return benchSide{name: name, stats: st}
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// benchSide is one timed side of a comparison: an attention path on one of our backends (ours: its kind,
// "go" or "xla") or a PyTorch reference.
type benchSide struct {
	name, attention, ours string
	stats                 benchstat.StepStats
}

// warnContended prints a warning line for each contention verdict other than clean, naming the sides it
// concerns (the sides at a canvas share one: it is measured over their interleaved run), and a line saying so when
// every side was clean.
func warnContended(sides []benchSide) {
	var verdicts []string
	names := map[string][]string{}
	for _, s := range sides {
		if v := s.stats.Verdict(); v != benchstat.VerdictClean {
			if names[v] == nil {
				verdicts = append(verdicts, v)
			}
			names[v] = append(names[v], s.name)
		}
	}
	for _, v := range verdicts {
		fmt.Printf("bench WARNING %s: %s\n", strings.Join(names[v], ", "), v)
	}
	if len(verdicts) == 0 && len(sides) > 0 {
		fmt.Printf("bench contention: none (other processes used at most %.1f core while each side was timed)\n",
			benchstat.ContendedCores)
	}
}
