// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package bench

// The Go side of `latformer bench`: the host it reports, and the learner that times our training steps.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
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
	fmt.Printf("simd: %s, GOEXPERIMENT=%s, GOARCH=%s; Go backend float32 matmul kernels: %s\n", runtime.Version(),
		experiments, runtime.GOARCH, kernels)
	if _, unknown := benchstat.ApplyGODEBUG(h.Flags, os.Getenv("GODEBUG")); len(unknown) > 0 {
		fmt.Printf("simd: GODEBUG names cpu.%s, which Go does not know and ignores "+
			"(it printed \"GODEBUG: unknown cpu feature\"); "+
			"cpu.avx512f=off or GOMLX_GO_SIMD_AVX512=false turn the AVX-512 kernels off\n",
			strings.Join(unknown, ", cpu."))
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

// ReferenceSettings are the hyperparameters of the reference configuration (d, d_ff, one color copy), before
// --set.
func ReferenceSettings(dim, ffn int) hparams.Settings {
	return hparams.Settings{{Key: latformer.ParamDim, Value: dim}, {Key: layers.ParamFFNDim, Value: ffn},
		{Key: latformer.ParamAugment, Value: 1}}
}

// goStepper runs training steps of the reference configuration on random canvases on one backend, for
// timeCanvas.
type goStepper struct {
	learner         *latformer.Learner
	tokens, targets *tensors.Tensor
	profile         bool     // keep a CPU profile of each block (for the top-ops line)
	profiles        [][]byte // the blocks' profiles
	cfg             string   // the backend configuration
	side            benchSide
	timer           *timer
}

// newGoStepper builds the learner of the reference configuration on the backend of configuration cfg at the
// given canvas and runs `warm` untimed steps (the first compiles the graph).
func newGoStepper(
	cfg string, canvas, batch, dim, ffn, warm int, settings hparams.Settings, profile bool,
) (*goStepper, error) {
	store, err := latformer.NewStore(ReferenceSettings(dim, ffn).With(settings...))
	if err != nil {
		return nil, err
	}
	b, err := backend.NewWithConfig(cfg)
	if err != nil {
		return nil, err
	}
	learner, err := latformer.NewLearner(b, store, canvas, canvas)
	if err != nil {
		return nil, err
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
	s := &goStepper{learner: learner, tokens: random(), targets: random(), profile: profile}
	for range warm {
		if _, err := learner.TrainBatch(s.tokens, s.targets); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// run times n training steps (wall ms each); when profiling, it keeps the block's CPU profile.
func (s *goStepper) run(n int) ([]float64, error) {
	var prof bytes.Buffer
	if s.profile {
		if err := pprof.StartCPUProfile(&prof); err != nil {
			return nil, err
		}
		defer func() {
			pprof.StopCPUProfile()
			s.profiles = append(s.profiles, prof.Bytes())
		}()
	}
	times := make([]float64, 0, n)
	for range n {
		start := time.Now()
		if _, err := s.learner.TrainBatch(s.tokens, s.targets); err != nil {
			return nil, err
		}
		times = append(times, float64(time.Since(start).Microseconds())/1000)
	}
	return times, nil
}
