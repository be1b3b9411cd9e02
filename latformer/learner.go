package latformer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/lattice"
	latlayers "github.com/latformer/latformer/layers"
)

// Example is one training or test example on the canvas: input and expected output canvases (the
// output may be empty for prediction), and an optional conditioning vector (e.g. a T5 embedding of the
// task's description; all examples of a learner must have the same length, 0 for none).
type Example struct {
	Input, Output datasets.Canvas
	Cond          []float32
}

// Learner trains a fresh LatFormer on the examples of one task and predicts with it (Appendix B.2:
// "we learn each task from scratch using only its training set").
//
// Concurrency: learners running at the same time must not share one Go-backend instance (its worker
// pool can deadlock when two executions wait on each other's parallel tasks): give each goroutine its
// own backend from NewBackend, as `latformer arc --workers N` does.
type Learner struct {
	arch       Architecture
	backend    compute.Backend
	store      *model.Store
	rows, cols int
	condDim    int
	seed       int
	padPairs   int
	rng        *rand.Rand
	stepExec   *model.Exec
	// hardStepExec trains with the gates held at their discretized values (ParamHardSteps > 0; else nil).
	hardStepExec *model.Exec
	predExec     *model.Exec // hard (discretized) gates
	softExec     *model.Exec // soft gates
	useSoft      bool        // predict with soft gates (set by Fit when only they fit the training pairs)
	// initial holds every variable's value right after its initialization (Reset restores them).
	initial map[string]*tensors.Tensor
	// restartInitial holds the initial values of the restarts after the first (ParamRestarts), drawn
	// when first needed.
	restartInitial map[int]map[string]*tensors.Tensor
	// compiled records the input shapes each exec has compiled a graph for.
	compiled map[*model.Exec]map[string]bool
}

// NewLearner creates a LatFormer learner for a rows x cols canvas. store holds the hyperparameters (see
// NewStore; nil means the defaults) and receives the variables: use a fresh store per task.
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
		if store, err = NewStoreFor(arch, ""); err != nil {
			return nil, err
		}
	}
	seed := param[int](store.RootScope(), ParamSeed)
	padPairs := param[int](store.RootScope(), ParamPadPairs)
	if padPairs < 1 {
		return nil, fmt.Errorf("%s must be >= 1, got %d", ParamPadPairs, padPairs)
	}
	store.SetParam(model.ParamInitialSeed, int64(seed))
	l := &Learner{arch: arch, backend: backend, store: store, rows: rows, cols: cols, seed: seed, padPairs: padPairs,
		rng: newAugmentationRNG(seed, 0), condDim: -1,
		initial: map[string]*tensors.Tensor{}, restartInitial: map[int]map[string]*tensors.Tensor{}, compiled: map[*model.Exec]map[string]bool{}}
	return l, nil
}

// newAugmentationRNG is the augmentation's random stream of restart r (restart 0's is the learner's
// own, which Reset starts again).
func newAugmentationRNG(seed, r int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x1a7f0+uint64(r)))
}

// Reset makes the learner as good as new for another task on the same canvas: every variable (weights,
// gates and the optimizer's state) gets back the value it was initialized with, and the augmentation's
// random numbers start again from the seed, while the compiled graphs are kept. Fit and Predict after
// Reset give what they give on a new learner with the same hyperparameters (TestLearnerResetMatchesNew).
// The conditioning vectors' length stays that of the first examples.
func (l *Learner) Reset() error {
	if err := l.restore(l.initial); err != nil {
		return fmt.Errorf("latformer.Learner.Reset: %w", err)
	}
	l.rng = newAugmentationRNG(l.seed, 0)
	l.useSoft = false
	return nil
}

// prepare builds and compiles the training graph for batch rows and the prediction graphs, initializes
// the variables they create and keeps their initial values for Reset. It returns the time it took (zero
// when everything was already compiled).
func (l *Learner) prepare(batch int) (time.Duration, error) {
	start := time.Now()
	if l.stepExec == nil {
		if err := l.buildExecs(); err != nil {
			return 0, err
		}
	}
	n := l.rows * l.cols
	cells := func(b int) shapes.Shape { return shapes.Make(dtypes.Int32, b, n) }
	stepShapes := []shapes.Shape{cells(batch), cells(batch)}
	predShapes := []shapes.Shape{cells(predictChunk)}
	if l.arch.Autoregressive() {
		predShapes = append(predShapes, cells(predictChunk)) // the output canvas so far
	}
	if l.condDim > 0 {
		stepShapes = append(stepShapes, shapes.Make(dtypes.Float32, batch, l.condDim))
		predShapes = append(predShapes, shapes.Make(dtypes.Float32, predictChunk, l.condDim))
	}
	if l.padPairs > 1 {
		stepShapes = append(stepShapes, shapes.Make(dtypes.Bool, batch))
	}
	type job struct {
		exec   *model.Exec
		shapes []shapes.Shape
	}
	jobs := []job{{l.predExec, predShapes}, {l.softExec, predShapes}}
	if batch > 0 {
		jobs = append([]job{{l.stepExec, stepShapes}}, jobs...)
		if l.hardStepExec != nil {
			jobs = append(jobs, job{l.hardStepExec, stepShapes})
		}
	}
	compiled := false
	for _, j := range jobs {
		key := fmt.Sprint(j.shapes)
		if l.compiled[j.exec][key] {
			continue
		}
		if err := compileOnce(j.exec, j.shapes); err != nil {
			return 0, err
		}
		if l.compiled[j.exec] == nil {
			l.compiled[j.exec] = map[string]bool{}
		}
		l.compiled[j.exec][key] = true
		compiled = true
	}
	if err := l.store.InitializeVariables(l.backend, nil); err != nil {
		return 0, err
	}
	for v := range l.store.IterVariables() {
		if _, ok := l.initial[v.Path()]; ok || !v.HasValue() {
			continue
		}
		value, err := v.Value()
		if err != nil {
			return 0, err
		}
		if l.initial[v.Path()], err = value.LocalClone(); err != nil {
			return 0, err
		}
	}
	if !compiled {
		return 0, nil
	}
	return time.Since(start), nil
}

