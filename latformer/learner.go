// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
)

// Example is one training or test example on the canvas.
type Example struct {
	// Input and Output are the input and expected output canvases. Output may be empty for prediction.
	Input, Output datasets.Canvas
	// Cond is an optional conditioning vector, such as a T5 embedding of the task's description. Its
	// length is the same for all of a learner's examples.
	Cond []float32
	// Frame is the input's frame for an anchor-relative expert: the box the element acts on and the
	// shift that places the result (search.Frame.Ints). Other experts ignore it.
	Frame [experts.FrameLen]int32
	// Frames are the input's candidate frames, at most experts.ParamFrameCandidates, for an expert that
	// learns which frame to act on. A candidate with H = 0 reads no box on this input. With Frames set,
	// Frame is ignored.
	Frames [][experts.FrameLen]int32
}

// Learner trains a fresh LatFormer on the examples of one task and predicts with it. Appendix B.2:
// "we learn each task from scratch using only its training set".
//
// Learners that run at the same time should each have their own backend, and so their own worker pool.
type Learner struct {
	arch       Architecture
	backend    compute.Backend
	store      *model.Store
	rows, cols int
	// condDim is the length of the conditioning vectors (0: none), set by the first examples (-1 before).
	condDim int
	// anchored: the model's expert is anchor-relative (experts.ParamLattice "anchored"), its graphs take the frames.
	anchored bool
	// frameCandidates is experts.ParamFrameCandidates of an anchored learner: its graphs take K frames per example.
	frameCandidates int
	seed            int
	padPairs        int
	rng             *rand.Rand
	stepExec        *model.Exec
	// hardStepExec trains with the gates held at their discretized values. The first Fit that needs it
	// makes it.
	hardStepExec *model.Exec
	opt          optimizer.Interface // the training steps' optimizer
	predExec     *model.Exec         // hard (discretized) gates
	softExec     *model.Exec         // soft gates
	useSoft      bool                // predict with soft gates (set by Fit when only they fit the training pairs)
	// initial holds every variable's value right after its initialization (Reset restores them).
	initial map[string]*tensors.Tensor
	// restartInitial holds the initial values of the restarts after the first (ParamRestarts), drawn
	// when first needed.
	restartInitial map[int]map[string]*tensors.Tensor
	// compiled records the input shapes each exec has compiled a graph for.
	compiled map[*model.Exec]map[string]bool
}

// NewLearner creates a LatFormer learner for a rows x cols canvas. store holds the hyperparameters (nil
// for the defaults) and receives the variables, so use a fresh store per task.
func NewLearner(backend compute.Backend, store *model.Store, rows, cols int) (*Learner, error) {
	return NewLearnerFor(LatFormerArchitecture(), backend, store, rows, cols)
}

// NewLearnerFor is NewLearner for another architecture; its store (nil: the defaults) comes from
// NewStoreFor(arch, ...).
func NewLearnerFor(arch Architecture, backend compute.Backend, store *model.Store, rows, cols int) (*Learner, error) {
	if arch.Build == nil && arch.BuildAutoregressive == nil {
		return nil, fmt.Errorf("architecture %q has no Build function", arch.Name)
	}
	if rows < 1 || cols < 1 || rows > datasets.MaxGridSide || cols > datasets.MaxGridSide {
		return nil, fmt.Errorf("canvas %dx%d: sides must be in 1..%d", rows, cols, datasets.MaxGridSide)
	}
	if store == nil {
		var err error
		if store, err = NewStoreFor(arch, nil); err != nil {
			return nil, err
		}
	}
	seed := param[int](store.RootScope(), ParamSeed)
	padPairs := param[int](store.RootScope(), ParamPadPairs)
	if padPairs < 1 {
		return nil, fmt.Errorf("%s must be >= 1, got %d", ParamPadPairs, padPairs)
	}
	store.SetParam(model.ParamInitialSeed, int64(seed))
	lattice := experts.Param[string](store.RootScope(), experts.ParamLattice)
	l := &Learner{arch: arch, backend: backend, store: store, rows: rows, cols: cols, seed: seed, padPairs: padPairs,
		rng: newAugmentationRNG(seed, 0), condDim: -1,
		anchored: lattice == experts.LatticeAnchored,
		initial:  map[string]*tensors.Tensor{}, restartInitial: map[int]map[string]*tensors.Tensor{},
		compiled: map[*model.Exec]map[string]bool{}}
	if l.anchored {
		l.frameCandidates = experts.Param[int](store.RootScope(), experts.ParamFrameCandidates)
	}
	return l, nil
}

// newAugmentationRNG is the augmentation's random stream of restart r (restart 0's is the learner's
// own, which Reset starts again).
func newAugmentationRNG(seed, r int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x1a7f0+uint64(r)))
}

// Expert returns the learner's mask expert on its canvas, as its hyperparameters configure it.
func (l *Learner) Expert() experts.Expert {
	return experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
}

// Store returns the learner's model.Store (hyperparameters and, after Fit, the trained variables).
func (l *Learner) Store() *model.Store { return l.store }

// Architecture returns the architecture the learner trains.
func (l *Learner) Architecture() Architecture { return l.arch }

// compileJob is an exec and the input shapes to compile its graph for.
type compileJob struct {
	exec   *model.Exec
	shapes []shapes.Shape
}

// compile compiles the job's graph unless the learner already did; it reports whether it compiled.
func (l *Learner) compile(j compileJob) (bool, error) {
	key := fmt.Sprint(j.shapes)
	if l.compiled[j.exec][key] {
		return false, nil
	}
	if err := compileOnce(j.exec, j.shapes); err != nil {
		return false, err
	}
	if l.compiled[j.exec] == nil {
		l.compiled[j.exec] = map[string]bool{}
	}
	l.compiled[j.exec][key] = true
	return true, nil
}

// compileOnce compiles exec's graph for the input shapes, once, turning a panic into an error.
func compileOnce(exec *model.Exec, inputShapes []shapes.Shape) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building the graph: %v", r)
		}
	}()
	_, err = exec.Compile(inputShapes...)
	return err
}

// initializeVariables initializes the variables the compiled graphs created and keeps the initial value
// of each new one in l.initial.
func (l *Learner) initializeVariables() error {
	if err := backend.InitializeVariables(l.store, l.backend); err != nil {
		return err
	}
	for v := range l.store.IterVariables() {
		if _, ok := l.initial[v.Path()]; ok || !v.HasValue() {
			continue
		}
		value, err := v.Value()
		if err != nil {
			return err
		}
		if l.initial[v.Path()], err = value.LocalClone(); err != nil {
			return err
		}
	}
	return nil
}

// buildExecs creates the learner's execs: the soft-gated training step, and prediction with hard and
// with soft gates.
func (l *Learner) buildExecs() error {
	var err error
	if l.opt, err = optimizerFromStore(l.store); err != nil {
		return err
	}
	if l.stepExec, err = model.NewExec(l.backend, l.store, l.stepGraph(l.opt, false)); err != nil {
		return err
	}
	if l.predExec, err = model.NewExec(l.backend, l.store, l.predictGraph(true)); err != nil {
		return err
	}
	l.softExec, err = model.NewExec(l.backend, l.store, l.predictGraph(false))
	return err
}

// optimizerFromStore is GoMLX's optimizer.FromStore with an error, not a panic, for an unknown name.
func optimizerFromStore(store *model.Store) (opt optimizer.Interface, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("optimizer %q: %v (known: sgd, adam, adamw, adamax)",
				model.GetRootParamOr(store, optimizer.ParamOptimizer, ""), r)
		}
	}()
	return optimizer.FromStore(store), nil
}
