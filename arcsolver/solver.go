// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/search"
)

// Options configure a Solver. The zero value trains LatFormer with freshly compiled graphs per task.
type Options struct {
	// Architecture is the model to train; the zero value is LatFormerArchitecture. The lattice search
	// runs for LatFormer only, since the baselines have no mask experts to start.
	Architecture latformer.Architecture
	// SearchOnly predicts with the lattice search's top proposal alone, its table generalized
	// (search.Proposal.Generalize). No network is trained.
	SearchOnly bool
	// Reuse keeps each canvas' compiled graphs for the next task on that canvas (LearnerCache). The
	// variables are reset per task, so the results are those of fresh learners.
	Reuse bool
}

// Solver solves tasks one after another on one backend. It is the one place that decides how:
//   - the lattice search runs once per task and chooses the expert (ParamSearchLattices);
//   - a task it finds no element for may go untrained (ParamSearchScreen, ParamMaxCells);
//   - Learner.Fit starts its first restarts at the search's proposals;
//   - Learner.Predict predicts, and the top proposal may replace its predictions (ParamSearchFallback).
//
// Every experiment solves its tasks with a Solver; they differ in how they place a task on a canvas and
// score the predictions. A Solver is not safe for concurrent use: give each worker its own, on its own
// backend.
type Solver struct {
	opts    Options
	backend compute.Backend
	// settings are New's, the solver's keys (Params) and the model's; learning are the model's alone.
	settings, learning hparams.Settings
	store              *model.Store            // the model's hyperparameters, for the expert the search runs on
	cache              *latformer.LearnerCache // with Reuse, one learner per canvas; without, emptied after each task
	// variants are caches with another lattice than the hyperparameters', by lattice, made when the
	// search chooses it (learnersFor).
	variants map[string]*latformer.LearnerCache
	// search says whether ParamGateInit is "search".
	search bool
	// grid and anchored say how far ParamSearchLattices goes.
	grid, anchored bool
	// fallback and screen are ParamSearchFallback and ParamSearchScreen.
	fallback, screen bool
	// unproposedMaxCells is ParamMaxCells.
	unproposedMaxCells int
	// restarts is ParamRestarts, the most proposals Fit starts at.
	restarts int
	// frames is experts.ParamFrameCandidates, for a task the search does not start (fitFrames); 0: none.
	frames int
	// frameCopies is ParamFrameCopies.
	frameCopies int
	// shiftRestarts is ParamShiftRestarts, for the shift-softmax fit (fitShifts); "": none.
	shiftRestarts string
	// last is the task Solve solved last, for Save (nil before the first, or after Close).
	last *solved
	// searches counts the lattice searches run (TestSolverSearchesOnce).
	searches int
}

// New returns a Solver for the hyperparameters of settings, the solver's and the model's (ParamsFor).
// Bad settings are an error here, before any work.
func New(backend compute.Backend, settings hparams.Settings, opts Options) (*Solver, error) {
	if opts.Architecture.Build == nil && !opts.Architecture.Autoregressive() {
		opts.Architecture = latformer.LatFormerArchitecture()
	}
	own, learning, err := split(opts.Architecture, settings)
	if err != nil {
		return nil, err
	}
	cache, err := latformer.NewLearnerCacheFor(opts.Architecture, backend, learning)
	if err != nil {
		return nil, err
	}
	s := &Solver{opts: opts, backend: backend, settings: settings, learning: learning, cache: cache}
	if s.store, err = latformer.NewStoreFor(opts.Architecture, learning); err != nil {
		return nil, err
	}
	// split checked the settings (hparams.Table.Check): every value below is one its key accepts.
	s.search = param[string](own, ParamGateInit) == GateInitSearch
	lattices := param[string](own, ParamSearchLattices)
	s.grid = lattices == experts.LatticeGrid || lattices == experts.LatticeAnchored
	s.anchored = lattices == experts.LatticeAnchored
	s.fallback = param[bool](own, ParamSearchFallback)
	s.screen = param[bool](own, ParamSearchScreen)
	s.frameCopies = param[int](own, ParamFrameCopies)
	s.shiftRestarts = param[string](own, ParamShiftRestarts)
	s.restarts = latformer.Param[int](s.store, latformer.ParamRestarts)
	s.unproposedMaxCells = latformer.Param[int](s.store, latformer.ParamMaxCells)
	s.frames = experts.Param[int](s.store.RootScope(), experts.ParamFrameCandidates)
	return s, nil
}