// compileOnce compiles exec's graph for the input shapes (a no-op when it already has it), turning a
// graph-building panic into an error.
func compileOnce(exec *model.Exec, inputShapes []shapes.Shape) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building the graph: %v", r)
		}
	}()
	_, err = exec.Compile(inputShapes...)
	return err
}

// Store returns the learner's model.Store (hyperparameters and, after Fit, the trained variables).
func (l *Learner) Store() *model.Store { return l.store }

// modelOutputs builds the architecture's outputs; previous is the output canvas so far, used by an
// autoregressive architecture only (the targets in training, the partial decoding in prediction).
func (l *Learner) modelOutputs(scope *model.Scope, tokens, previous, cond *Node) *Outputs {
	if l.arch.Autoregressive() {
		return l.arch.BuildAutoregressive(scope, l.rows, l.cols, tokens, previous, cond)
	}
	return l.arch.Build(scope, l.rows, l.cols, tokens, cond)
}

// Architecture returns the architecture the learner trains.
func (l *Learner) Architecture() Architecture { return l.arch }

// crossEntropy is the mean cross-entropy over all cells (pad cells included), Appendix B.2. rows
// ([batch] bool, may be nil) leaves out the batch's padding rows (ParamPadPairs).
func crossEntropy(logits, targets, rows *Node) *Node {
	if rows == nil {
		labels := ExpandAxes(targets, -1)
		return loss.SparseCategoricalCrossEntropyLogits([]*Node{labels}, []*Node{logits})
	}
	labels := OneHot(targets, logits.Shape().Dimensions[2], logits.DType())
	perCell := Neg(ReduceSum(Mul(labels, LogSoftmax(logits, -1)), -1)) // [batch, n]
	return MaskedReduceAllMean(perCell, BroadcastToDims(ExpandAxes(rows, -1), perCell.Shape().Dimensions...))
}

// exactPerExample returns [batch] float32: 1 where every cell of the argmax prediction equals targets.
func exactPerExample(logits, targets *Node) *Node {
	pred := ConvertDType(ArgMax(logits, -1), targets.DType())
	return ConvertDType(LogicalAll(Equal(pred, targets), -1), dtypes.Float32)
}

func (l *Learner) buildExecs() error {
	var err error
	opt, err := optimizerFromStore(l.store)
	if err != nil {
		return err
	}
	stepFn := func(hard bool) func(scope *model.Scope, inputs []*Node) []*Node {
		return func(scope *model.Scope, inputs []*Node) []*Node {
			if hard {
				scope.SetGraphParam(inputs[0].Graph(), experts.ParamHardGates, true)
			}
			return l.trainStep(scope, opt, inputs, hard)
		}
	}
	if l.stepExec, err = model.NewExec(l.backend, l.store, stepFn(false)); err != nil {
		return err
	}
	if param[int](l.store.RootScope(), ParamHardSteps) > 0 {
		if l.hardStepExec, err = model.NewExec(l.backend, l.store, stepFn(true)); err != nil {
			return err
		}
	}
	predFn := func(hard bool) func(scope *model.Scope, inputs []*Node) []*Node {
		return func(scope *model.Scope, inputs []*Node) []*Node {
			tokens, inputs := inputs[0], inputs[1:]
			var previous, cond *Node
			if l.arch.Autoregressive() {
				previous, inputs = inputs[0], inputs[1:]
			}
			if len(inputs) > 0 {
				cond = inputs[0]
			}
			scope.SetGraphParam(tokens.Graph(), experts.ParamHardGates, hard)
			out := l.modelOutputs(scope, tokens, previous, cond)
			pred := ConvertDType(ArgMax(out.Logits, -1), dtypes.Int32)
			outs := []*Node{pred}
			if out.Gates != nil {
				outs = append(outs, out.Gates.GateTensors()...)
			}
			if out.Gates2 != nil {
				outs = append(outs, out.Gates2.GateTensors()...)
			}
			return outs
		}
	}
	if l.predExec, err = model.NewExec(l.backend, l.store, predFn(true)); err != nil {
		return err
	}
	l.softExec, err = model.NewExec(l.backend, l.store, predFn(false))
	return err
}

