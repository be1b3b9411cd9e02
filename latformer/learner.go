// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math/rand/v2"
	"time"

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

// Reset makes the learner as good as new for another task on the same canvas, keeping the compiled
// graphs. Every variable, optimizer state included, gets back its initial value, and the augmentation's
// random numbers restart from the seed. Fit and Predict then give what a new learner with the same
// hyperparameters gives (TestLearnerResetMatchesNew). The conditioning vectors' length stays that of
// the first examples.
func (l *Learner) Reset() error {
	if err := l.restore(l.initial); err != nil {
		return fmt.Errorf("latformer.Learner.Reset: %w", err)
	}
	l.rng = newAugmentationRNG(l.seed, 0)
	l.useSoft = false
	return nil
}

// Expert returns the learner's mask expert on its canvas, as its hyperparameters configure it.
func (l *Learner) Expert() experts.Expert {
	return experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
}

// Store returns the learner's model.Store (hyperparameters and, after Fit, the trained variables).
func (l *Learner) Store() *model.Store { return l.store }

// Architecture returns the architecture the learner trains.
func (l *Learner) Architecture() Architecture { return l.arch }

// checkExamples checks that the examples fit the learner's canvas and that their conditioning vectors
// have the length the first examples set.
func (l *Learner) checkExamples(examples []Example, needOutput bool) error {
	if len(examples) == 0 {
		return fmt.Errorf("no examples")
	}
	for i, ex := range examples {
		if ex.Input.Rows != l.rows || ex.Input.Cols != l.cols || len(ex.Input.Cells) != l.rows*l.cols {
			return fmt.Errorf("example %d: input canvas is %dx%d, the learner's is %dx%d", i, ex.Input.Rows,
				ex.Input.Cols, l.rows, l.cols)
		}
		if needOutput &&
			(ex.Output.Rows != l.rows || ex.Output.Cols != l.cols || len(ex.Output.Cells) != l.rows*l.cols) {
			return fmt.Errorf("example %d: output canvas is %dx%d, the learner's is %dx%d", i, ex.Output.Rows,
				ex.Output.Cols, l.rows, l.cols)
		}
		if l.frameCandidates > 0 && (len(ex.Frames) < 1 || len(ex.Frames) > l.frameCandidates) {
			return fmt.Errorf("example %d: %d candidate frames (Example.Frames: arcsolver.WithFrameCandidates), "+
				"want 1 to %s=%d", i, len(ex.Frames), experts.ParamFrameCandidates, l.frameCandidates)
		}
		if l.anchored && l.frameCandidates == 0 && needOutput && (ex.Frame[2] < 1 || ex.Frame[3] < 1) {
			return fmt.Errorf("example %d: the anchor-relative expert (%s=%s) needs each training example's frame "+
				"(Example.Frame: arcsolver.WithFrames with an anchored proposal), got %v", i, experts.ParamLattice,
				experts.LatticeAnchored, ex.Frame)
		}
		if l.condDim >= 0 && len(ex.Cond) != l.condDim {
			return fmt.Errorf("example %d: conditioning vector has length %d, want %d", i, len(ex.Cond), l.condDim)
		}
		if l.condDim < 0 {
			l.condDim = len(ex.Cond)
		}
	}
	return nil
}

// prepare builds and compiles the prediction graphs and the training graphs for batch rows: none when
// batch is 0, and with hard also the hard-gated one. It initializes the new variables and keeps their
// initial values for Reset. It returns the time it took, zero when everything was already compiled.
func (l *Learner) prepare(batch int, hard bool) (time.Duration, error) {
	start := time.Now()
	if l.stepExec == nil {
		if err := l.buildExecs(); err != nil {
			return 0, err
		}
	}
	if hard && l.hardStepExec == nil {
		var err error
		if l.hardStepExec, err = model.NewExec(l.backend, l.store, l.stepGraph(l.opt, true)); err != nil {
			return 0, err
		}
	}
	predShapes := predictInputShapes(l)
	jobs := []compileJob{{l.predExec, predShapes}, {l.softExec, predShapes}}
	if batch > 0 {
		stepShapes := stepInputShapes(l, batch)
		jobs = append([]compileJob{{l.stepExec, stepShapes}}, jobs...)
		if l.hardStepExec != nil {
			jobs = append(jobs, compileJob{l.hardStepExec, stepShapes})
		}
	}
	compiled := false
	for _, j := range jobs {
		done, err := l.compile(j)
		if err != nil {
			return 0, err
		}
		compiled = compiled || done
	}
	if err := l.initializeVariables(); err != nil {
		return 0, err
	}
	if !compiled {
		return 0, nil
	}
	return time.Since(start), nil
}

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
