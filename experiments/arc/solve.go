// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"fmt"
	"slices"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// TaskResult is the outcome of SolveTask for one task.
type TaskResult struct {
	ID string
	// Solved is true iff every test output with a known answer is predicted exactly (Appendix B.2).
	Solved bool
	// TestExact of TestTotal test outputs are exact; SizeOnly counts the wrong ones whose cells inside
	// the expected grid are all right but whose size (the non-pad region) is wrong.
	TestExact, TestTotal, SizeOnly int
	// Steps of training and Seconds of the whole task (training and prediction), of which CompileSeconds
	// went to building and compiling graphs (0 when they were reused from an earlier task, see Solver);
	// Fitted if the model used for prediction fits the training pairs, HardGates if that model uses
	// discretized gates.
	Steps   int
	Seconds float64
	// Restarts ran (train_restarts), RestartsFitted of them fitted the training pairs with hard gates,
	// Restart is the one used for prediction (from 0; Steps are its steps) and TotalSteps the steps of
	// all restarts.
	Restarts, RestartsFitted, Restart, TotalSteps int
	CompileSeconds                                float64
	// SearchSeconds went to the lattice search (gate_init=search; not in the CSV); Proposals restarts
	// started at a proposal of it, and the restart used for prediction started at proposal StartedAt (from
	// 0; -1: at the usual initialization).
	SearchSeconds        float64
	Proposals, StartedAt int
	Fitted               bool
	// Model is the architecture trained (latformer.Architecture.Name).
	Model string
	// Source says what made the predictions: SourceNetwork (the trained model) or SourceSearch (the
	// lattice search's top proposal: the LatticeSearch model, or, by latformer.ParamGateInitFallback, a
	// network whose hard gates do not fit the training pairs: a single element and table that fit them is
	// preferred to a soft mixture, as Fit prefers a restart whose hard gates fit). Lattice is "canvas", or
	// "grid" when the task's elements are size-relative (latformer.ParamGateInitGrid); "" without mask
	// experts.
	Source, Lattice string
	// NetworkSolved: the trained network's own predictions solve the task (Solved when Source is
	// SourceNetwork; with the fallback, what the network would have scored).
	NetworkSolved bool
	// HasProposal: the lattice search found an element for the task (gate_init=search) and SearchSolved
	// says whether its top proposal's predictions solve it, whoever made the row's predictions.
	HasProposal, SearchSolved bool
	// NetworkAction is the group element of the network's discretized gates when the lattice search ran
	// (Action is the top proposal's when it predicted).
	NetworkAction string
	HardGates     bool
	// Canvas is the canvas side used; Action the group element read from the discretized gates for the
	// first test input ("g1 + g2" with two actions, layers.ParamActions).
	Canvas int
	Action string
	// Predictions are the predicted test grids (the non-pad region of the predicted canvas; nil when
	// the prediction has no well-formed grid).
	Predictions []datasets.Grid
}

// SolveTask trains a fresh LatFormer on the task's training pairs only and predicts every test output
// (Appendix B.2). The grids are placed at the top-left of a canvas x canvas canvas (canvas <= 0: the
// per-task datasets.TaskCanvas; 30 is the paper's setting), the model predicts the whole canvas, pad cells
// included, and the predicted grid is the non-pad region (datasets.Canvas.Grid). settings are extra
// hyperparameters (latformer.ParseSettings), cond an optional conditioning vector shared by all pairs (nil for
// none). progress, if not nil, gets the training progress. A Solver solves many tasks faster.
func SolveTask(backend compute.Backend, task datasets.Task, settings hparams.Settings, canvas int, cond []float32, progress func(latformer.Progress)) (TaskResult, error) {
	s, err := NewSolver(backend, settings, SolverOptions{Canvas: canvas})
	if err != nil {
		return TaskResult{ID: task.ID}, err
	}
	defer s.Close()
	return s.Solve(task, cond, progress)
}

// Sources of a TaskResult's predictions.
const (
	SourceNetwork = "network"
	SourceSearch  = "search"
)

// SolverOptions configure a Solver. The zero value solves each task on its own datasets.TaskCanvas with freshly
// compiled graphs, like SolveTask.
type SolverOptions struct {
	// Canvas is the canvas side of every task (0: per task, datasets.TaskCanvas).
	Canvas int
	// Buckets are canvas sides, ascending: a task's canvas is rounded up to the first that holds it (a
	// task larger than all keeps its own). Fewer canvases mean fewer graphs to compile (XLA), but a larger
	// canvas changes the lattice (the translations wrap around at its side) and costs more per step.
	Buckets []int
	// Architecture is the model to train (zero value: LatFormer, latformer.LatFormerArchitecture).
	Architecture latformer.Architecture
	// Search predicts with the lattice search alone (LatticeSearch): the top proposal of
	// latformer.Proposals on the training pairs, applied to the test inputs; no network is trained.
	Search bool
	// Reuse keeps each canvas' compiled graphs for the next task on that canvas (latformer.LearnerCache):
	// the variables and the optimizer state are reset per task, so the results are those of fresh
	// learners.
	Reuse bool
}

