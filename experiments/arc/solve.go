// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc

import (
	"cmp"
	"fmt"
	"time"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Result is one task's report row: the task's solution (arcsolver.Solution, with its fit,
// latformer.FitResult) scored against the task's test outputs, as Run and SolveRun write it (Header,
// SolveHeader) and SolveTask returns it.
type Result struct {
	ID string
	// Category is the task's annotated category (Run's rows; "" in SolveRun's and SolveTask's).
	Category datasets.Category
	// Solved is true iff every test output with a known answer is predicted exactly (Appendix B.2).
	Solved bool
	// TestExact of TestTotal test outputs are exact; SizeOnly counts the wrong ones whose cells inside
	// the expected grid are all right but whose size (the non-pad region) is wrong.
	TestExact, TestTotal, SizeOnly int
	// FitResult is the training's (arcsolver.Solution.Fit: its steps, restarts, fit and compile time). The
	// LatticeSearch model trains nothing: its top proposal counts as Fitted with HardGates.
	latformer.FitResult
	// Seconds is the whole task (training and prediction); SearchSeconds went to the lattice search
	// (gate_init=search; not in the CSV).
	Seconds, SearchSeconds float64
	// Model is the architecture trained (latformer.Architecture.Name).
	Model string
	// Source says what made the predictions: SourceNetwork (the trained model) or SourceSearch (the
	// lattice search's top proposal: the LatticeSearch model, or, by arcsolver.ParamSearchFallback, a
	// network whose hard gates do not fit the training pairs: a single element and table that fit them is
	// preferred to a soft mixture, as Fit prefers a restart whose hard gates fit). Lattice is "canvas", or
	// "grid" when the task's elements are size-relative (arcsolver.ParamSearchLattices); "" without mask
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
	// Canvas is the canvas side used; Action the group element read from the discretized gates for the
	// first test input ("g1 + g2" with two actions, layers.ParamActions).
	Canvas int
	Action string
	// Predictions are the predicted test grids (the non-pad region of the predicted canvas; nil when
	// the prediction has no well-formed grid).
	Predictions []datasets.Grid
	// Second are the second guesses (ARC Prize's attempt_2), one per test input: the first of the
	// solution's alternatives (arcsolver.Solution.Alternatives: the other source's prediction, then the
	// search's next proposals') whose grid is well formed and differs from Predictions[i]; nil where none
	// does. SecondBy says which made it ("network", "search", "proposal k"; "" for none).
	Second   []datasets.Grid
	SecondBy []string
	// Loaded says the solution was loaded (SolveRun with Options.Load), not trained.
	Loaded bool
}

// SolveTask trains a fresh LatFormer on the task's training pairs only and predicts every test output
// (Appendix B.2). The grids are placed at the top-left of a canvas x canvas canvas (canvas <= 0: the
// per-task datasets.TaskCanvas; 30 is the paper's setting), the model predicts the whole canvas, pad cells
// included, and the predicted grid is the non-pad region (datasets.Canvas.Grid). settings are extra
// hyperparameters (arcsolver.ParseSettings), cond an optional conditioning vector shared by all pairs (nil for
// none). progress, if not nil, gets the training progress. A Solver solves many tasks faster.
func SolveTask(
	backend compute.Backend, task datasets.Task, settings hparams.Settings, canvas int, cond []float32,
	progress func(latformer.Progress),
) (Result, error) {
	s, err := NewSolver(backend, Options{Canvas: canvas, CompilePerTask: true, Settings: settings})
	if err != nil {
		return Result{ID: task.ID}, err
	}
	defer s.Close()
	return s.Solve(task, cond, progress)
}

// Sources of a Result's predictions (arcsolver.Solution's; an untrained task, arcsolver.SourceUntrained,
// is recorded as SourceSearch: the search decided it).
const (
	SourceNetwork = arcsolver.SourceNetwork
	SourceSearch  = arcsolver.SourceSearch
)

// LatticeSearch is the model name of the lattice search alone (`latformer arc --model lattice_search`): no
// network is trained; the top proposal of arcsolver.Proposals on the task's training pairs (the element of
// the experts' group and the one color table that map every training input to its output), its table
// generalized to the color pairs no training cell has (search.Proposal.Generalize), is applied to each
// test input. What a program search over the experts' group, with a color table, gets. With
// search_lattices=anchored (the default), a task that no canvas element fits is searched again over the size-relative
// elements (arcsolver.LatticeProposals). Where no plain table fits on either lattice, or the top proposal's
// plain table cannot map a test input, its color-role table (search.RoleTable: the pair's background and
// free color named by role) predicts.
const LatticeSearch = "lattice_search"

// Solver is the thin ARC adapter of arcsolver.Solver, which decides how a task is solved (the search, the
// expert, the fit, the fallback): it places each ARC task on its canvas (Options.Canvas, Buckets),
// has its arcsolver.Solver solve it and scores the predictions against the task's test outputs
// (Result). It is not safe for concurrent use: give each
// worker its own, on its own backend.
type Solver struct {
	opts       Options
	model      string // the Result's Model: the architecture's name, or LatticeSearch
	searchOnly bool   // the LatticeSearch model
	solver     *arcsolver.Solver
}

// NewSolver returns a Solver of the options' Model (default latformer), Settings (with Steps), Canvas,
// Buckets and CompilePerTask (the others are the run's); bad settings or options are an error here,
// before any work.
func NewSolver(backend compute.Backend, o Options) (*Solver, error) {
	if o.Canvas < 0 || o.Canvas > datasets.MaxGridSide {
		return nil, fmt.Errorf("canvas must be in 0..%d, got %d", datasets.MaxGridSide, o.Canvas)
	}
	for i, b := range o.Buckets {
		if b < 1 || b > datasets.MaxGridSide || (i > 0 && b <= o.Buckets[i-1]) {
			return nil, fmt.Errorf("canvas buckets must be ascending sides in 1..%d, got %v",
				datasets.MaxGridSide, o.Buckets)
		}
	}
	arch, err := ModelArchitecture(cmp.Or(o.Model, "latformer"))
	if err != nil {
		return nil, err
	}
	settings := o.Settings
	if o.Steps > 0 {
		settings = settings.With(hparams.Setting{Key: latformer.ParamSteps, Value: o.Steps})
	}
	searchOnly := o.Model == LatticeSearch
	solver, err := arcsolver.New(backend, settings,
		arcsolver.Options{Architecture: arch, SearchOnly: searchOnly, Reuse: !o.CompilePerTask})
	if err != nil {
		return nil, err
	}
	model := arch.Name
	if searchOnly {
		model = LatticeSearch
	}
	return &Solver{opts: o, model: model, searchOnly: searchOnly, solver: solver}, nil
}

// Close releases the compiled graphs the solver keeps.
func (s *Solver) Close() { s.solver.Close() }

// Canvas returns the canvas side the solver uses for the task (Options.Canvas, Buckets).
func (s *Solver) Canvas(task datasets.Task) int { return s.opts.canvas(task) }

// canvas returns the canvas side of the task: Canvas, or datasets.TaskCanvas rounded up to the first bucket that
// holds it.
func (o Options) canvas(task datasets.Task) int {
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

// Solve solves one task (see SolveTask): the task on its canvas, arcsolver.Solver.Solve, and the scores of
// its predictions. Its errors do not name the task: the caller does (runner.Run names each unit).
func (s *Solver) Solve(task datasets.Task, cond []float32, progress func(latformer.Progress)) (Result, error) {
	res := Result{ID: task.ID, Model: s.model, Canvas: s.Canvas(task)}
	start := time.Now()
	train, test, err := taskExamples(task, res.Canvas, cond)
	if err != nil {
		return res, err
	}
	sol, err := s.solver.Solve(train, test, progress)
	if err != nil {
		return res, err
	}
	if err := res.fill(task, sol, test, s.searchOnly); err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// fill records the solution of the task (its test examples test) in res: what the training and the search
// did, the predictions and their scores, the network's and the top proposal's outcomes, and the second
// guesses; searchOnly: the LatticeSearch model.
func (res *Result) fill(
	task datasets.Task, sol arcsolver.Solution, test []latformer.Example, searchOnly bool,
) error {
	res.record(sol, searchOnly)
	if sol.Top != nil && !searchOnly {
		// Both predicted: the network's and the top proposal's (element and generalized table) outcomes are
		// recorded, whichever the fallback let predict.
		network, search := *res, *res
		network.score(task, networkCanvases(sol.Network))
		search.score(task, sol.Searched)
		res.NetworkSolved, res.HasProposal, res.SearchSolved = network.Solved, true, search.Solved
		if len(sol.Network) > 0 {
			res.NetworkAction = sol.Network[0].ActionName()
		}
	}
	res.score(task, sol.Predictions)
	if res.Source == SourceNetwork {
		res.NetworkSolved = res.Solved
	}
	alternatives, err := sol.Alternatives(test)
	if err != nil {
		return err
	}
	res.Second, res.SecondBy = make([]datasets.Grid, len(test)), make([]string, len(test))
	for i, alts := range alternatives {
		for _, a := range alts {
			if a.Canvas == nil {
				continue
			}
			if g, ok := a.Canvas.Grid(); ok && !g.Equal(res.Predictions[i]) {
				res.Second[i], res.SecondBy[i] = g, a.By
				break
			}
		}
	}
	return nil
}

// record copies what the solution says of the training and the search into res; searchOnly: the
// LatticeSearch model, whose top proposal counts as fitted with hard gates.
func (res *Result) record(sol arcsolver.Solution, searchOnly bool) {
	res.FitResult = sol.Fit
	if sol.Search != nil {
		res.SearchSeconds = sol.Search.Elapsed.Seconds()
	}
	if searchOnly && sol.Top != nil {
		res.Fitted, res.HardGates = true, true
	}
	res.Source, res.Lattice, res.Action = sol.Source, sol.Lattice, sol.ActionName()
	if sol.Source == arcsolver.SourceUntrained {
		res.Source = SourceSearch
	}
}

// networkCanvases are the network's predicted canvases.
func networkCanvases(preds []latformer.Prediction) []*datasets.Canvas {
	out := make([]*datasets.Canvas, len(preds))
	for i := range preds {
		out[i] = &preds[i].Canvas
	}
	return out
}

// taskExamples places the task's training pairs and test inputs on a canvas x canvas canvas, each with the
// conditioning vector cond (nil: none). The test examples have no output.
func taskExamples(task datasets.Task, canvas int, cond []float32) (train, test []latformer.Example, err error) {
	toCanvas := func(g datasets.Grid, what string) (datasets.Canvas, error) {
		c, err := datasets.ToCanvas(g, canvas, canvas)
		if err != nil {
			return c, fmt.Errorf("%s: %w", what, err)
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
func (res *Result) score(task datasets.Task, preds []*datasets.Canvas) {
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
