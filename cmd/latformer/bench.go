// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
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
	fs.IntVar(&o.steps, "steps", 20, "timed steps per canvas and path, and for each PyTorch reference; median and minimum are reported")
	fs.IntVar(&o.warm, "warmup", 3, "untimed Go steps before the timed ones (the first compiles the graph; the PyTorch references warm up 3 steps)")
	fs.StringVar(&o.reference, "reference", "", "path of the PyTorch reference script (shared/bench/latformer_ref.py) to run side by side at --reference-canvas; empty: skip")
	fs.StringVar(&o.pyExe, "python", "/usr/bin/python3", "Python interpreter for --reference (one row labelled pytorch; --torch gives several)")
	fs.StringVar(&o.torches, "torch", "", `PyTorch rows for --reference, "label=interpreter [args];...": each runs both reference scripts with that interpreter and those extra arguments (e.g. "pytorch2=.venv-bench/bin/python;pytorch2-compile=.venv-bench/bin/python --compile;pytorch1.13=/usr/bin/python3"); empty: one row "pytorch" with --python`)
	fs.StringVar(&o.factoredRef, "factored-reference", "", "path of the PyTorch mask-only factored step (bench/latformer_factored_ref.py), run with --reference; empty: skip")
	refCanvases := intsFlag(fs, "reference-canvas", []int{30}, "comma-separated canvas `sides` of the PyTorch reference steps and of the ratios (each must be among --canvas to get ratios)")
	backends := stringsFlag(fs, "backends", []string{backend.Config()}, "comma-separated backend `configurations` to time in turn (\"go\", \"xla:cpu\", ...); default: $GOMLX_BACKEND or go")
	fs.IntVar(&o.topOps, "top-ops", 8, "after each Go-backend side, a \"bench top-ops\" line naming the ops that took most of its CPU time, from a CPU profile of its timed steps (0: none; off with --cpuprofile)")
	fs.StringVar(&o.settingsText, "set", "", `extra hyperparameters, "key=value;..."`)
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the timed steps (all canvases and paths) to this file (go tool pprof)")
	attentions := stringsFlag(fs, "attention", []string{"full", "factored"}, "comma-separated attention `paths` to time: \"full\" (the paper's masked attention) and \"factored\" (mask-only, per lattice axis; latformer_attention=mask_only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o.sides, o.attentions, o.refCanvases = *sides, *attentions, *refCanvases
	for _, cfg := range *backends {
		o.backends = append(o.backends, backend.SafeGoConfig(cfg))
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

// run times, canvas by canvas, the Go steps on each backend and then the PyTorch references, and prints the lines described in
// runBench.
func (o *benchOptions) run() error {
	printHost()
	for _, cfg := range o.backends {
		b, err := backend.NewWithConfig(cfg)
		if err != nil {
			return fmt.Errorf("--backends %s: %w", cfg, err)
		}
		fmt.Printf("backend: %s\n", backend.Describe(b))
	}
	fmt.Printf("config: batch %d, d %d, d_ff %d, 1 LatFormer layer, experts translation (L=5) + rotation + reflection + scaling, cross-entropy over all cells, Adam\n",
		o.batch, o.dim, o.ffn)
	fmt.Printf("timing: %d warm-up steps, then %d timed steps per canvas and path (and per PyTorch reference); median and min of the timed steps\n",
		o.warm, o.steps)
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
	// Canvas by canvas: our sides, then (at a reference canvas) the PyTorch references right after them, so that
	// each ratio compares timings taken within a minute or two of each other (the shared host's speed drifts over
	// the minutes a whole run takes; with every reference at the end, a ratio compared timings minutes apart).
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
		var sides []benchSide // our sides at this canvas, for the ratios
		for _, cfg := range o.backends {
			if !slices.Contains(o.sides, c) {
				break
			}
			// ours names our side in the ratio lines: the backend's kind ("go", "xla"), so that an xla:cpu run
			// reads xla/pytorch2.
			ours, _, _ := strings.Cut(cfg, ":")
			for _, att := range o.attentions {
				side, err := o.timeSide(cfg, ours, c, att)
				if err != nil {
					return err
				}
				all = append(all, side)
				sides = append(sides, side)
			}
		}
		if o.reference == "" || !slices.Contains(o.refCanvases, c) {
			continue
		}
		// Hand the Go heap back to the system, so that the reference's allocations do not compete with it.
		runtime.GC()
		debug.FreeOSMemory()
		for _, row := range rows {
			ref, err := o.runReferencesAt(row, c, sides)
			if err != nil {
				return err
			}
			all = append(all, ref...)
		}
	}
	warnContended(all)
	return nil
}

// timeSide times our step on backend cfg (kind ours) at canvas c with attention path att and prints its lines
// (and its top ops where asked).
func (o *benchOptions) timeSide(cfg, ours string, c int, att string) (benchSide, error) {
	set := o.settings
	if att == "factored" {
		set = set.With(hparams.Setting{Key: layers.ParamAttention, Value: layers.AttentionMaskOnly})
	}
	var prof *bytes.Buffer
	var profW io.Writer // nil unless profiling (a nil *bytes.Buffer would be a non-nil io.Writer)
	if o.topOps > 0 && o.cpuProfile == "" && ours == "go" {
		prof = &bytes.Buffer{}
		profW = prof
	}
	st, err := benchCanvas(cfg, c, o.batch, o.dim, o.ffn, o.warm, o.steps, set, profW)
	if err != nil {
		return benchSide{}, fmt.Errorf("backend %s, canvas %d, attention %s: %w", cfg, c, att, err)
	}
	fmt.Printf("bench canvas=%d attention=%s batch=%d d=%d step_ms=%.1f backend=%s\n", c, att, o.batch, o.dim, st.MedianMs, cfg)
	fmt.Printf("bench stats canvas=%d attention=%s %s\n", c, att, st)
	if prof != nil {
		if shares, err := benchstat.TopOps(prof.Bytes()); err != nil {
			fmt.Printf("bench top-ops canvas=%d attention=%s backend=%s: (profile unreadable: %v)\n", c, att, cfg, err)
		} else {
			fmt.Printf("bench top-ops canvas=%d attention=%s backend=%s: %s (share of the timed steps' CPU time)\n",
				c, att, cfg, benchstat.FormatTopOps(shares, o.topOps))
		}
	}
	return benchSide{fmt.Sprintf("%s %s canvas=%d", ours, att, c), att, ours, st}, nil
}

// runReferencesAt runs one PyTorch row's references at canvas c and prints them and the ratios of sides.
func (o *benchOptions) runReferencesAt(row torchRow, c int, sides []benchSide) ([]benchSide, error) {
	args := append([]string{"--steps", fmt.Sprint(o.steps), "--canvas", fmt.Sprint(c),
		"--batch", fmt.Sprint(o.batch), "--d", fmt.Sprint(o.dim), "--threads", fmt.Sprint(runtime.GOMAXPROCS(0))}, row.args...)
	torch, err := runReference(row.label, row.python, o.reference, append(slices.Clone(args), "--fit-steps", "0")...)
	if err != nil {
		return nil, fmt.Errorf("PyTorch reference (%s, canvas %d): %w", row.label, c, err)
	}
	if torch.Steps == 0 { // the shared script does not print its step count: it times --steps
		torch.Steps = o.steps
	}
	fmt.Printf("bench reference=%s canvas=%d batch=%d d=%d step_ms=%.1f\n", row.label, c, o.batch, o.dim, torch.MedianMs)
	fmt.Printf("bench stats reference=%s canvas=%d %s\n", row.label, c, torch)
	refs := []benchSide{{name: fmt.Sprintf("%s full canvas=%d", row.label, c), stats: torch}}
	for _, s := range sides {
		fmt.Printf("bench ratio %s/%s canvas=%d attention=%s: %.2f (below 1 means faster than %s's full step)\n",
			s.ours, row.label, c, s.attention, benchstat.Ratio(s.stats.MedianMs, torch.MedianMs), row.label)
		fmt.Printf("bench ratio-min %s/%s canvas=%d attention=%s: %.2f (min/min; the line above is median/median)\n",
			s.ours, row.label, c, s.attention, benchstat.Ratio(s.stats.MinMs, torch.MinMs))
	}
	if o.factoredRef == "" {
		return refs, nil
	}
	fact, err := runReference(row.label, row.python, o.factoredRef, append(args, "--reference", o.reference)...)
	if err != nil {
		return nil, fmt.Errorf("PyTorch factored reference (%s, canvas %d): %w", row.label, c, err)
	}
	fmt.Printf("bench reference=%s-factored canvas=%d batch=%d d=%d step_ms=%.1f\n", row.label, c, o.batch, o.dim, fact.MedianMs)
	fmt.Printf("bench stats reference=%s-factored canvas=%d %s\n", row.label, c, fact)
	refs = append(refs, benchSide{name: fmt.Sprintf("%s factored canvas=%d", row.label, c), stats: fact})
	for _, s := range sides {
		if s.attention == "factored" {
			fmt.Printf("bench ratio %s/%s-factored canvas=%d attention=factored: %.2f (same work)\n", s.ours, row.label, c, benchstat.Ratio(s.stats.MedianMs, fact.MedianMs))
			fmt.Printf("bench ratio-min %s/%s-factored canvas=%d attention=factored: %.2f (min/min, same work)\n", s.ours, row.label, c, benchstat.Ratio(s.stats.MinMs, fact.MinMs))
		}
	}
	return refs, nil
}

// runReference runs a PyTorch reference script (benchstat.RunReference) and prints its configuration,
// backend, compile, contention and equality lines prefixed by "reference (label): ".
func runReference(label, python, script string, args ...string) (benchstat.StepStats, error) {
	st, lines, err := benchstat.RunReference(python, script, args...)
	for _, line := range lines {
		fmt.Printf("reference (%s): %s\n", label, line)
	}
	return st, err
}

// benchSide is one timed side of a comparison: an attention path on one of our backends (ours: its kind,
// "go" or "xla") or a PyTorch reference.
type benchSide struct {
	name, attention, ours string
	stats                 benchstat.StepStats
}

// warnContended prints one warning line per side whose timing shared the CPUs with other processes, or
// whose contention could not be measured, and a line saying so when none was.
func warnContended(sides []benchSide) {
	clean := true
	for _, s := range sides {
		switch v := s.stats.Verdict(); v {
		case benchstat.VerdictClean:
		default:
			clean = false
			fmt.Printf("bench WARNING %s: %s\n", s.name, v)
		}
	}
	if clean && len(sides) > 0 {
		fmt.Printf("bench contention: none (other processes used at most %.1f core while each side was timed)\n", benchstat.ContendedCores)
	}
}

// printHost prints the CPU model, its SIMD flags and the matrix-multiplication kernels that GoMLX's Go
// backend uses on it with this build.
func printHost() {
	text, _ := os.ReadFile("/proc/cpuinfo")
	h := benchstat.ParseCPUInfo(string(text))
	yesNo := func(f string) string {
		if h.Flags[f] {
			return f + " yes"
		}
		return f + " no"
	}
	fmt.Printf("cpu: %s; %d logical CPUs (GOMAXPROCS %d); %s, %s, %s\n", h.Model, h.CPUs, runtime.GOMAXPROCS(0),
		yesNo("avx2"), yesNo("avx512f"), yesNo("fma"))
	experiments := buildSetting("GOEXPERIMENT")
	kernels := benchstat.SIMDPath(runtime.GOARCH, experiments, h.Flags, os.Getenv)
	if kernels == "simd:avx512" && benchstat.ComputeReplacement() == benchstat.ComputeFork {
		kernels += " (products with at most 16 right-hand columns: docs/upstream/compute-matmul-narrow.patch)"
	}
	fmt.Printf("simd: %s, GOEXPERIMENT=%s, GOARCH=%s; Go backend float32 matmul kernels: %s\n", runtime.Version(),
		experiments, runtime.GOARCH, kernels)
	fmt.Printf("simd: Go backend float32 softmax: %s\n",
		benchstat.SoftmaxPath(runtime.GOARCH, experiments, buildSetting("GOAMD64"), benchstat.ComputeReplacement(), h.Flags, os.Getenv))
	if _, unknown := benchstat.ApplyGODEBUG(h.Flags, os.Getenv("GODEBUG")); len(unknown) > 0 {
		fmt.Printf("simd: GODEBUG names cpu.%s, which Go does not know and ignores (it printed \"GODEBUG: unknown cpu feature\"); "+
			"cpu.avx512f=off or GOMLX_SIMD_AVX512=false turn the AVX-512 kernels off\n", strings.Join(unknown, ", cpu."))
	}
}

// buildSetting returns the value of a setting recorded in the binary's build information ("" if absent).
func buildSetting(key string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == key {
				return s.Value
			}
		}
	}
	return ""
}

