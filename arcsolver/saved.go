// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

// Saving a solved task (Solver.Save) with GoMLX's checkpoint package, and loading it to predict again
// without training (LoadSolution).

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/gomlx/compute"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/search"
)

// SolutionFile is the JSON file that describes a saved solution. The learner's variables are beside it
// in GoMLX checkpoint files.
const SolutionFile = "solution.json"

// savedFormat is the version of SolutionFile's layout.
const savedFormat = 1

// savedSolution is the content of SolutionFile: what prediction needs besides the learner's variables,
// and what the search found, which LoadSolution checks.
type savedSolution struct {
	Format       int
	Architecture string // Architecture.Name
	// Settings are the solver's hyperparameters (New's settings) in the --set syntax
	// (hparams.Settings.String, read back by the architecture's table).
	Settings   string
	SearchOnly bool
	// Rows x Cols is the canvas of the training examples and of the test examples to predict.
	Rows, Cols int
	// Train are the training examples. The lattice search runs on them again when the solution is loaded.
	Train []savedExample
	// Network says whether a network was fitted; its variables are in the checkpoint.
	Network bool
	// Fit is the network's fit, which the fallback's rule reads.
	Fit latformer.FitResult
	// SoftGates says whether the network predicts with soft gates.
	SoftGates bool
	// CondDim is the length of the conditioning vectors.
	CondDim int
	// What the search found, checked on load: the lattice, the number of proposals, and the top one's
	// element, color table and frame rule.
	Lattice   string
	Proposals int
	TopAction string
	TopTable  []int8
	TopAnchor string
	// Frames name the candidate frame rules the network acts on (fitFrames), checked on load.
	Frames []string `json:",omitempty"`
	// Shifts says whether the network is the shift-softmax learner (fitShifts).
	Shifts bool `json:",omitempty"`
	// Source and Action of the predictions of the test examples the task was solved with (for a reader).
	Source, Action string
}

// savedExample is a training example of SolutionFile.
type savedExample struct {
	Input, Output datasets.Canvas
	Cond          []float32 `json:",omitempty"`
}

// Save saves the task the last Solve solved in dir, for LoadSolution. It writes the fitted learner's
// store (variables, optimizer state and hyperparameters) with GoMLX's checkpoint package. SolutionFile
// holds the settings, the canvas, the training examples, the FitResult and what the search found; the
// search runs again on the examples when loaded.
//
// Save creates dir. It replaces a directory holding an earlier saved solution and refuses any other
// non-empty one. It writes beside dir and renames into place, so an interrupted Save leaves nothing
// half-written. Call Save before the next Solve and before Close.
func (s *Solver) Save(dir string) error {
	if s.last == nil {
		return errors.New("Solver.Save: no task solved " +
			"(Save saves the last Solve's, before the next Solve or Close)")
	}
	last := s.last
	meta := savedSolution{Format: savedFormat, Architecture: s.opts.Architecture.Name, Settings: s.settings.String(),
		SearchOnly: s.opts.SearchOnly, Rows: last.rows, Cols: last.cols, Network: last.learner != nil, Fit: last.fit,
		Source: last.sol.Source, Action: last.sol.ActionName()}
	meta.Lattice, meta.Proposals, meta.TopAction, meta.TopTable, meta.TopAnchor =
		searchFound(last.sol.Search, last.sol.Lattice)
	for _, ex := range last.train {
		meta.Train = append(meta.Train, savedExample{Input: ex.Input, Output: ex.Output, Cond: ex.Cond})
	}
	if l := last.learner; l != nil {
		meta.SoftGates, meta.CondDim = l.SoftGates(), l.CondDim()
	}
	meta.Frames, meta.Shifts = ruleNames(last.frames), last.shifts
	if err := replaceDir(dir, func(tmp string) error {
		if last.learner != nil {
			if err := last.learner.SaveCheckpoint(tmp); err != nil {
				return err
			}
		}
		data, err := json.MarshalIndent(meta, "", " ")
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, SolutionFile), data, 0o644)
	}); err != nil {
		return fmt.Errorf("Solver.Save %s: %w", dir, err)
	}
	return nil
}

