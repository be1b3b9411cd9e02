// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
	"github.com/latformer/latformer/search"
)

// Sources of a Solution's predictions.
const (
	// SourceNetwork: the trained network predicted.
	SourceNetwork = "network"
	// SourceSearch: the lattice search's top proposal predicted (Options.SearchOnly, or the fallback
	// of ParamSearchFallback).
	SourceSearch = "search"
	// SourceUntrained: nothing predicted: the search found no element and the task was not trained
	// (ParamSearchScreen, ParamMaxCells).
	SourceUntrained = "untrained"
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

// Solution is what Solver.Solve made of a task.
type Solution struct {
	// Predictions are the predicted test canvases, one per test example, made by Source. An entry is nil
	// where there is none.
	Predictions []*datasets.Canvas
	Source      string
	// Action and Action2 are the group elements behind Predictions: the network's hard gates on the
	// first test input, or the top proposal's action. Action2 is set with two actions only.
	Action, Action2 lattice.Action
	// Network are the trained network's own predictions and Fit its training (nil and zero when no
	// network was trained).
	Network []latformer.Prediction
	Fit     latformer.FitResult
	// Search is the lattice search's result, nil when it did not run (ParamGateInit "paper" without
	// ParamSearchScreen, or a model without mask experts).
	Search *Search
	// Lattice is the lattice of the elements the task was solved over: "canvas", "grid" or "anchored"
	// (experts.ParamLattice, or chosen by ParamSearchLattices); "" when no search ran.
	Lattice string
	// Top is the search's top proposal when it competed with the network or predicted alone.
	Top *Proposal
	// Searched are Top's predictions of the test outputs, nil where its table cannot map the input.
	Searched []*datasets.Canvas
	// Anchor is the frame rule of an anchor-relative element (search.FrameRule.String), else "".
	Anchor string
}

// ActionName names the solution's group element, after an anchored element's frame rule. It is
// "g1 + g2" with two actions, "" for none.
func (s Solution) ActionName() string {
	name := latformer.ActionName(s.Action, s.Action2)
	if s.Anchor != "" && name != "" {
		return s.Anchor + "∘" + name
	}
	return name
}

// Alternative is a prediction of a test output other than the Solution's own, and what made it.
type Alternative struct {
	// Canvas is the predicted output canvas, nil where By has no prediction for the input.
	Canvas *datasets.Canvas
	// By is SourceNetwork, SourceSearch (the top proposal) or "proposal k" (the search's k-th, from 1).
	By string
}

// Alternatives returns, for each test example, the solution's other predictions of its output, best
// first. The other source's prediction comes first: the top proposal's where the network predicted, the
// network's where the proposal did. The search's next proposals follow in rank order. test are the
// examples Solve predicted. An entry may equal the solution's own prediction; ARC Prize's second
// attempt is the first that differs.
func (s Solution) Alternatives(test []latformer.Example) ([][]Alternative, error) {
	out := make([][]Alternative, len(test))
	add := func(by string, preds []*datasets.Canvas) {
		for i := range out {
			var c *datasets.Canvas
			if i < len(preds) {
				c = preds[i]
			}
			out[i] = append(out[i], Alternative{Canvas: c, By: by})
		}
	}
	switch {
	case s.Source == SourceNetwork && s.Top != nil:
		add(SourceSearch, s.Searched)
	case s.Source == SourceSearch && len(s.Network) > 0:
		network := make([]*datasets.Canvas, len(s.Network))
		for i := range s.Network {
			network[i] = &s.Network[i].Canvas
		}
		add(SourceNetwork, network)
	}
	if s.Search == nil {
		return out, nil
	}
	next := 0
	if s.Top != nil {
		next = 1 // the top proposal is above
	}
	for k := next; k < len(s.Search.Proposals); k++ {
		preds, err := proposalPredictions(s.Search.Proposals[k], test)
		if err != nil {
			return nil, fmt.Errorf("proposal %d: %w", k+1, err)
		}
		add(fmt.Sprintf("proposal %d", k+1), preds)
	}
	return out, nil
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
	if s.tryFrames(start, sol.Fit) {
		framed, err := s.fitFrames(&sol, train, progress)
		if err != nil {
			return sol, err
		}
		if framed != nil {
			learner, test = framed, WithFrameCandidates(s.last.frames, test)
		}
	}
	if err = s.predict(&sol, learner, test, start); err != nil {
		return sol, err
	}
	nameFrame(&sol, learner, s.last.frames)
	return sol, nil
}

// tryFrames says whether a task goes on to the candidate frames (fitFrames). It does when the solver
// has them, the search did not start the fit, and no restart's hard gates fitted on the canvas.
func (s *Solver) tryFrames(start *Search, fit latformer.FitResult) bool {
	return s.frames > 0 && start == nil && s.opts.Architecture.Name == latformer.LatFormerArchitecture().Name &&
		!(fit.Fitted && fit.HardGates)
}

// fitFrames fits a second learner, whose expert acts on a frame it learns among the task's candidate
// frames (FrameCandidates). It keeps that learner when it fits better than the canvas fit
// (latformer.FitResult.BetterThan) and returns it, else nil. sol.Fit gets the kept fit, with the
// restarts and steps of both counted and the other fit's SoftTop after the kept one's.
func (s *Solver) fitFrames(
	sol *Solution, train []latformer.Example, progress func(latformer.Progress),
) (*latformer.Learner, error) {
	rules := FrameCandidates(train, s.frames)
	if _, ok := experts.FrameExperts(s.learning); len(rules) == 0 || !ok {
		return nil, nil
	}
	cache, err := s.framesVariant(len(rules))
	if err != nil {
		return nil, err
	}
	learner, _, err := cache.Learner(train[0].Input.Rows, train[0].Input.Cols)
	if err != nil {
		return nil, err
	}
	fit, err := learner.Fit(WithFrameCandidates(rules, train), nil, progress)
	if err != nil {
		return nil, fmt.Errorf("the candidate frames: %w", err)
	}
	canvas := sol.Fit
	fit.SoftTop = ruleElements(fit.SoftTop, rules)
	if !fit.BetterThan(canvas) {
		sol.Fit.SoftTop = append(sol.Fit.SoftTop, fit.SoftTop...)
		sol.Fit.Restarts += fit.Restarts
		sol.Fit.TotalSteps += fit.TotalSteps
		sol.Fit.Elapsed += fit.Elapsed
		sol.Fit.Compile += fit.Compile
		s.last.fit = sol.Fit
		return nil, nil
	}
	fit.Restart += canvas.Restarts
	fit.Restarts += canvas.Restarts
	fit.RestartsFitted += canvas.RestartsFitted
	fit.TotalSteps += canvas.TotalSteps
	fit.Elapsed += canvas.Elapsed
	fit.Compile += canvas.Compile
	fit.SoftTop = append(fit.SoftTop, canvas.SoftTop...)
	sol.Fit = fit
	s.last.learner, s.last.fit, s.last.frames = learner, fit, rules
	return learner, nil
}

// ruleElements names the candidate frames in elements named by experts.Expert.ElementName ("frame(k)∘g")
// by their rules ("crop(fg)∘g").
func ruleElements(names []string, rules []search.FrameRule) []string {
	out := make([]string, len(names))
	for i, n := range names {
		var k int
		out[i] = n
		if _, err := fmt.Sscanf(n, "frame(%d)", &k); err == nil && k >= 0 && k < len(rules) {
			out[i] = rules[k].String() + strings.TrimPrefix(n, fmt.Sprintf("frame(%d)", k))
		}
	}
	return out
}

// nameFrame sets sol.Anchor to the frame rule the hard gates chose on the first test input, when the
// learner acts on the candidate frames.
func nameFrame(sol *Solution, learner *latformer.Learner, rules []search.FrameRule) {
	if len(rules) == 0 || len(sol.Network) == 0 {
		return
	}
	expert := learner.Expert()
	if k := expert.ElementOf(sol.Network[0].Gates).Frame; k < len(rules) {
		sol.Anchor = rules[k].String()
	}
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
}

// forget drops the last task's solution and, without Options.Reuse, its learners' graphs and variables.
// Save needed them; the next task does not.
func (s *Solver) forget() {
	s.last = nil
	if !s.opts.Reuse {
		s.Close()
	}
}

// predictUntrained predicts the tasks the solver does not train a network for, and reports whether it
// did. With SearchOnly the top proposal predicts; an untrained task gets no prediction.
func (s *Solver) predictUntrained(sol *Solution, test []latformer.Example, cells int) (bool, error) {
	if s.opts.SearchOnly {
		return true, s.predictBySearch(sol, test)
	}
	if sol.Search != nil && len(sol.Search.Proposals) == 0 && s.untrained(cells) {
		sol.Source, sol.Predictions = SourceUntrained, make([]*datasets.Canvas, len(test))
		return true, nil
	}
	return false, nil
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

// withFramesOf returns the examples with their frames under the start's top proposal when it is
// anchor-relative, else the examples as they are.
func withFramesOf(start *Search, examples []latformer.Example) []latformer.Example {
	if _, ok := start.anchor(); ok {
		return WithFrames(start.Proposals[0], examples)
	}
	return examples
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

// untrained says whether a task the search finds no element for goes untrained on a canvas of cells:
// with ParamSearchScreen, or ParamGateInit "search" above ParamMaxCells.
func (s *Solver) untrained(cells int) bool {
	return s.screen || (s.search && s.unproposedMaxCells > 0 && cells > s.unproposedMaxCells)
}

// framesVariant returns the learners whose expert learns its frame among n candidates (fitFrames). The
// expert is anchored, with the solver's experts but the translation. n is rounded up to a multiple of
// 8, so that tasks with about as many candidates share compiled graphs. They train ParamFrameCopies
// copies with frameRestarts.
func (s *Solver) framesVariant(n int) (*latformer.LearnerCache, error) {
	k := min(s.frames, (n+7)/8*8)
	list, _ := experts.FrameExperts(s.learning)
	settings := s.learning.With(list, hparams.Setting{Key: experts.ParamLattice, Value: experts.LatticeAnchored},
		hparams.Setting{Key: experts.ParamFrameCandidates, Value: k})
	if s.frameCopies > 0 {
		settings = settings.With(hparams.Setting{Key: latformer.ParamAugment, Value: s.frameCopies})
	}
	settings = settings.With(hparams.Setting{Key: latformer.ParamRestartExperts, Value: frameRestarts(
		latformer.Param[string](s.store, latformer.ParamRestartExperts))})
	return s.variant(fmt.Sprintf("frames%d", k), settings)
}

// frameRestarts is the restart schedule (ParamRestartExperts) of a fit on candidate frames. It is the
// solver's, with z, v and h read as t: a frame expert has no translation, so they free the frame gates
// alone.
func frameRestarts(list string) string {
	return strings.NewReplacer("z", "t", "v", "t", "h", "t").Replace(list)
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

// predictBySearch predicts with the search's top proposal alone (SearchOnly): no prediction without one.
func (s *Solver) predictBySearch(sol *Solution, test []latformer.Example) error {
	sol.Source, sol.Predictions = SourceSearch, make([]*datasets.Canvas, len(test))
	if len(sol.Search.Proposals) == 0 {
		return nil
	}
	top := sol.Search.Proposals[0]
	searched, err := proposalPredictions(top, test)
	if err != nil {
		return err
	}
	sol.Top, sol.Searched, sol.Predictions, sol.Action = &top, searched, searched, top.Action
	if rule, ok := top.Anchored(); ok {
		sol.Anchor = rule.String()
	}
	return nil
}

// fallBack also predicts the test outputs with the top proposal (sol.Top, sol.Searched). With
// ParamSearchFallback, useProposal decides whether it replaces the network's predictions.
func (s *Solver) fallBack(sol *Solution, learner *latformer.Learner, test []latformer.Example) error {
	top := sol.Search.Proposals[0]
	searched, err := proposalPredictions(top, test)
	if err != nil {
		return err
	}
	sol.Top, sol.Searched = &top, searched
	network := ""
	if len(sol.Network) > 0 {
		network = sol.Network[0].ActionName()
	}
	expert := learner.Expert()
	sameElement := network == expert.ActionOf(top.Element).String() // "g1 + g2" with two actions: never
	if s.fallback && useProposal(sol.Fit, sameElement, sol.Predictions, searched) {
		sol.Source, sol.Predictions, sol.Action, sol.Action2 = SourceSearch, searched, top.Action, nil
	}
	return nil
}

// useProposal is the fallback's rule (ParamSearchFallback). It gets the network's predictions, the top
// proposal's (searched), and whether the network's hard gates select the top proposal's element
// (sameElement). The proposal predicts only when its table maps every test input, so a network
// prediction is never replaced by an empty one. Then it predicts in two cases:
//   - No restart's hard gates fit the training pairs. One element and table that fit them all beat a
//     soft mixture, as Fit prefers a restart whose hard gates fit.
//   - They fit with the proposal's own element but predict otherwise. The two then differ only on color
//     keys no training cell has, which the search's table answers by explicit rules
//     (search.Proposal.Generalize).
//
// Where the hard gates fit another element, the network predicts (docs/arc-search.md, "The fallback").
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

// proposalPredictions applies a proposal, its table generalized, to the test inputs. An entry is nil
// where the table cannot map a cell (search.Proposal.Predict).
func proposalPredictions(top Proposal, test []latformer.Example) ([]*datasets.Canvas, error) {
	general := top.Generalize()
	preds := make([]*datasets.Canvas, len(test))
	for i, ex := range test {
		out, ok, err := general.Predict(ex.Input)
		if errors.Is(err, search.ErrNoBox) {
			continue // the anchor reads no box on this input: no prediction
		}
		if err != nil {
			return nil, fmt.Errorf("test pair %d: %w", i, err)
		}
		if ok {
			preds[i] = &out
		}
	}
	return preds, nil
}
