// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

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
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/layers"
)

// benchOptions are the flags of `latformer bench`.
type benchOptions struct {
	attentions                    []string
	sides, refCanvases            []int
	backends                      []string // --backends: backend configurations timed in turn
	topOps                        int      // --top-ops: ops named in the "bench top-ops" lines (0: none)
	batch, dim, ffn, steps, warm  int
	reference, factoredRef, pyExe string
	torches                       string // --torch: "label=interpreter [args];..."
	settingsText, cpuProfile      string
	importer                      string           // --importer: the importer row's program (bench/importer)
	settings                      hparams.Settings // --set, parsed
}

func runBench(args []string) error {
	fs := newFlagSet("bench", "latformer bench [flags]",
		"Times the training step (forward, backward, Adam) of the reference configuration and prints one\n"+
			"\"bench canvas=N attention=full|factored ... step_ms=X\" line per canvas and attention path (X: the median),\n"+
			"then a \"bench stats\" line with the median, the minimum and the cores other processes used meanwhile.\n"+
			"With --reference it times the PyTorch reference step over as many steps and prints the ratios\n"+
			"median/median and min/min, and a warning when either side's timing was contended.")
	sides := intsFlag(fs, "canvas", []int{10, 20, 30}, "comma-separated canvas `sides` to time")
	o := benchOptions{}
	fs.IntVar(&o.batch, "batch", 16, "batch size")
	fs.IntVar(&o.dim, "d", 32, "model dimension d")
	fs.IntVar(&o.ffn, "dff", 128, "FFN hidden width d_ff (the PyTorch reference uses 4 d)")
	fs.IntVar(&o.steps, "steps", 20,
		"timed steps per canvas and path, and for each PyTorch reference; median and minimum are reported")
	fs.IntVar(&o.warm, "warmup", 3,
		"untimed Go steps before the timed ones (the first compiles the graph; the PyTorch references warm up 3 steps)")
	fs.StringVar(&o.reference, "reference", "", "path of the PyTorch reference script "+
		"(shared/bench/latformer_ref.py) to run side by side at --reference-canvas; empty: skip")
	fs.StringVar(&o.pyExe, "python", "/usr/bin/python3",
		"Python interpreter for --reference (one row labelled pytorch; --torch gives several)")
	fs.StringVar(&o.torches, "torch", "", `PyTorch rows for --reference, "label=interpreter [args];...": `+
		`each runs both reference scripts with that interpreter and those extra arguments (e.g. `+
		`"pytorch2=.venv-bench/bin/python;pytorch2-compile=.venv-bench/bin/python --compile;`+
		`pytorch1.13=/usr/bin/python3"); empty: one row "pytorch" with --python`)
	fs.StringVar(&o.importer, "importer", "", "the importer row's program "+
		"(make bench builds bench/importer into bin/latformer-importer): the full step as a program that imports "+
		"the library gets it (GoMLX's own backend default, its own module), timed at each --canvas interleaved "+
		"with the other sides; empty: skip")
	fs.StringVar(&o.factoredRef, "factored-reference", "",
		"path of the PyTorch mask-only factored step (bench/latformer_factored_ref.py), run with --reference; empty: skip")
	refCanvases := intsFlag(fs, "reference-canvas", []int{30}, "comma-separated canvas `sides` "+
		"of the PyTorch reference steps and of the ratios (each must be among --canvas to get ratios)")
	backends := stringsFlag(fs, "backends", []string{backend.Config()}, "comma-separated backend "+
		"`configurations` to time in turn (\"go\", \"xla:cpu\", ...; \"default\" is backend.DefaultGo, "+
		backend.DefaultGo+", whose options hold a comma); default: $GOMLX_BACKEND, else the latformer command's "+
		"own choice")
	fs.IntVar(&o.topOps, "top-ops", 8, "after each Go-backend side, a \"bench top-ops\" line naming the ops "+
		"that took most of its CPU time, from a CPU profile of its timed steps (0: none; off with --cpuprofile)")
	fs.StringVar(&o.settingsText, "set", "", `extra hyperparameters, "key=value;..."`)
	fs.StringVar(&o.cpuProfile, "cpuprofile", "",
		"write a CPU profile of the timed steps (all canvases and paths) to this file (go tool pprof)")
	attentions := stringsFlag(fs, "attention", []string{"full", "factored"}, "comma-separated attention `paths` "+
		"to time: \"full\" (the paper's masked attention) and \"factored\" (mask-only, per lattice axis; "+
		"latformer_attention=mask_only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o.sides, o.attentions, o.refCanvases = *sides, *attentions, *refCanvases
	for _, cfg := range *backends {
		if cfg == "default" {
			cfg = backend.DefaultGo
		}
		o.backends = append(o.backends, cfg)
	}
	if err := o.check(); err != nil {
		return err
	}
	var err error
	if o.settings, err = parseSettings(o.settingsText, latformer.Params(), benchSettings(o.dim, o.ffn)); err != nil {
		return err
	}
	return o.run()
}

// check returns an error naming the first flag with a value the bench cannot use.
func (o *benchOptions) check() error {
	for _, a := range o.attentions {
		if a != "full" && a != "factored" {
			return fmt.Errorf("--attention: %q is neither full nor factored", a)
		}
	}
	for _, c := range append(slices.Clone(o.sides), o.refCanvases...) {
		if c < 2 || c > datasets.MaxGridSide {
			return fmt.Errorf("--canvas: %d is not a side in 2..%d", c, datasets.MaxGridSide)
		}
	}
	if o.steps < 1 || o.batch < 1 {
		return fmt.Errorf("--steps and --batch must be positive")
	}
	if o.warm < 1 {
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
func (o *benchOptions) torchRows() ([]torchRow, error) {
	if strings.TrimSpace(o.torches) == "" {
		return []torchRow{{label: "pytorch", python: o.pyExe}}, nil
	}
	var rows []torchRow
	seen := map[string]bool{}
	for _, entry := range strings.Split(o.torches, ";") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		label, cmd, ok := strings.Cut(entry, "=")
		label, fields := strings.TrimSpace(label), strings.Fields(cmd)
		if !ok || label == "" || len(fields) == 0 || strings.ContainsAny(label, " /") {
			return nil, fmt.Errorf("--torch: %q is not label=interpreter [args] (a label without spaces or slashes)", entry)
		}
		if seen[label] {
			return nil, fmt.Errorf("--torch: label %q given twice", label)
		}
		seen[label] = true
		rows = append(rows, torchRow{label: label, python: fields[0], args: fields[1:]})
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("--torch: no rows in %q", o.torches)
	}
	return rows, nil
}

// run times, canvas by canvas, the Go steps on each backend and the PyTorch references interleaved
// (timeCanvas), and prints the lines described in runBench.
func (o *benchOptions) run() error {
	printHost()
	for _, cfg := range o.backends {
		b, err := backend.NewWithConfig(cfg)
		if err != nil {
			return fmt.Errorf("--backends %s: %w", cfg, err)
		}
		fmt.Printf("backend: %s\n", backend.Describe(b))
	}
	fmt.Printf("config: batch %d, d %d, d_ff %d, 1 LatFormer layer, "+
		"experts translation (L=5) + rotation + reflection + scaling, cross-entropy over all cells, Adam\n",
		o.batch, o.dim, o.ffn)
	fmt.Printf("timing: %d warm-up steps, then %d timed steps per canvas and path (and per PyTorch reference) "+
		"in %d blocks, every side's blocks interleaved at each canvas; median and min of the timed steps\n",
		o.warm, o.steps, benchRounds)
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
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
	canvases := slices.Clone(o.sides)
	for _, c := range o.refCanvases {
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
func (o *benchOptions) timeCanvas(c int, rows []torchRow) ([]benchSide, error) {
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
	if err := runRounds(timers, o.steps, c); err != nil {
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
func (o *benchOptions) ourSides(c int) ([]*goStepper, error) {
	var steppers []*goStepper
	if !slices.Contains(o.sides, c) {
		return nil, nil
	}
	for _, cfg := range o.backends {
		// kind names our side in the ratio lines: the backend's kind ("go", "xla"), so that an xla:cpu run reads
		// xla/pytorch2.
		kind, _, _ := strings.Cut(cfg, ":")
		for _, att := range o.attentions {
			set := o.settings
			if att == "factored" {
				set = set.With(hparams.Setting{Key: layers.ParamAttention, Value: layers.AttentionMaskOnly})
			}
			st, err := newGoStepper(cfg, c, o.batch, o.dim, o.ffn, o.warm, set,
				o.topOps > 0 && o.cpuProfile == "" && kind == "go")
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
func (o *benchOptions) startImporter(c int) (*importer, error) {
	if o.importer == "" || !slices.Contains(o.sides, c) {
		return nil, nil
	}
	srv, err := benchstat.StartServer("importer "+o.importer, o.importer,
		"--canvas", fmt.Sprint(c), "--batch", fmt.Sprint(o.batch),
		"--d", fmt.Sprint(o.dim), "--dff", fmt.Sprint(o.ffn), "--attention", "full", "--warmup", fmt.Sprint(o.warm))
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
func (o *benchOptions) printImporter(c int, imp *importer, other float64) benchSide {
	st := benchstat.Summarize(imp.timer.times, other)
	fmt.Printf("bench importer canvas=%d attention=full batch=%d d=%d step_ms=%.1f\n", c, o.batch, o.dim, st.MedianMs)
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
func (o *benchOptions) startReferences(c int, rows []torchRow) ([]*reference, error) {
	if o.reference == "" || !slices.Contains(o.refCanvases, c) {
		return nil, nil
	}
	var refs []*reference
	for _, row := range rows {
		args := append([]string{"--canvas", fmt.Sprint(c), "--batch", fmt.Sprint(o.batch), "--d", fmt.Sprint(o.dim),
			"--threads", fmt.Sprint(runtime.GOMAXPROCS(0))}, row.args...)
		scripts := []string{o.reference}
		if o.factoredRef != "" {
			scripts = append(scripts, o.factoredRef)
		}
		for i, script := range scripts {
			a := slices.Clone(args)
			if i == 0 {
				a = append(a, "--fit-steps", "0", "--no-breakdown")
			} else {
				a = append(a, "--reference", o.reference)
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
func (o *benchOptions) printOurs(c int, steppers []*goStepper, other float64) []benchSide {
	ours := make([]benchSide, 0, len(steppers))
	for _, st := range steppers {
		s := &st.side
		s.stats = benchstat.Summarize(st.timer.times, other)
		fmt.Printf("bench canvas=%d attention=%s batch=%d d=%d step_ms=%.1f backend=%s\n", c, s.attention, o.batch,
			o.dim, s.stats.MedianMs, st.cfg)
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
				c, s.attention, st.cfg, benchstat.FormatTopOps(shares, o.topOps))
		}
	}
	return ours
}

// printReference prints a reference's lines and the ratios of our sides to it, and returns its side.
func (o *benchOptions) printReference(c int, r *reference, ours []benchSide, other float64) benchSide {
	st := benchstat.Summarize(r.timer.times, other)
	label, name := r.row.label, fmt.Sprintf("%s full canvas=%d", r.row.label, c)
	if r.factored {
		label, name = r.row.label+"-factored", fmt.Sprintf("%s factored canvas=%d", r.row.label, c)
	}
	fmt.Printf("bench reference=%s canvas=%d batch=%d d=%d step_ms=%.1f\n", label, c, o.batch, o.dim, st.MedianMs)
	fmt.Printf("bench stats reference=%s canvas=%d %s\n", label, c, st)
	for _, s := range ours {
		switch {
		case !r.factored:
			fmt.Printf("bench ratio %s/%s canvas=%d attention=%s: %.2f (below 1 means faster than %s's full step)\n",
				s.ours, label, c, s.attention, benchstat.Ratio(s.stats.MedianMs, st.MedianMs), label)
			fmt.Printf("bench ratio-min %s/%s canvas=%d attention=%s: %.2f (min/min; the line above is median/median)\n",
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
