// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Command importer times LatFormer's training step as a program that imports the library gets it: its own
// module (this folder's go.mod, whose only replace points at the library's source), GoMLX and compute as
// published, and the backend compute.New gives ($GOMLX_BACKEND, else GoMLX's default, "go"). `make bench`
// builds it into bin/latformer-importer and `latformer bench --importer` interleaves its blocks with the
// other sides', through the protocol of the PyTorch references' --serve: it builds and warms up, prints its
// configuration and "ready", then answers each "run N" with "times=t1,...,tN" (ms) until "quit".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/layers"
)

func main() {
	canvas := flag.Int("canvas", 10, "canvas side")
	batch := flag.Int("batch", 16, "batch size")
	dim := flag.Int("d", 32, "model dimension d")
	dff := flag.Int("dff", 128, "FFN hidden width d_ff")
	attention := flag.String("attention", "full", `attention path: "full" or "factored" (mask-only)`)
	warm := flag.Int("warmup", 3, "untimed steps before ready (the first compiles the graph)")
	serve := flag.Bool("serve", false,
		"answer \"run N\" lines on standard input (the bench protocol); without it, time 20 steps and exit")
	flag.Parse()
	if err := run(*canvas, *batch, *dim, *dff, *attention, *warm, *serve); err != nil {
		fmt.Fprintln(os.Stderr, "importer:", err)
		os.Exit(1)
	}
}

func run(canvas, batch, dim, dff int, attention string, warm int, serve bool) error {
	settings := hparams.Settings{{Key: latformer.ParamDim, Value: dim}, {Key: layers.ParamFFNDim, Value: dff},
		{Key: latformer.ParamAugment, Value: 1}}
	switch attention {
	case "full":
	case "factored":
		settings = append(settings, hparams.Setting{Key: layers.ParamAttention, Value: layers.AttentionMaskOnly})
	default:
		return fmt.Errorf("--attention %q: want full or factored", attention)
	}
	store, err := latformer.NewStore(settings)
	if err != nil {
		return err
	}
	b, err := compute.New()
	if err != nil {
		return err
	}
	learner, err := latformer.NewLearner(b, store, canvas, canvas)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, uint64(canvas)))
	random := func() *tensors.Tensor {
		t := tensors.FromShape(shapes.Make(dtypes.Int32, batch, canvas*canvas))
		tensors.MustMutableFlatData[int32](t, func(f []int32) {
			for i := range f {
				f[i] = int32(rng.IntN(datasets.NumTokens))
			}
		})
		return t
	}
	tokens, targets := random(), random()
	step := func(n int) ([]string, error) {
		times := make([]string, n)
		for i := range n {
			start := time.Now()
			if _, err := learner.TrainBatch(tokens, targets); err != nil {
				return nil, err
			}
			times[i] = strconv.FormatFloat(float64(time.Since(start).Microseconds())/1000, 'f', 3, 64)
		}
		return times, nil
	}
	if _, err := step(warm); err != nil {
		return err
	}
	fmt.Printf("config: importer, canvas %d, batch %d, d %d, d_ff %d, attention %s\n", canvas, batch, dim, dff, attention)
	fmt.Printf("backend: %s (%s), compute.New as an importing program gets it\n", b.Name(), b.Description())
	if !serve {
		times, err := step(20)
		if err != nil {
			return err
		}
		fmt.Println("times=" + strings.Join(times, ","))
		return nil
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(in.Text()), " ")
		switch cmd {
		case "quit":
			return nil
		case "run":
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 {
				return fmt.Errorf("run %q: want a positive number of steps", arg)
			}
			times, err := step(n)
			if err != nil {
				return err
			}
			fmt.Println("times=" + strings.Join(times, ","))
		default:
			return fmt.Errorf("unknown request %q (want \"run N\" or \"quit\")", in.Text())
		}
	}
	return in.Err()
}
