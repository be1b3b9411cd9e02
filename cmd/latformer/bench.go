// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/layers"
)

func runBench(args []string) error {
	fs := newFlagSet("bench", "latformer bench [flags]",
		"Times the training step (forward, backward, Adam) of the reference configuration and prints one\n\"bench canvas=N attention=full|factored ... step_ms=X\" line per canvas and attention path.")
	canvases := intsFlag(fs, "canvas", []int{10, 20, 30}, "comma-separated canvas `sides` to time")
	batch := fs.Int("batch", 16, "batch size")
	dim := fs.Int("d", 32, "model dimension d")
	ffn := fs.Int("dff", 128, "FFN hidden width d_ff")
	steps := fs.Int("steps", 10, "timed steps per canvas (after 2 warm-up steps); the median is reported")
	reference := fs.String("reference", "", "path of the PyTorch reference script (shared/bench/latformer_ref.py) to run side by side at canvas 30; empty: skip")
	python := fs.String("python", "/usr/bin/python3", "Python interpreter for --reference")
	factoredRef := fs.String("factored-reference", "", "path of the PyTorch mask-only factored step (bench/latformer_factored_ref.py), run with --reference at canvas 30; empty: skip")
	settings := fs.String("set", "", `extra hyperparameters, "key=value;..."`)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed steps (all canvases and paths) to this file (go tool pprof)")
	attentions := stringsFlag(fs, "attention", []string{"full", "factored"}, "comma-separated attention `paths` to time: \"full\" (the paper's masked attention) and \"factored\" (mask-only, per lattice axis; latformer_attention=mask_only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, a := range *attentions {
		if a != "full" && a != "factored" {
			return fmt.Errorf("--attention: %q is neither full nor factored", a)
		}
	}
	for _, c := range *canvases {
		if c < 2 || c > datasets.MaxGridSide {
			return fmt.Errorf("--canvas: %d is not a side in 2..%d", c, datasets.MaxGridSide)
		}
	}
	if *steps < 1 || *batch < 1 {
		return fmt.Errorf("--steps and --batch must be positive")
	}
	backend, err := latformer.NewBackend()
	if err != nil {
		return err
	}
	backendName := latformer.BackendConfig()
	fmt.Printf("backend: %s\n", latformer.BackendDescription(backendName, backend))
	fmt.Printf("config: batch %d, d %d, d_ff %d, 1 LatFormer layer, experts translation (L=5) + rotation + reflection + scaling, cross-entropy over all cells, Adam\n",
		*batch, *dim, *ffn)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	goMs30 := map[string]float64{}
	for _, c := range *canvases {
		for _, att := range *attentions {
			set := *settings
			if att == "factored" {
				set = strings.Trim(set+";"+layers.ParamAttention+"="+layers.AttentionMaskOnly, ";")
			}
			ms, err := benchCanvas(c, *batch, *dim, *ffn, *steps, set)
			if err != nil {
				return err
			}
			if c == 30 {
				goMs30[att] = ms
			}
			fmt.Printf("bench canvas=%d attention=%s batch=%d d=%d step_ms=%.1f backend=%s\n", c, att, *batch, *dim, ms, backendName)
		}
	}
	if *reference != "" {
		torchMs, err := runReference(*python, *reference, *steps, "--fit-steps", "0")
		if err != nil {
			return fmt.Errorf("PyTorch reference: %w", err)
		}
		fmt.Printf("bench reference=pytorch canvas=30 batch=16 d=32 step_ms=%.1f\n", torchMs)
		for _, att := range *attentions {
			if ms := goMs30[att]; ms > 0 {
				fmt.Printf("bench ratio go/pytorch canvas=30 attention=%s: %.2f (below 1 means faster than PyTorch's full step)\n", att, ms/torchMs)
			}
		}
		if *factoredRef != "" {
			factMs, err := runReference(*python, *factoredRef, *steps, "--reference", *reference)
			if err != nil {
				return fmt.Errorf("PyTorch factored reference: %w", err)
			}
			fmt.Printf("bench reference=pytorch-factored canvas=30 batch=16 d=32 step_ms=%.1f\n", factMs)
			if ms := goMs30["factored"]; ms > 0 {
				fmt.Printf("bench ratio go/pytorch-factored canvas=30 attention=factored: %.2f (same work)\n", ms/factMs)
			}
		}
	}
	return nil
}

// benchCanvas returns the median milliseconds per training step on random canvases.
func benchCanvas(canvas, batch, dim, ffn, steps int, settings string) (float64, error) {
	set := fmt.Sprintf("model_dim=%d;latformer_ffn_dim=%d;augment_copies=1", dim, ffn)
	if settings != "" {
		set += ";" + settings
	}
	store, err := latformer.NewStore(set)
	if err != nil {
		return 0, err
	}
	backend, err := latformer.NewBackend()
	if err != nil {
		return 0, err
	}
	learner, err := latformer.NewLearner(backend, store, canvas, canvas)
	if err != nil {
		return 0, err
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
	var times []float64
	for i := range steps + 2 {
		start := time.Now()
		if _, err := learner.TrainBatch(tokens, targets); err != nil {
			return 0, err
		}
		if i >= 2 {
			times = append(times, float64(time.Since(start).Microseconds())/1000)
		}
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// runReference runs the PyTorch reference step and returns its median step_ms.
func runReference(python, script string, steps int, extra ...string) (float64, error) {
	if _, err := os.Stat(script); err != nil {
		return 0, err
	}
	cmd := exec.Command(python, append([]string{script, "--steps", strconv.Itoa(max(steps, 10))}, extra...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s %s: %w\n%s", python, script, err, out.String())
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "other_procs_cores_during_timing") || strings.HasPrefix(line, "max_abs_diff_vs_dense=") {
			fmt.Printf("reference: %s\n", line)
		}
		if v, ok := strings.CutPrefix(line, "step_ms="); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("no step_ms= line in the reference output:\n%s", out.String())
}