// Close releases the compiled graphs the solver keeps.
func (s *Solver) Close() {
	s.last = nil
	s.cache.Close()
	for _, c := range s.variants {
		c.Close()
	}
}

// Solve solves one task from its training examples, on one canvas, and predicts the output of each
// test example from its Input and Cond. progress, if not nil, gets the training progress. Until the
// next Solve, Save saves what it fitted.
func (s *Solver) Solve(train, test []latformer.Example, progress func(latformer.Progress)) (sol Solution, err error) {
	if len(train) == 0 {
		return sol, fmt.Errorf("Solver.Solve: no training examples")
	}
	s.forget()
	defer func() {
		if s.last != nil {
			s.last.sol = sol
		}
	}()
	rows, cols := train[0].Input.Rows, train[0].Input.Cols
	if err = s.runSearch(&sol, train, rows, cols); err != nil {
		return sol, err
	}
	s.last = &solved{train: train, rows: rows, cols: cols}
	if done, err := s.predictUntrained(&sol, test, rows*cols); done || err != nil {
		return sol, err
	}
	start, cache, err := s.startAt(&sol)
	if err != nil {
		return sol, err
	}
	train, test = withFramesOf(start, train), withFramesOf(start, test)
	learner, _, err := cache.Learner(rows, cols)
	if err != nil {
		return sol, err
	}
	if sol.Fit, err = learner.Fit(train, start.starts(train), progress); err != nil {
		return sol, err
	}
	s.last.learner, s.last.fit = learner, sol.Fit
	ranked, err := s.rankedFit(start, learner, sol.Fit, test)
	if err != nil {
		return sol, err
	}
	canvasTest := test
	if s.tryFrames(start, ranked) {
		framed, err := s.fitFrames(&sol, ranked, train, progress)
		if err != nil {
			return sol, err
		}
		if framed != nil {
			learner, test = framed, WithFrameCandidates(s.last.frames, test)
			if ranked, err = s.rankedFit(start, learner, sol.Fit, test); err != nil {
				return sol, err
			}
		}
	}
	if s.tryShifts(start, ranked) {
		shifted, err := s.fitShifts(&sol, ranked, train, progress)
		if err != nil {
			return sol, err
		}
		if shifted != nil {
			learner, test = shifted, canvasTest
		}
	}
	if err = s.predict(&sol, learner, test, start); err != nil {
		return sol, err
	}
	nameFrame(&sol, learner, s.last.frames)
	return sol, nil
}

// rankedFit is a fit as the search-free solver ranks it against its later fits (tryFrames, fitFrames,
// tryShifts, fitShifts): a hard fit whose prediction of some test input is not a well-formed grid
// (datasets.Canvas.Grid) counts as no fit, since it cannot answer the task. Only the test inputs are
// read. With the search's start, or without a later stage (candidate frames, ParamShiftRestarts), it is
// fit itself.
func (s *Solver) rankedFit(
	start *Search, learner *latformer.Learner, fit latformer.FitResult, test []latformer.Example,
) (latformer.FitResult, error) {
	if !s.laterStages() || start != nil || !(fit.Fitted && fit.HardGates) || len(test) == 0 {
		return fit, nil
	}
	preds, err := learner.Predict(test)
	if err != nil {
		return fit, err
	}
	for _, p := range preds {
		if _, ok := p.Canvas.Grid(); !ok {
			fit.Fitted = false
			break
		}
	}
	return fit, nil
}