// benchSettings are the hyperparameters of the reference configuration (d, d_ff, one color copy), before
// --set.
func benchSettings(dim, ffn int) hparams.Settings {
	return hparams.Settings{{Key: latformer.ParamDim, Value: dim}, {Key: layers.ParamFFNDim, Value: ffn}, {Key: latformer.ParamAugment, Value: 1}}
}

// benchCanvas times `steps` training steps on random canvases after `warm` untimed ones on the backend of
// configuration cfg, and measures how many cores other processes used meanwhile; with prof, it writes a CPU
// profile of the timed steps there.
func benchCanvas(cfg string, canvas, batch, dim, ffn, warm, steps int, settings hparams.Settings, prof io.Writer) (benchstat.StepStats, error) {
	store, err := latformer.NewStore(benchSettings(dim, ffn).With(settings...))
	if err != nil {
		return benchstat.StepStats{}, err
	}
	b, err := backend.NewWithConfig(cfg)
	if err != nil {
		return benchstat.StepStats{}, err
	}
	learner, err := latformer.NewLearner(b, store, canvas, canvas)
	if err != nil {
		return benchstat.StepStats{}, err
	}
	n := canvas * canvas
	rng := rand.New(rand.NewPCG(1, uint64(canvas)))
	random := func() *tensors.Tensor {
		t := tensors.FromShape(shapes.Make(dtypes.Int32, batch, n))
		tensors.MustMutableFlatData[int32](t, func(f []int32) {
			for i := range f {
				f[i] = int32(rng.IntN(datasets.NumTokens))
			}
		})
		return t
	}
	tokens, targets := random(), random()
	for range warm {
		if _, err := learner.TrainBatch(tokens, targets); err != nil {
			return benchstat.StepStats{}, err
		}
	}
	times := make([]float64, 0, steps)
	if prof != nil {
		if err := pprof.StartCPUProfile(prof); err != nil {
			return benchstat.StepStats{}, err
		}
	}
	before, errBefore := benchstat.SampleCPU()
	for range steps {
		start := time.Now()
		if _, err := learner.TrainBatch(tokens, targets); err != nil {
			return benchstat.StepStats{}, err
		}
		times = append(times, float64(time.Since(start).Microseconds())/1000)
	}
	after, errAfter := benchstat.SampleCPU()
	if prof != nil {
		pprof.StopCPUProfile()
	}
	other := benchstat.UnknownCores
	if errAfter == nil && errBefore == nil {
		other = benchstat.OtherCoresBetween(before, after)
	}
	return benchstat.Summarize(times, other), nil
}