// Solver solves tasks one after another on one backend (Solve), like SolveTask, with the options of
// SolverOptions. It is not safe for concurrent use: give each worker its own, on its own backend.
type Solver struct {
	opts      SolverOptions
	cache     *latformer.LearnerCache // with Reuse, one learner per canvas; without, emptied after each task
	gridCache *latformer.LearnerCache // the same with the grid-lattice expert (gate_init_grid), made when needed
	backend   compute.Backend
	settings  hparams.Settings
	store     *model.Store // the hyperparameters (the experts' group, gate_init and its options)
	// search: gate_init is "search"; grid, fallback and screen: gate_init_grid, gate_init_fallback and
	// search_screen; unproposedMaxCells: gate_init_unproposed_max_cells.
	search, grid, fallback, screen bool
	unproposedMaxCells             int
}

// NewSolver returns a Solver; bad settings or options are an error here, before any work.
func NewSolver(backend compute.Backend, settings hparams.Settings, opts SolverOptions) (*Solver, error) {
	if opts.Canvas < 0 || opts.Canvas > datasets.MaxGridSide {
		return nil, fmt.Errorf("canvas must be in 0..%d, got %d", datasets.MaxGridSide, opts.Canvas)
	}
	for i, b := range opts.Buckets {
		if b < 1 || b > datasets.MaxGridSide || (i > 0 && b <= opts.Buckets[i-1]) {
			return nil, fmt.Errorf("canvas buckets must be ascending sides in 1..%d, got %v", datasets.MaxGridSide, opts.Buckets)
		}
	}
	if opts.Architecture.Build == nil && !opts.Architecture.Autoregressive() {
		opts.Architecture = latformer.LatFormerArchitecture()
	}
	cache, err := latformer.NewLearnerCacheFor(opts.Architecture, backend, settings)
	if err != nil {
		return nil, err
	}
	s := &Solver{opts: opts, cache: cache, backend: backend, settings: settings}
	if s.store, err = latformer.NewStoreFor(opts.Architecture, settings); err != nil {
		return nil, err
	}
	s.search = latformer.Param[string](s.store, latformer.ParamGateInit) == latformer.GateInitSearch
	s.grid = latformer.Param[bool](s.store, latformer.ParamGateInitGrid)
	s.fallback = latformer.Param[bool](s.store, latformer.ParamGateInitFallback)
	s.screen = latformer.Param[bool](s.store, latformer.ParamSearchScreen)
	if s.unproposedMaxCells = latformer.Param[int](s.store, latformer.ParamUnproposedMaxCells); s.unproposedMaxCells < 0 {
		return nil, fmt.Errorf("%s must be >= 0, got %d", latformer.ParamUnproposedMaxCells, s.unproposedMaxCells)
	}
	return s, nil
}

// Close releases the compiled graphs the solver keeps.
func (s *Solver) Close() {
	s.cache.Close()
	if s.gridCache != nil {
		s.gridCache.Close()
	}
}

// Canvas returns the canvas side the solver uses for the task (SolverOptions).
func (s *Solver) Canvas(task datasets.Task) int { return s.opts.canvas(task) }

// canvas returns the canvas side of the task: Canvas, or datasets.TaskCanvas rounded up to the first bucket that
// holds it.
func (o SolverOptions) canvas(task datasets.Task) int {
	if o.Canvas > 0 {
		return o.Canvas
	}
	side := datasets.TaskCanvas(task)
	for _, b := range o.Buckets {
		if b >= side {
			return b
		}
	}
	return side
}