// replaceDir fills a new directory beside dir and renames it to dir. It replaces an empty directory or
// a saved solution, and refuses any other.
func replaceDir(dir string, fill func(tmp string) error) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	old := ""
	if entries, err := os.ReadDir(dir); err == nil {
		if _, err := os.Stat(filepath.Join(dir, SolutionFile)); err != nil && len(entries) > 0 {
			return fmt.Errorf("%s exists and holds no saved solution (%s): not replaced", dir, SolutionFile)
		}
		old = dir
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".saving-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp's is 0700
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	if old != "" { // moved aside first: a rename over a non-empty directory is not allowed
		aside, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".old-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(aside)
		if err := os.Rename(dir, filepath.Join(aside, "solution")); err != nil {
			return err
		}
	}
	return os.Rename(tmp, dir)
}

// SavedSolution is a task's solution loaded by LoadSolution. It predicts test examples as the Solver
// that saved it did, without training.
type SavedSolution struct {
	dir     string
	meta    savedSolution
	solver  *Solver
	learner *latformer.Learner // loaded on first use
}

// ReadSavedArchitecture returns the architecture name of the solution saved in dir, and whether it is
// the search's alone (Options.SearchOnly). LoadSolution's caller needs them to choose the architecture.
func ReadSavedArchitecture(dir string) (name string, searchOnly bool, err error) {
	meta, err := readSaved(dir)
	return meta.Architecture, meta.SearchOnly, err
}

// readSaved reads and checks SolutionFile of dir.
func readSaved(dir string) (savedSolution, error) {
	var meta savedSolution
	data, err := os.ReadFile(filepath.Join(dir, SolutionFile))
	if err != nil {
		return meta, fmt.Errorf("saved solution: %w", err)
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return meta, fmt.Errorf("saved solution %s: %w", filepath.Join(dir, SolutionFile), err)
	}
	switch {
	case meta.Format != savedFormat:
		return meta, fmt.Errorf("saved solution %s: format %d, this version reads %d", dir, meta.Format, savedFormat)
	case meta.Rows < 1 || meta.Cols < 1 || meta.Rows > datasets.MaxGridSide || meta.Cols > datasets.MaxGridSide:
		return meta, fmt.Errorf("saved solution %s: canvas %dx%d", dir, meta.Rows, meta.Cols)
	case len(meta.Train) == 0:
		return meta, fmt.Errorf("saved solution %s: no training examples", dir)
	}
	return meta, nil
}

// LoadSolution loads the solution Solver.Save wrote in dir, on backend. arch must be the saved
// architecture (ReadSavedArchitecture). Nothing is trained.
func LoadSolution(backend compute.Backend, dir string, arch latformer.Architecture) (*SavedSolution, error) {
	meta, err := readSaved(dir)
	if err != nil {
		return nil, err
	}
	if arch.Name != meta.Architecture {
		return nil, fmt.Errorf("saved solution %s is of architecture %q, not %q", dir, meta.Architecture, arch.Name)
	}
	t, err := ParamsFor(arch)
	if err != nil {
		return nil, err
	}
	settings, err := t.Parse(meta.Settings)
	if err != nil {
		return nil, fmt.Errorf("saved solution %s: settings: %w", dir, err)
	}
	solver, err := New(backend, settings, Options{Architecture: arch, SearchOnly: meta.SearchOnly,
		Reuse: true})
	if err != nil {
		return nil, fmt.Errorf("saved solution %s: %w", dir, err)
	}
	return &SavedSolution{dir: dir, meta: meta, solver: solver}, nil
}

// Canvas returns the canvas the solution's examples are on: test examples must be on it too.
func (s *SavedSolution) Canvas() (rows, cols int) { return s.meta.Rows, s.meta.Cols }

// Close releases the loaded learner's compiled graphs and variables.
func (s *SavedSolution) Close() {
	if s.learner != nil {
		s.learner.Close()
		s.learner = nil
	}
	s.solver.Close()
}