// trainStep builds one training step: the loss of the batch (tokens, targets, then the optional
// conditioning and padding-rows inputs), the optimizer's update, and the cell accuracy and per-example
// exactness of the batch's predictions.
//
// With frozenGates the gating FFNs' variables are left out of the update (not even the optimizer's
// momentum moves them): the gates stay exactly where the soft training left them.
func (l *Learner) trainStep(scope *model.Scope, opt optimizer.Interface, inputs []*Node, frozenGates bool) []*Node {
	tokens, targets := inputs[0], inputs[1]
	inputs = inputs[2:]
	scope.Store().SetTraining(tokens.Graph(), true)

	var cond, rows *Node
	if l.condDim > 0 {
		cond, inputs = inputs[0], inputs[1:]
	}
	if l.padPairs > 1 {
		rows = inputs[0] // [batch] bool: false for the padding rows
	}
	out := l.modelOutputs(scope, tokens, targets, cond) // teacher forcing for an autoregressive model
	theLoss := crossEntropy(out.Logits, targets, rows)
	if out.SmoothedLogits != nil {
		// Section 4.2: the sum of the cross-entropies of the plain and smoothed predictions.
		theLoss = Add(theLoss, crossEntropy(out.SmoothedLogits, targets, rows))
	}
	if frozenGates {
		var frozen []*model.Variable
		for v := range scope.Store().IterVariables() {
			if v.Trainable && isGateVariable(v.Path()) {
				v.SetTrainable(false)
				frozen = append(frozen, v)
			}
		}
		defer func() {
			for _, v := range frozen {
				v.SetTrainable(true)
			}
		}()
	}
	opt.UpdateGraph(scope, tokens.Graph(), theLoss)
	right := ConvertDType(Equal(ConvertDType(ArgMax(out.Logits, -1), targets.DType()), targets), dtypes.Float32)
	var cellAcc *Node
	if rows == nil {
		cellAcc = ReduceAllMean(right)
	} else {
		cellAcc = MaskedReduceAllMean(right, BroadcastToDims(ExpandAxes(rows, -1), right.Shape().Dimensions...))
	}
	return []*Node{theLoss, cellAcc, exactPerExample(out.Logits, targets)}
}

// Progress reports one training step to the callback of Fit.
type Progress struct {
	Step, MaxSteps int
	// Restart counts from 0 to Restarts-1 (ParamRestarts); Step starts again from 1 at each restart.
	Restart, Restarts int
	// Loss is the training loss and CellAccuracy the fraction of correct cells, both of the batch
	// (all augmented copies) before this step's update; Exact is the fraction of exactly right canvases.
	Loss, CellAccuracy, Exact float64
	Elapsed                   time.Duration
}

// FitResult summarizes a Fit.
type FitResult struct {
	// Steps is the number of training steps taken; Fitted is true if the model used for prediction
	// (HardGates: with discretized gates, else soft gates) predicts every training canvas exactly.
	// Training stops early when the soft model has fitted all augmented copies for ParamFitPatience
	// steps and the hard-gated model fits the training pairs.
	Steps     int
	Fitted    bool
	HardGates bool
	Loss      float64
	Exact     float64
	// Restarts ran (ParamRestarts; fewer when ParamRestartsStopAtFit stopped at the first fit), of which
	// RestartsFitted fitted the training pairs with hard gates; Restart is the one kept (from 0), whose
	// Steps, Loss and Exact are above; TotalSteps counts the steps of all of them.
	Restarts, RestartsFitted, Restart, TotalSteps int
	// Elapsed is the whole Fit; Compile the part of it spent building and compiling graphs (zero when a
	// reused learner already had them, see LearnerCache).
	Elapsed, Compile time.Duration
}