// Solve solves one task (see SolveTask).
func (s *Solver) Solve(task datasets.Task, cond []float32, progress func(latformer.Progress)) (TaskResult, error) {
	if s.opts.Search {
		return s.solveBySearch(task)
	}
	res := TaskResult{ID: task.ID, Model: s.opts.Architecture.Name}
	canvas := s.Canvas(task)
	res.Canvas = canvas
	start := time.Now()
	if !s.opts.Reuse {
		defer s.Close() // nothing kept: the next task builds and compiles its own graphs
	}
	learner, _, err := s.cache.Learner(canvas, canvas)
	if err != nil {
		return res, err
	}
	train, test, err := taskExamples(task, canvas, cond)
	if err != nil {
		return res, err
	}
	// gate_init=search or search_screen, on the model with mask experts: the search first (with
	// gate_init=search it may choose the grid lattice), its top proposal kept for the fallback.
	var top *latformer.Proposal
	if (s.search || s.screen) && s.opts.Architecture.Name == latformer.LatFormerArchitecture().Name {
		if learner, top, err = s.searchFirst(learner, &res, train); err != nil {
			return res, fmt.Errorf("task %s: %w", task.ID, err)
		}
		if top == nil && s.untrained(canvas) { // no element, no training, unsolved
			res.Source = SourceSearch
			res.Seconds = time.Since(start).Seconds()
			res.score(task, make([]*datasets.Canvas, len(test)))
			return res, nil
		}
	}
	fit, err := learner.Fit(train, progress)
	if err != nil {
		return res, fmt.Errorf("task %s: %w", task.ID, err)
	}
	res.Steps, res.Fitted, res.HardGates = fit.Steps, fit.Fitted, fit.HardGates
	res.Restarts, res.RestartsFitted, res.Restart, res.TotalSteps = fit.Restarts, fit.RestartsFitted, fit.Restart, fit.TotalSteps
	res.CompileSeconds = fit.Compile.Seconds()
	res.SearchSeconds += fit.Search.Seconds()
	res.Proposals, res.StartedAt = fit.Proposals, fit.StartedAt
	preds, err := learner.Predict(test)
	if err != nil {
		return res, fmt.Errorf("task %s: %w", task.ID, err)
	}
	if len(preds) > 0 && preds[0].Action != nil { // a model without mask experts has no action
		res.Action = preds[0].Action.String()
		if preds[0].Action2 != nil {
			res.Action += " + " + preds[0].Action2.String()
		}
	}
	canvases := make([]*datasets.Canvas, len(preds))
	for i := range preds {
		canvases[i] = &preds[i].Canvas
	}
	res.Source = SourceNetwork
	if top != nil && s.search {
		// Both predict: the network's and the top proposal's (element and generalized table) outcomes are
		// recorded, and the fallback decides which one the row reports.
		searched, err := proposalPredictions(top.Proposal, test)
		if err != nil {
			return res, fmt.Errorf("task %s: %w", task.ID, err)
		}
		network, search := res, res
		network.score(task, canvases)
		search.score(task, searched)
		res.NetworkSolved, res.HasProposal, res.SearchSolved = network.Solved, true, search.Solved
		res.NetworkAction = res.Action
		expert := experts.ExpertFromScope(learner.Store().RootScope(), canvas, canvas)
		sameElement := res.NetworkAction == expert.ActionOf(top.Element).String() // "g1 + g2" with two actions: never
		if s.fallback && useProposal(fit, sameElement, canvases, searched) {
			canvases = searched
			res.Source, res.Action = SourceSearch, top.Action.String()
		}
	}
	res.Seconds = time.Since(start).Seconds()
	res.score(task, canvases)
	if res.Source == SourceNetwork {
		res.NetworkSolved = res.Solved
	}
	return res, nil
}

// untrained says whether a task on the canvas side that the search finds no element for goes untrained:
// search_screen, or gate_init=search on a canvas above gate_init_unproposed_max_cells.
func (s *Solver) untrained(canvas int) bool {
	return s.screen || (s.search && s.unproposedMaxCells > 0 && canvas*canvas > s.unproposedMaxCells)
}

// useProposal is the fallback's rule (latformer.ParamGateInitFallback), given the network's predictions and
// the top proposal's (searched), and whether the network's hard gates select the top proposal's element
// (sameElement). A network prediction is never replaced by an empty one: the proposal predicts only when
// its table maps every test input. Then it predicts when no restart's hard gates fit the training pairs (a
// single element and table that fit them all is preferred to a soft mixture, as Fit prefers a restart
// whose hard gates fit); and when they fit with the proposal's own element but predict otherwise: the two
// differ only in how the color table answers keys no training cell has, and the search's table answers
// them by explicit rules (annotate.Proposal.Generalize). Where the hard gates fit another element (a later
// proposal), the network predicts. Chosen on the dev half of Table 2's tasks (README, "The fallback").
func useProposal(fit latformer.FitResult, sameElement bool, network, searched []*datasets.Canvas) bool {
	for _, c := range searched {
		if c == nil {
			return false
		}
	}
	if !(fit.Fitted && fit.HardGates) {
		return true
	}
	if !sameElement {
		return false
	}
	for i, c := range searched {
		if i >= len(network) || network[i] == nil || !slices.Equal(network[i].Cells, c.Cells) {
			return true
		}
	}
	return false
}