// Predict predicts the outputs of the test examples as Solver.Solve did after fitting. The lattice
// search runs again on the saved training examples, and its result is checked against what was saved.
// The network's variables come from the checkpoint, and the fallback (ParamSearchFallback) reads the
// saved FitResult. On the test examples of the original Solve, the predictions, sources and actions
// are those Solve returned, to the bit (TestSaveLoadPredictsTheSame).
func (s *SavedSolution) Predict(test []latformer.Example) (Solution, error) {
	var sol Solution
	rows, cols := s.meta.Rows, s.meta.Cols
	for i, ex := range test {
		if ex.Input.Rows != rows || ex.Input.Cols != cols {
			return sol, fmt.Errorf("saved solution %s: test example %d is on a %dx%d canvas, the solution's is %dx%d",
				s.dir, i, ex.Input.Rows, ex.Input.Cols, rows, cols)
		}
	}
	train := make([]latformer.Example, len(s.meta.Train))
	for i, ex := range s.meta.Train {
		train[i] = latformer.Example{Input: ex.Input, Output: ex.Output, Cond: ex.Cond}
	}
	if err := s.solver.runSearch(&sol, train, rows, cols); err != nil {
		return sol, err
	}
	if err := s.checkSearch(sol); err != nil {
		return sol, err
	}
	if done, err := s.solver.predictUntrained(&sol, test, rows*cols); done || err != nil {
		return sol, err
	}
	if !s.meta.Network {
		return sol, fmt.Errorf("saved solution %s: the solver trains a network for this task, and none was saved",
			s.dir)
	}
	start, cache, err := s.solver.startAt(&sol)
	if err != nil {
		return sol, err
	}
	var rules []search.FrameRule
	if len(s.meta.Frames) > 0 {
		rules = FrameCandidates(train, s.solver.frames)
		if names := ruleNames(rules); !slices.Equal(names, s.meta.Frames) {
			return sol, fmt.Errorf("saved solution %s: the candidate frames of its training examples are %q, the "+
				"saved solution's %q: saved by another version?", s.dir, names, s.meta.Frames)
		}
		if cache, err = s.solver.framesVariant(len(rules)); err != nil {
			return sol, err
		}
		test = WithFrameCandidates(rules, test)
	}
	if s.meta.Shifts {
		if cache, err = s.solver.shiftsVariant(); err != nil {
			return sol, err
		}
	}
	if s.learner == nil {
		if s.learner, err = s.loadLearner(cache); err != nil {
			return sol, fmt.Errorf("saved solution %s: %w", s.dir, err)
		}
	}
	sol.Fit = s.meta.Fit
	if err = s.solver.predict(&sol, s.learner, withFramesOf(start, test), start); err != nil {
		return sol, err
	}
	nameFrame(&sol, s.learner, rules)
	return sol, nil
}

// ruleNames are the names of frame rules (FrameRule.String), nil for none.
func ruleNames(rules []search.FrameRule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.String())
	}
	return out
}

// checkSearch checks that the search run again found what the saved solution's did.
func (s *SavedSolution) checkSearch(sol Solution) error {
	m := s.meta
	lattice, proposals, top, table, anchor := searchFound(sol.Search, sol.Lattice)
	if lattice != m.Lattice || proposals != m.Proposals || top != m.TopAction ||
		!slices.Equal(table, m.TopTable) || anchor != m.TopAnchor {
		return fmt.Errorf("saved solution %s: the lattice search on its training examples finds %d proposals "+
			"(top %q %q, lattice %q), the saved solution %d (top %q %q, lattice %q): "+
			"saved by another version of the search?",
			s.dir, proposals, anchor, top, lattice, m.Proposals, m.TopAnchor, m.TopAction, m.Lattice)
	}
	return nil
}

// searchFound is what SolutionFile records of a search, nil when none ran.
func searchFound(search *Search, lattice string) (string, int, string, []int8, string) {
	if search == nil || len(search.Proposals) == 0 {
		n := 0
		if search != nil {
			n = len(search.Proposals)
		}
		return lattice, n, "", nil, ""
	}
	top := search.Proposals[0]
	anchor := ""
	if rule, ok := top.Anchored(); ok {
		anchor = rule.String()
	}
	return lattice, len(search.Proposals), top.Action.String(), top.Table, anchor
}

// loadLearner loads the saved learner on the saved canvas, with the cache's architecture and
// hyperparameters (latformer.LearnerCache.LoadCheckpoint).
func (s *SavedSolution) loadLearner(cache *latformer.LearnerCache) (*latformer.Learner, error) {
	return cache.LoadCheckpoint(s.dir, s.meta.Rows, s.meta.Cols, s.meta.SoftGates, s.meta.CondDim)
}