// runSearch runs the lattice search on the training examples when the solver needs it: with
// ParamGateInit "search", ParamSearchScreen or SearchOnly, on a model with mask experts. It searches
// as far as ParamSearchLattices says (LatticeProposals) and keeps as many proposals as Fit may start
// at. It records the search and its lattice in sol.
func (s *Solver) runSearch(sol *Solution, train []latformer.Example, rows, cols int) error {
	latFormer := s.opts.Architecture.Name == latformer.LatFormerArchitecture().Name
	if !s.opts.SearchOnly && !((s.search || s.screen) && latFormer) {
		return nil
	}
	max := 1 // the top proposal: for SearchOnly and for the screen
	if s.search && !s.opts.SearchOnly {
		max = s.restarts
	}
	expert := experts.ExpertFromScope(s.store.RootScope(), rows, cols)
	s.searches++
	search, err := searchLattice(expert, train, max, s.grid, s.anchored)
	if err != nil {
		return err
	}
	sol.Search, sol.Lattice = search, "canvas"
	if expert.Lattice.SizeRelative() || (search.Expert.Lattice.SizeRelative() && (s.search || s.opts.SearchOnly)) {
		sol.Lattice = "grid"
	}
	if search.Expert.Lattice == experts.Anchored && (s.search || s.opts.SearchOnly) {
		sol.Lattice = "anchored"
	}
	return nil
}

// solved is what Save needs of the task Solve solved last: its training examples, its canvas, the
// learner that fitted them (nil when none did) and the solution.
type solved struct {
	train      []latformer.Example
	rows, cols int
	learner    *latformer.Learner
	fit        latformer.FitResult
	sol        Solution
	// frames are the candidate frame rules the learner acts on (fitFrames), nil for the others.
	frames []search.FrameRule
	// shifts says whether the learner is the shift-softmax one (fitShifts).
	shifts bool
}

// forget drops the last task's solution and, without Options.Reuse, its learners' graphs and variables.
// Save needed them; the next task does not.
func (s *Solver) forget() {
	s.last = nil
	if !s.opts.Reuse {
		s.Close()
	}
}

// startAt returns the search whose proposals the restarts start at, nil for the paper's
// initialization. It also returns the learners of those proposals' expert. An anchor-relative
// element's frame rule goes to sol.Anchor.
func (s *Solver) startAt(sol *Solution) (*Search, *latformer.LearnerCache, error) {
	start := sol.Search
	if !s.search || start == nil {
		return nil, s.cache, nil // search_screen alone: the restarts start at the paper's initialization
	}
	if rule, ok := start.anchor(); ok {
		sol.Anchor = rule.String()
	}
	cache, err := s.learnersFor(start.Expert)
	return start, cache, err
}

// predict predicts the test examples with the fitted learner. When its restarts started at the
// search's proposals, the top proposal predicts too and may replace the network's predictions
// (fallBack). sol.Fit must be the learner's fit.
func (s *Solver) predict(sol *Solution, learner *latformer.Learner, test []latformer.Example, start *Search) error {
	var err error
	if sol.Network, err = learner.Predict(test); err != nil {
		return err
	}
	sol.Source, sol.Predictions = SourceNetwork, make([]*datasets.Canvas, len(sol.Network))
	for i := range sol.Network {
		sol.Predictions[i] = &sol.Network[i].Canvas
	}
	if len(sol.Network) > 0 {
		sol.Action, sol.Action2 = sol.Network[0].Action, sol.Network[0].Action2
	}
	if s.search && start != nil && len(start.Proposals) > 0 {
		return s.fallBack(sol, learner, test)
	}
	return nil
}

// learnersFor returns the cache of learners whose expert has e's lattice: the solver's own when its
// hyperparameters give that lattice, else a variant.
func (s *Solver) learnersFor(e experts.Expert) (*latformer.LearnerCache, error) {
	own := experts.ExpertFromScope(s.store.RootScope(), e.Rows, e.Cols)
	if own.Lattice == e.Lattice {
		return s.cache, nil
	}
	lattice := e.Lattice.String() // grid, or anchored: one frame per input, the search's
	return s.variant(lattice, s.learning.With(hparams.Setting{Key: experts.ParamLattice, Value: lattice},
		hparams.Setting{Key: experts.ParamFrameCandidates, Value: 0}))
}

// variant returns the learners of the given settings under a name, made on first use (learnersFor,
// framesVariant).
func (s *Solver) variant(name string, settings hparams.Settings) (*latformer.LearnerCache, error) {
	if c := s.variants[name]; c != nil {
		return c, nil
	}
	c, err := latformer.NewLearnerCacheFor(s.opts.Architecture, s.backend, settings)
	if err != nil {
		return nil, err
	}
	if s.variants == nil {
		s.variants = map[string]*latformer.LearnerCache{}
	}
	s.variants[name] = c
	return c, nil
}