// searchFirst runs the lattice search before training (latformer.LatticeProposals), for gate_init=search
// or search_screen: with gate_init=search, when only size-relative elements fit the training pairs
// (gate_init_grid), it returns a learner with the grid-lattice expert instead of learner. It also returns
// the top proposal (nil: none).
func (s *Solver) searchFirst(learner *latformer.Learner, res *TaskResult, train []latformer.Example) (*latformer.Learner, *latformer.Proposal, error) {
	start := time.Now()
	expert := experts.ExpertFromScope(s.store.RootScope(), res.Canvas, res.Canvas)
	props, used, err := latformer.LatticeProposals(expert, train, 1, s.grid)
	res.SearchSeconds = time.Since(start).Seconds()
	if err != nil {
		return nil, nil, err
	}
	res.Lattice = "canvas"
	if expert.GridLattice || (used.GridLattice && s.search) {
		res.Lattice = "grid"
	}
	if used.GridLattice && !expert.GridLattice && s.search {
		if s.gridCache == nil {
			settings := s.settings.With(hparams.Setting{Key: experts.ParamGridLattice, Value: true})
			if s.gridCache, err = latformer.NewLearnerCacheFor(s.opts.Architecture, s.backend, settings); err != nil {
				return nil, nil, err
			}
		}
		if learner, _, err = s.gridCache.Learner(res.Canvas, res.Canvas); err != nil {
			return nil, nil, err
		}
	}
	if len(props) == 0 {
		return learner, nil, nil
	}
	return learner, &props[0], nil
}

// proposalPredictions applies a proposal, its table generalized (annotate.Proposal.Generalize), to the test
// inputs: nil where the table cannot map a cell (the plain table, and the color-role table where the
// proposal has one: annotate.Proposal.Predict).
func proposalPredictions(top annotate.Proposal, test []latformer.Example) ([]*datasets.Canvas, error) {
	top = top.Generalize()
	preds := make([]*datasets.Canvas, len(test))
	for i, ex := range test {
		out, ok, err := top.Predict(ex.Input)
		if err != nil {
			return nil, fmt.Errorf("test pair %d: %w", i, err)
		}
		if ok {
			preds[i] = &out
		}
	}
	return preds, nil
}

// taskExamples places the task's training pairs and test inputs on a canvas x canvas canvas, each with the
// conditioning vector cond (nil: none). The test examples have no output.
func taskExamples(task datasets.Task, canvas int, cond []float32) (train, test []latformer.Example, err error) {
	toCanvas := func(g datasets.Grid, what string) (datasets.Canvas, error) {
		c, err := datasets.ToCanvas(g, canvas, canvas)
		if err != nil {
			return c, fmt.Errorf("task %s, %s: %w", task.ID, what, err)
		}
		return c, nil
	}
	for i, p := range task.Train {
		in, err := toCanvas(p.Input, fmt.Sprintf("train pair %d input", i))
		if err != nil {
			return nil, nil, err
		}
		out, err := toCanvas(p.Output, fmt.Sprintf("train pair %d output", i))
		if err != nil {
			return nil, nil, err
		}
		train = append(train, latformer.Example{Input: in, Output: out, Cond: cond})
	}
	for i, p := range task.Test {
		in, err := toCanvas(p.Input, fmt.Sprintf("test pair %d input", i))
		if err != nil {
			return nil, nil, err
		}
		test = append(test, latformer.Example{Input: in, Cond: cond})
	}
	return train, test, nil
}

// score records the predicted test canvases (nil: no prediction) in res: the predicted grids, how many
// test outputs are exact and how many are wrong only in size, and Solved (every known test output exact).
func (res *TaskResult) score(task datasets.Task, preds []*datasets.Canvas) {
	res.Solved = true
	for i, p := range preds {
		var grid datasets.Grid
		if p != nil {
			if g, ok := p.Grid(); ok {
				grid = g
			}
		}
		res.Predictions = append(res.Predictions, grid)
		want := task.Test[i].Output
		if want == nil {
			continue
		}
		res.TestTotal++
		if grid != nil && grid.Equal(want) {
			res.TestExact++
			continue
		}
		res.Solved = false
		if p != nil && cellsRightSizeWrong(*p, want) {
			res.SizeOnly++
		}
	}
	if res.TestTotal == 0 {
		res.Solved = false
	}
}

// cellsRightSizeWrong reports whether every cell of want is predicted right on the canvas (top-left)
// while the prediction as a whole is not want: the failure is only in the size (pad region).
func cellsRightSizeWrong(c datasets.Canvas, want datasets.Grid) bool {
	if want.Rows() > c.Rows || want.Cols() > c.Cols {
		return false
	}
	for i, row := range want {
		for j, v := range row {
			if c.Cells[i*c.Cols+j] != int32(v) {
				return false
			}
		}
	}
	return true
}