func (l *Learner) checkExamples(examples []Example, needOutput bool) error {
	if len(examples) == 0 {
		return fmt.Errorf("no examples")
	}
	for i, ex := range examples {
		if ex.Input.Rows != l.rows || ex.Input.Cols != l.cols || len(ex.Input.Cells) != l.rows*l.cols {
			return fmt.Errorf("example %d: input canvas is %dx%d, the learner's is %dx%d", i, ex.Input.Rows, ex.Input.Cols, l.rows, l.cols)
		}
		if needOutput && (ex.Output.Rows != l.rows || ex.Output.Cols != l.cols || len(ex.Output.Cells) != l.rows*l.cols) {
			return fmt.Errorf("example %d: output canvas is %dx%d, the learner's is %dx%d", i, ex.Output.Rows, ex.Output.Cols, l.rows, l.cols)
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

// Fit trains on the examples: every step uses ParamAugment color-permuted copies of all examples (the
// first copy keeps the original colors; one permutation per copy shared by all examples and by input
// and output, Appendix B.2; ParamAugmentKeepBlack and ParamAugmentTaskColors restrict the permutations),
// Adam, and the cross-entropy over all canvas cells. It stops after
// ParamSteps steps or when the training canvases are all exact for ParamFitPatience steps in a row.
// progress (may be nil) is called after every step.
//
// With ParamRestarts = R > 1, training runs up to R times, each restart from its own initialization (seed
// ParamSeed + 7919·r) and its own augmentation stream, and the restart kept for prediction is the best by:
// its discretized gates predict every training pair exactly; then the fraction of training pairs
// predicted exactly (with hard or soft gates, whichever is better); then the lower final training loss.
// With ParamRestartsStopAtFit the first restart whose hard gates fit ends the search. Restart 0 is exactly
// what R = 1 trains. Canvases of more than ParamRestartsMaxCells cells (when > 0) train once.
func (l *Learner) Fit(examples []Example, progress func(Progress)) (FitResult, error) {
	if err := l.checkExamples(examples, true); err != nil {
		return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %w", err)
	}
	copies := max(1, param[int](l.store.RootScope(), ParamAugment))
	augment := datasets.AugmentOptions{KeepBlack: param[bool](l.store.RootScope(), ParamAugmentKeepBlack)}
	if param[bool](l.store.RootScope(), ParamAugmentTaskColors) {
		inputs := make([]datasets.Canvas, len(examples))
		for i, ex := range examples {
			inputs[i] = ex.Input
		}
		augment.Colors = datasets.TaskColors(inputs...)
	}
	if param[bool](l.store.RootScope(), ParamAugmentFixOutputColors) {
		inputs, outputs := make([]datasets.Canvas, len(examples)), make([]datasets.Canvas, len(examples))
		for i, ex := range examples {
			inputs[i], outputs[i] = ex.Input, ex.Output
		}
		augment.Fixed = datasets.OutputOnlyColors(inputs, outputs)
	}
	restarts := param[int](l.store.RootScope(), ParamRestarts)
	if restarts < 1 {
		return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %s must be >= 1, got %d", ParamRestarts, restarts)
	}
	schedule := strings.Split(param[string](l.store.RootScope(), ParamRestartExperts), ",")
	expert := experts.ExpertFromScope(l.store.RootScope(), l.rows, l.cols)
	freeMasks := make([][]float32, len(schedule)) // checked here, before any training
	for i := range schedule {
		schedule[i] = strings.TrimSpace(schedule[i])
		mask, err := expert.FreeGates(schedule[i])
		if err != nil {
			return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %s: %w", ParamRestartExperts, err)
		}
		freeMasks[i] = mask
	}
	stopAtFit := param[bool](l.store.RootScope(), ParamRestartsStopAtFit)
	if maxCells := param[int](l.store.RootScope(), ParamRestartsMaxCells); maxCells > 0 && l.rows*l.cols > maxCells {
		restarts = 1
	}
	run := fitRun{examples: examples, copies: copies, augment: augment, progress: progress,
		maxSteps: param[int](l.store.RootScope(), ParamSteps), hardSteps: param[int](l.store.RootScope(), ParamHardSteps), patience: param[int](l.store.RootScope(), ParamFitPatience)}
	batchPairs := param[int](l.store.RootScope(), ParamBatchPairs)
	if batchPairs < 0 {
		return FitResult{}, fmt.Errorf("latformer.Learner.Fit: %s must be >= 0, got %d", ParamBatchPairs, batchPairs)
	}
	run.real = len(examples)
	if batchPairs > 0 && len(examples) > batchPairs {
		// Minibatches: every step takes batchPairs of the pairs (trainPhase draws them), all real.
		run.minibatch, run.real = batchPairs, batchPairs
		run.order = make([]int, len(examples)) // set for each restart by fitOnce
	}
	// The pairs padded to a multiple of ParamPadPairs with copies of the first one, masked out.
	run.pairs = (run.real + l.padPairs - 1) / l.padPairs * l.padPairs
	run.padded = examples[:run.real]
	for len(run.padded) < run.pairs {
		run.padded = append(run.padded[:len(run.padded):len(run.padded)], examples[0])
	}
	run.batch = copies * run.pairs
	start := time.Now()
	res := FitResult{}
	var err error
	if res.Compile, err = l.prepare(run.batch); err != nil {
		return res, fmt.Errorf("latformer.Learner.Fit: %w", err)
	}
	if l.padPairs > 1 {
		real := make([]bool, run.batch)
		for r := range real {
			real[r] = r%run.pairs < run.real
		}
		run.rowMask = tensors.FromValue(real)
		defer run.rowMask.MustFinalizeAll()
	}
	if l.condDim > 0 {
		run.cond = l.condTensor(run.padded, copies)
		defer run.cond.MustFinalizeAll()
	}

	// Restarts: each from its own initialization and augmentation stream; the one kept is the best by
	// restartOutcome.better.
	var best *restartOutcome
	for r := range restarts {
		if r > 0 {
			if err := l.reinitialize(r); err != nil {
				return res, fmt.Errorf("latformer.Learner.Fit: restart %d: %w", r, err)
			}
		}
		if err := l.restrictExperts(freeMasks[r%len(schedule)], schedule[r%len(schedule)]); err != nil {
			return res, fmt.Errorf("latformer.Learner.Fit: restart %d: %w", r, err)
		}
		run.restart, run.restarts = r, restarts
		out, err := l.fitOnce(&run)
		if err != nil {
			return res, err
		}
		res.TotalSteps += out.steps
		res.Restarts++
		if out.hardFit {
			res.RestartsFitted++
		}
		last := r+1 == restarts || (out.hardFit && stopAtFit)
		if best == nil || out.better(best) {
			if !last {
				// Keep this restart's trained variables: the next restart overwrites them.
				if out.variables, err = l.snapshot(); err != nil {
					return res, err
				}
			}
			if best != nil {
				finalizeAll(best.variables)
			}
			best = &out
		}
		if last {
			break
		}
	}
	if best.variables != nil { // an earlier restart is kept: bring its variables back
		if err := l.restore(best.variables); err != nil {
			return res, err
		}
		finalizeAll(best.variables)
	}
	l.useSoft = best.useSoft
	res.Restart = best.restart
	res.Steps, res.Loss, res.Exact = best.steps, best.loss, best.exact
	res.HardGates = !best.useSoft
	res.Fitted = best.hardFit || best.score == 1
	res.Elapsed = time.Since(start)
	return res, nil
}

// fitRun holds what every restart of one Fit shares.
type fitRun struct {
	examples, padded     []Example
	pairs, copies, batch int
	// real is the number of real (not padding) pairs of a step: all examples, or minibatch of them.
	real int
	// minibatch > 0: every step trains on this many examples, the next ones of order (a permutation of
	// the examples, shuffled again whenever next reaches its end).
	minibatch          int
	order              []int
	next               int
	augment            datasets.AugmentOptions
	maxSteps, patience int
	hardSteps          int // ParamHardSteps
	restart, restarts  int
	rowMask, cond      *tensors.Tensor
	progress           func(Progress)
}

// restartOutcome is the result of one restart of Fit.
type restartOutcome struct {
	restart, steps int
	loss, exact    float64
	// hardFit: the hard-gated model predicts every training pair exactly. Otherwise useSoft says whether
	// soft gates predict more of them than hard ones, and score is the better fraction.
	hardFit, useSoft bool
	score            float64
	variables        map[string]*tensors.Tensor // the trained variables, when kept for later
}

// better orders restarts: hard gates fitting first, then the fraction of training pairs predicted exactly
// (with the better of hard and soft gates), then the lower final training loss; ties keep the earlier.
func (o restartOutcome) better(than *restartOutcome) bool {
	if o.hardFit != than.hardFit {
		return o.hardFit
	}
	if o.score != than.score {
		return o.score > than.score
	}
	return o.loss < than.loss
}

// fitOnce trains the current variables (one restart of Fit) and scores the result on the training pairs:
// run.maxSteps steps with soft gates, then, if the hard gates do not fit yet, up to run.hardSteps steps
// with the gates held at their discretized values (ParamHardSteps).
func (l *Learner) fitOnce(run *fitRun) (restartOutcome, error) {
	out := restartOutcome{restart: run.restart}
	rng := l.rng
	if run.restart > 0 {
		rng = newAugmentationRNG(l.seed, run.restart)
	}
	if run.minibatch > 0 { // every restart draws its minibatches from its own stream, from the same order
		for i := range run.order {
			run.order[i] = i
		}
		run.next = len(run.order) // shuffled before the first step
	}
	start := time.Now()
	fitted, err := l.trainPhase(run, l.stepExec, run.maxSteps, 0, rng, start, &out)
	if err != nil || fitted {
		return out, err
	}
	if run.hardSteps > 0 && l.hardStepExec != nil {
		// The hard phase either ends in a hard fit or is undone: the soft model it started from may fit
		// the training pairs where the hard one does not, and is then the better prediction.
		before, err := l.snapshot()
		if err != nil {
			return out, err
		}
		defer finalizeAll(before)
		soft := out
		if fitted, err = l.trainPhase(run, l.hardStepExec, run.hardSteps, run.maxSteps, rng, start, &out); err != nil || fitted {
			return out, err
		}
		if err := l.restore(before); err != nil {
			return out, err
		}
		soft.steps = out.steps // the undone steps still count
		out = soft
	}
	// Training ended without the hard gates fitting the training pairs: predict with whichever of hard or
	// soft gates fits them best (model selection on training data only).
	hard, err := l.scoreOnTraining(run.examples, false)
	if err != nil {
		return out, err
	}
	soft, err := l.scoreOnTraining(run.examples, true)
	if err != nil {
		return out, err
	}
	out.hardFit = hard == 1
	out.useSoft = soft > hard
	out.score = max(hard, soft)
	return out, nil
}

// restrictExperts sets the free-gate mask of every mask expert of the model (experts.Expert.FreeGates of
// families; "all": every gate free).
func (l *Learner) restrictExperts(free []float32, families string) error {
	found := false
	for v := range l.store.IterVariables() {
		if !strings.HasSuffix(v.Path(), "/gate_logits/"+experts.FreeGatesVariable) {
			continue
		}
		if got := v.Shape().Size(); got != len(free) {
			return fmt.Errorf("variable %s has %d gates, the expert %d", v.Path(), got, len(free))
		}
		if err := v.SetValue(tensors.FromValue(free)); err != nil {
			return err
		}
		found = true
	}
	if !found && families != "all" {
		return fmt.Errorf("%s=%s: the model has no mask expert (no variable */gate_logits/%s)", ParamRestartExperts, families, experts.FreeGatesVariable)
	}
	return nil
}

// trainPhase runs up to steps training steps of exec (the soft-gated or the hard-gated training graph),
// numbered after the done steps of earlier phases, and records them in out. It returns true, with out
// marked as a hard fit, when the trained model (soft or hard gates, as exec has them) has fitted every
// augmented copy for run.patience steps and the hard-gated model then predicts every training pair
// exactly.
func (l *Learner) trainPhase(run *fitRun, exec *model.Exec, steps, done int, rng *rand.Rand, start time.Time, out *restartOutcome) (bool, error) {
	n := l.rows * l.cols
	total := run.maxSteps + run.hardSteps
	streak := 0
	for step := done; step < done+steps; step++ {
		cond := run.cond
		if run.minibatch > 0 {
			run.drawMinibatch(rng)
			if cond != nil {
				cond = l.condTensor(run.padded, run.copies)
			}
		}
		tokens := tensors.FromShape(shapes.Make(dtypes.Int32, run.batch, n))
		targets := tensors.FromShape(shapes.Make(dtypes.Int32, run.batch, n))
		tensors.MustMutableFlatData[int32](tokens, func(tok []int32) {
			tensors.MustMutableFlatData[int32](targets, func(tgt []int32) {
				for c, perm := range datasets.AugmentationPermutationsWith(rng, run.copies, run.augment) {
					for e, ex := range run.padded {
						off := (c*run.pairs + e) * n
						perm.Apply(tok[off:off+n], ex.Input.Cells)
						perm.Apply(tgt[off:off+n], ex.Output.Cells)
					}
				}
			})
		})
		args := []any{tokens, targets}
		if cond != nil {
			args = append(args, cond)
		}
		if run.rowMask != nil {
			args = append(args, run.rowMask)
		}
		outs, err := exec.Call(args...)
		if err != nil {
			return false, fmt.Errorf("training step %d: %w", step, err)
		}
		out.loss = float64(tensors.ToScalar[float32](outs[0]))
		cellAcc := float64(tensors.ToScalar[float32](outs[1]))
		exact := 0.0
		for r, v := range tensors.MustCopyFlatData[float32](outs[2]) {
			if r%run.pairs < run.real {
				exact += float64(v)
			}
		}
		exact /= float64(run.copies * run.real)
		for _, o := range outs {
			o.MustFinalizeAll()
		}
		if cond != run.cond {
			cond.MustFinalizeAll()
		}
		tokens.MustFinalizeAll()
		targets.MustFinalizeAll()
		out.steps = step + 1
		out.exact = exact
		if run.progress != nil {
			run.progress(Progress{Step: step + 1, MaxSteps: total, Restart: run.restart, Restarts: run.restarts,
				Loss: out.loss, CellAccuracy: cellAcc, Exact: exact, Elapsed: time.Since(start)})
		}
		if exact == 1 {
			streak++
		} else {
			streak = 0
		}
		if run.patience > 0 && streak >= run.patience && (streak-run.patience)%hardCheckEvery == 0 {
			// The soft model fits: stop as soon as the discretized gates fit too (Section 4.1: the
			// prediction uses hard gates).
			hardExact, err := l.exactOnTraining(run.examples, false)
			if err != nil {
				return false, err
			}
			if hardExact {
				out.hardFit, out.score = true, 1
				return true, nil
			}
		}
	}
	return false, nil
}

// drawMinibatch sets run.padded to the next run.minibatch examples of a shuffled pass over all of them,
// shuffling again (with rng) whenever a pass ends.
func (run *fitRun) drawMinibatch(rng *rand.Rand) {
	batch := make([]Example, 0, run.pairs)
	for len(batch) < run.minibatch {
		if run.next == len(run.order) {
			rng.Shuffle(len(run.order), func(i, j int) { run.order[i], run.order[j] = run.order[j], run.order[i] })
			run.next = 0
		}
		batch = append(batch, run.examples[run.order[run.next]])
		run.next++
	}
	for len(batch) < run.pairs {
		batch = append(batch, run.examples[0])
	}
	run.padded = batch
}

// isGateVariable says whether a variable path belongs to a gating FFN of a mask expert.
func isGateVariable(path string) bool {
	return strings.Contains(path, "/gate_hidden/") || strings.Contains(path, "/gate_logits/")
}

// restartSeed is the initialization seed of restart r > 0.
func restartSeed(seed, r int) int64 { return int64(seed) + 7919*int64(r) }

// reinitialize gives every variable the initial value of restart r > 0: the trainable ones are drawn
// again by their initializers from restartSeed (once, and kept, so that a learner reused for another task
// starts its restarts from the same values), the others (the optimizer's state) get their initial values.
func (l *Learner) reinitialize(r int) error {
	if init, ok := l.restartInitial[r]; ok {
		return l.restore(init)
	}
	if err := l.restore(l.initial); err != nil {
		return err
	}
	for v := range l.store.IterVariables() {
		if v.Trainable {
			if err := v.Reset(); err != nil {
				return err
			}
		}
	}
	if err := l.store.SetRNGStateFromSeed(restartSeed(l.seed, r)); err != nil {
		return err
	}
	if err := l.store.InitializeVariables(l.backend, nil); err != nil {
		return err
	}
	init, err := l.snapshot()
	if err != nil {
		return err
	}
	l.restartInitial[r] = init
	return nil
}

// snapshot copies every variable's current value.
func (l *Learner) snapshot() (map[string]*tensors.Tensor, error) {
	out := map[string]*tensors.Tensor{}
	for v := range l.store.IterVariables() {
		if !v.HasValue() {
			continue
		}
		value, err := v.Value()
		if err != nil {
			return nil, err
		}
		if out[v.Path()], err = value.LocalClone(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// restore sets every variable in values (a snapshot) to a copy of its value there.
func (l *Learner) restore(values map[string]*tensors.Tensor) error {
	for path, t := range values {
		v := l.store.GetVariable(path)
		if v == nil {
			return fmt.Errorf("variable %s is gone from the store", path)
		}
		value, err := t.LocalClone()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := v.SetValue(value); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func finalizeAll(values map[string]*tensors.Tensor) {
	for _, t := range values {
		t.MustFinalizeAll()
	}
}

func (l *Learner) condTensor(examples []Example, copies int) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, copies*len(examples), l.condDim))
	tensors.MustMutableFlatData[float32](t, func(flat []float32) {
		for c := range copies {
			for e, ex := range examples {
				copy(flat[(c*len(examples)+e)*l.condDim:], ex.Cond)
			}
		}
	})
	return t
}

// hardCheckEvery is how often (in steps) Fit checks the hard-gated model once the soft one fits.
const hardCheckEvery = 10

// scoreOnTraining returns the fraction of training examples predicted exactly, with soft or hard gates.
func (l *Learner) scoreOnTraining(examples []Example, soft bool) (float64, error) {
	preds, err := l.predict(examples, soft)
	if err != nil {
		return 0, err
	}
	exact := 0
	for i, p := range preds {
		if slices.Equal(p.Canvas.Cells, examples[i].Output.Cells) {
			exact++
		}
	}
	return float64(exact) / float64(len(preds)), nil
}

func (l *Learner) exactOnTraining(examples []Example, soft bool) (bool, error) {
	score, err := l.scoreOnTraining(examples, soft)
	return score == 1, err
}

// predictChunk is the batch size of prediction: inputs are predicted in chunks of this size (the last
// one padded) so that one compiled graph serves any number of inputs.
const predictChunk = 16

// Prediction is the model's output for one input.
type Prediction struct {
	// Canvas is the predicted output canvas (argmax per cell, pad cells included).
	Canvas datasets.Canvas
	// Gates are the (discretized) gates of the first layer's expert, and Action the group element they
	// select (experts.Expert.Action).
	Gates  experts.GateValues
	Action lattice.Action
	// Gates2 and Action2 are those of the second action (layers.ParamActions = 2; else nil).
	Gates2  experts.GateValues
	Action2 lattice.Action
}

// Predict predicts the output canvases of the inputs (Output fields are ignored) with discretized gates
// (Section 4.1), or with soft gates if after Fit only the soft model fitted the training pairs
// (FitResult.HardGates false).
func (l *Learner) Predict(inputs []Example) ([]Prediction, error) {
	return l.predict(inputs, l.useSoft)
}

func (l *Learner) predict(inputs []Example, soft bool) ([]Prediction, error) {
	if err := l.checkExamples(inputs, false); err != nil {
		return nil, fmt.Errorf("latformer.Learner.Predict: %w", err)
	}
	if _, err := l.prepare(0); err != nil {
		return nil, fmt.Errorf("latformer.Learner.Predict: %w", err)
	}
	n := l.rows * l.cols
	expert := experts.ExpertFromScope(l.store.Scope(""), l.rows, l.cols)
	actions := model.GetParamOr(l.store.RootScope(), latlayers.ParamActions, 1)
	preds := make([]Prediction, 0, len(inputs))
	for start := 0; start < len(inputs); start += predictChunk {
		chunk := inputs[start:min(start+predictChunk, len(inputs))]
		tokens := tensors.FromShape(shapes.Make(dtypes.Int32, predictChunk, n))
		tensors.MustMutableFlatData[int32](tokens, func(tok []int32) {
			for i := range predictChunk {
				src := chunk[min(i, len(chunk)-1)]
				copy(tok[i*n:], src.Input.Cells)
			}
		})
		var cond *tensors.Tensor
		if l.condDim > 0 {
			padded := make([]Example, predictChunk)
			for i := range padded {
				padded[i] = chunk[min(i, len(chunk)-1)]
			}
			cond = l.condTensor(padded, 1)
		}
		exec := l.predExec
		if soft {
			exec = l.softExec
		}
		call := func(previous []int32) ([]*tensors.Tensor, error) {
			args := []any{tokens}
			if previous != nil {
				args = append(args, tensors.FromFlatDataAndDimensions(previous, predictChunk, n))
			}
			if cond != nil {
				args = append(args, cond)
			}
			return exec.Call(args...)
		}
		var outs []*tensors.Tensor
		var err error
		if l.arch.Autoregressive() {
			outs, err = decodeAutoregressive(call, n)
		} else {
			outs, err = call(nil)
		}
		if err != nil {
			return nil, fmt.Errorf("prediction: %w", err)
		}
		cells := tensors.MustCopyFlatData[int32](outs[0])
		var gates, gates2 []experts.GateValues
		numGateTensors := (len(outs) - 1) / actions
		if numGateTensors > 0 { // else a model without mask experts
			if gates, err = expert.DecodeGates(outs[1 : 1+numGateTensors]); err != nil {
				return nil, err
			}
		}
		if actions == 2 && numGateTensors > 0 {
			if gates2, err = expert.DecodeGates(outs[1+numGateTensors:]); err != nil {
				return nil, err
			}
		}
		for i := range chunk {
			c := datasets.Canvas{Rows: l.rows, Cols: l.cols, Cells: append([]int32(nil), cells[i*n:(i+1)*n]...)}
			p := Prediction{Canvas: c}
			if gates != nil {
				p.Gates, p.Action = gates[i], expert.Action(gates[i])
			}
			if gates2 != nil {
				p.Gates2, p.Action2 = gates2[i], expert.Action(gates2[i])
			}
			preds = append(preds, p)
		}
		for _, o := range outs {
			o.MustFinalizeAll()
		}
		tokens.MustFinalizeAll()
	}
	return preds, nil
}

// decodeAutoregressive predicts the cells of an autoregressive model one by one in row-major order:
// pass k feeds the cells fixed so far as the previous canvas and keeps the prediction of cell k. It
// returns the last pass's outputs with the decoded canvas as outs[0].
func decodeAutoregressive(call func(previous []int32) ([]*tensors.Tensor, error), n int) ([]*tensors.Tensor, error) {
	previous := make([]int32, predictChunk*n)
	var outs []*tensors.Tensor
	for k := range n {
		for _, o := range outs {
			o.MustFinalizeAll()
		}
		var err error
		if outs, err = call(previous); err != nil {
			return nil, err
		}
		pred := tensors.MustCopyFlatData[int32](outs[0])
		for i := range predictChunk {
			previous[i*n+k] = pred[i*n+k]
		}
	}
	outs[0].MustFinalizeAll()
	outs[0] = tensors.FromFlatDataAndDimensions(previous, predictChunk, n)
	return outs, nil
}

// TrainBatch runs one training step (forward, backward, Adam update) on tokens and targets, both
// [batch, n] int32 canvases, with no augmentation, and returns the loss. It is what `latformer bench`
// times; Fit is the usual entry point.
func (l *Learner) TrainBatch(tokens, targets *tensors.Tensor) (float64, error) {
	if l.condDim < 0 {
		l.condDim = 0
	}
	if l.condDim > 0 {
		return 0, fmt.Errorf("latformer.Learner.TrainBatch: the learner was fitted with conditioning vectors")
	}
	batch := tokens.Shape().Dimensions[0]
	if _, err := l.prepare(batch); err != nil {
		return 0, err
	}
	args := []any{tokens, targets}
	if l.padPairs > 1 {
		all := make([]bool, batch)
		for i := range all {
			all[i] = true
		}
		args = append(args, all)
	}
	outs, err := l.stepExec.Call(args...)
	if err != nil {
		return 0, err
	}
	lossValue := float64(tensors.ToScalar[float32](outs[0]))
	for _, o := range outs {
		o.MustFinalizeAll()
	}
	return lossValue, nil
}

// optimizerFromStore is GoMLX's optimizer.FromStore (the optimizer named by optimizer.ParamOptimizer,
// configured by its own hyperparameters), with an error instead of a panic for an unknown name.
func optimizerFromStore(store *model.Store) (opt optimizer.Interface, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("optimizer %q: %v (known: sgd, adam, adamw, adamax)", model.GetRootParamOr(store, optimizer.ParamOptimizer, ""), r)
		}
	}()
	return optimizer.FromStore(store), nil
}
