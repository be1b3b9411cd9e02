// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package synthetic

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/internal/resultsfile"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
)

// TestOptionsErrors checks that bad options are reported before any work, naming what is wrong.
func TestOptionsErrors(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Experiment: "bogus"}, "experiment"},
		{Options{Families: []datasets.SyntheticFamily{"spin"}}, "unknown family"},
		{Options{Models: []string{"gpt"}}, "unknown model"},
		{Options{Sizes: []int{4, 0}}, "sizes"},
		{Options{Noise: []float64{1.5}}, "noise"},
		{Options{Canvas: 4}, "canvas"},
		{Options{Workers: -1}, "workers"},
		{Options{Resume: true}, "resume needs"},
		{Options{Resume: true, Force: true, Out: "x.csv"}, "contradict"},
		{Options{Settings: hparams.Settings{{Key: "no_such_key", Value: 1}}}, "no_such_key"},
		{Options{Experiment: Noise, Models: []string{"transformer"}}, "input_noise"},
	} {
		_, err := c.o.withDefaults(time.Now())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got error %v, want one containing %q", c.o, err, c.want)
		}
	}
}

// TestModelSettings checks the gate initialization and smoothing each LatFormer model trains with, read
// from a store whose library defaults are flipped (gate_init=search, smoothing off, then gate_init=paper,
// smoothing on), so that a model relying on a library default instead of its own setting fails; and that
// every model, latformer_search included, is accepted and trains LatFormer's architecture or a baseline.
func TestModelSettings(t *testing.T) {
	want := map[string]struct {
		gateInit  string
		smoothing bool
	}{
		ModelLatFormer:         {arcsolver.GateInitPaper, true},
		ModelLatFormerNoSmooth: {arcsolver.GateInitPaper, false},
		ModelLatFormerSearch:   {arcsolver.GateInitSearch, true},
	}
	o, err := Options{Models: append(slices.Clone(FigureModels), ModelLatFormerSearch), RandomGrids: true}.withDefaults(time.Now())
	if err != nil {
		t.Fatalf("the figure's models and %s: %v", ModelLatFormerSearch, err)
	}
	for m, w := range want {
		if !slices.Contains(o.Models, m) {
			t.Errorf("%s is not among the run's models %v", m, o.Models)
		}
		if arch, err := architecture(m); err != nil || arch.Name != "latformer" {
			t.Errorf("%s trains %q (%v), want LatFormer's architecture", m, arch.Name, err)
		}
		for _, flip := range []string{arcsolver.GateInitSearch, arcsolver.GateInitPaper} {
			params := latformer.DefaultParams()
			params[arcsolver.ParamGateInit], params[latformer.ParamSmoothing] = flip, flip == arcsolver.GateInitPaper
			store := model.NewStore()
			store.SetParams(params)
			o.settings(m, 0).Apply(store)
			gateInit := model.GetParamOr(store.RootScope(), arcsolver.ParamGateInit, "")
			smoothing := model.GetParamOr(store.RootScope(), latformer.ParamSmoothing, !w.smoothing)
			if gateInit != w.gateInit || smoothing != w.smoothing {
				t.Errorf("%s with the library default gate_init=%s: gate_init=%s, smoothing=%v; want %s, %v", m, flip, gateInit, smoothing, w.gateInit, w.smoothing)
			}
		}
	}
	// latformer_search is latformer but for the gate initialization.
	if a, b := ModelSettings(ModelLatFormer).String(), ModelSettings(ModelLatFormerSearch).String(); strings.Replace(a, "gate_init=paper", "gate_init=search", 1) != b {
		t.Errorf("settings of %s %q and %s %q differ in more than gate_init", ModelLatFormer, a, ModelLatFormerSearch, b)
	}
	if s := ModelSettings("transformer"); len(s) != 0 {
		t.Errorf("a baseline's model settings: %q, want none", s)
	}
}

// TestSeries checks the order of the models and families the tables and the figure show: the figure's
// legend, then latformer_search, then others sorted, whatever the order of the rows; and that the
// figure draws latformer_search in its own colour on the panels it has points in only.
func TestSeries(t *testing.T) {
	row := func(m string, f datasets.SyntheticFamily, acc float64) Result {
		return Result{Unit: Unit{Model: m, Family: f, NumTrain: 4}, Accuracy: acc}
	}
	results := []Result{row(ModelLatFormerSearch, datasets.FamilyTranslation, 1), row("cnn", datasets.FamilyRotation, 0),
		row("transformer", datasets.FamilyRotation, 0), row(ModelLatFormer, datasets.FamilyTranslation, 0.6),
		row(ModelLatFormer, datasets.FamilyRotation, 1)}
	models, families := Series(results)
	if want := []string{ModelLatFormer, "transformer", ModelLatFormerSearch, "cnn"}; !slices.Equal(models, want) {
		t.Errorf("models %v, want %v", models, want)
	}
	if want := []datasets.SyntheticFamily{datasets.FamilyTranslation, datasets.FamilyRotation}; !slices.Equal(families, want) {
		t.Errorf("families %v, want %v", families, want)
	}
	points := Summarize(results, models, families)
	svg := FigureSVG(points, models[:3], families)
	panels := strings.Split(svg, `<g transform=`)[1:]
	if len(panels) != 2 {
		t.Fatalf("%d panels, want 2", len(panels))
	}
	if !strings.Contains(panels[0], ">"+ModelLatFormerSearch+"<") || strings.Contains(panels[1], ">"+ModelLatFormerSearch+"<") {
		t.Errorf("the legend entry of %s must be on the translation panel only", ModelLatFormerSearch)
	}
	colours := map[string]bool{}
	for _, line := range strings.Split(panels[0], "<polyline")[1:] {
		colours[strings.Split(strings.Split(line, `stroke="`)[1], `"`)[0]] = true
	}
	if len(colours) != 3 {
		t.Errorf("translation panel: %d line colours for its 3 models, want 3", len(colours))
	}
	var sb strings.Builder
	WriteReach(&sb, points, models, families, 0.9)
	if !strings.Contains(sb.String(), "| translation | > 4 | — | 4 | — |") {
		t.Errorf("reach table:\n%s", sb.String())
	}
}

// TestUnits checks the units of the full modes: every model, family task, size and noise level once, the
// sizes outermost, and the tasks per family as documented.
func TestUnits(t *testing.T) {
	units, err := Units(Full(SampleEfficiency))
	if err != nil {
		t.Fatal(err)
	}
	tasks := 5 + 3 + 4 + 5
	if want := len(FigureModels) * tasks * 5; len(units) != want {
		t.Errorf("sample-efficiency: %d units, want %d (5 models x %d tasks x 5 sizes)", len(units), want, tasks)
	}
	seen := map[string]bool{}
	for i, u := range units {
		if seen[u.key()] {
			t.Fatalf("unit %+v twice", u)
		}
		seen[u.key()] = true
		if i > 0 && u.NumTrain < units[i-1].NumTrain {
			t.Fatalf("unit %d: size %d after %d: sizes must be outermost", i, u.NumTrain, units[i-1].NumTrain)
		}
	}
	noise, err := Units(Full(Noise))
	if err != nil {
		t.Fatal(err)
	}
	if want := tasks * 5; len(noise) != want {
		t.Errorf("noise: %d units, want %d", len(noise), want)
	}
}

// TestResultsRoundTrip checks that a row reads back as written, and that a file cut in its last line or
// with a bad value in another gives the rows of the other lines and an error naming the bad one.
func TestResultsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rows := []Result{
		{Experiment: Noise, Unit: Unit{Model: "latformer", Family: datasets.FamilyScaling, Task: 3, NumTrain: 32, Noise: 0.2},
			TaskName: "up(2,5)", Canvas: 10, TestExact: 97, TestTotal: 100, Accuracy: 0.97, Fitted: true, Steps: 140, TrainExact: 1, Seconds: 4.5, Action: "upscale(2,5)"},
		{Experiment: Noise, Unit: Unit{Model: "latformer", Family: datasets.FamilyRotation, NumTrain: 32, Noise: 0.6},
			TaskName: "rot90", Canvas: 10, TestTotal: 100, Steps: 300, Seconds: 9},
	}
	path := filepath.Join(dir, "r.csv")
	if err := resultsfile.WriteAtomic(path, Header, [][]string{rows[0].Record(), rows[1].Record()}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadResults(path)
	if err != nil || len(got) != 2 || got[0] != rows[0] || got[1] != rows[1] {
		t.Fatalf("read back %+v, %v; want %+v", got, err, rows)
	}
	data, _ := os.ReadFile(path)
	cut := data[:len(data)-20]
	os.WriteFile(path, cut, 0o644)
	got, err = ReadResults(path)
	if err == nil || !strings.Contains(err.Error(), "line 3") || len(got) != 1 || got[0] != rows[0] {
		t.Errorf("cut file: got %d rows, %v; want the first row and an error naming line 3", len(got), err)
	}
	lines := strings.Split(string(data), "\n")
	lines[1] = strings.Replace(lines[1], ",97,", ",x,", 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	if got, err = ReadResults(path); err == nil || !strings.Contains(err.Error(), "line 2") || len(got) != 1 || got[0] != rows[1] {
		t.Errorf("bad line 2: got %d rows, %v; want the second row and an error naming line 2", len(got), err)
	}
}

// TestSummarizeAndReach checks the mean and (population) standard deviation over tasks, and the number
// of examples to reach a target, interpolated in log2 of the size.
func TestSummarizeAndReach(t *testing.T) {
	r := func(model string, task, n int, acc float64) Result {
		return Result{Unit: Unit{Model: model, Family: datasets.FamilyRotation, Task: task, NumTrain: n}, Accuracy: acc}
	}
	results := []Result{
		r("transformer", 0, 1, 0), r("transformer", 1, 1, 0),
		r(ModelLatFormer, 0, 4, 1), r(ModelLatFormer, 1, 4, 1),
		r(ModelLatFormer, 0, 1, 0.2), r(ModelLatFormer, 1, 1, 0.8),
	}
	points := Summarize(results, []string{ModelLatFormer, "transformer"}, datasets.SyntheticFamilies)
	if len(points) != 3 || points[0].Model != ModelLatFormer || points[0].NumTrain != 1 || points[2].Model != "transformer" {
		t.Fatalf("points %+v: want latformer n=1, n=4, then transformer", points)
	}
	if p := points[0]; math.Abs(p.Mean-0.5) > 1e-12 || math.Abs(p.Std-0.3) > 1e-12 || p.Tasks != 2 {
		t.Errorf("latformer n=1: mean %g std %g over %d tasks, want 0.5, 0.3, 2", p.Mean, p.Std, p.Tasks)
	}
	// 0.5 at 1 pair, 1.0 at 4: 0.9 is 80% of the way, 2^(0.8*2) pairs.
	n, ok := ExamplesToReach(points, ModelLatFormer, datasets.FamilyRotation, 0.9)
	if !ok || math.Abs(n-math.Exp2(1.6)) > 1e-9 {
		t.Errorf("examples to reach 0.9: %g, %v; want %g", n, ok, math.Exp2(1.6))
	}
	if _, ok := ExamplesToReach(points, "transformer", datasets.FamilyRotation, 0.9); ok {
		t.Errorf("the transformer never reaches 0.9: want ok = false")
	}
	var sb strings.Builder
	WriteReach(&sb, points, []string{ModelLatFormer, "transformer"}, []datasets.SyntheticFamily{datasets.FamilyRotation}, 0.9)
	if !strings.Contains(sb.String(), "| rotation | 3.03 | > 1 (> 0.33x) |") {
		t.Errorf("reach table:\n%s", sb.String())
	}
}

// TestRunAndResume trains LatFormer on a small rotation and a small reflection task from 4 pairs each (it
// must learn the group element), then resumes the same run (nothing to train again, the same rows) and a run whose
// file lost half of its last line (the complete rows kept, the cut one trained again).
func TestRunAndResume(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "go")
	out := filepath.Join(t.TempDir(), "se.csv")
	o := Options{NewBackend: backend.New, RandomGrids: true, Families: []datasets.SyntheticFamily{datasets.FamilyRotation, datasets.FamilyReflection}, Tasks: 1,
		Models: []string{ModelLatFormer}, Sizes: []int{4}, Canvas: 5, NumTest: 10, Steps: 250, Out: out}
	first, err := Run(o, Report{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Results) != 2 {
		t.Fatalf("%d results, want 2", len(first.Results))
	}
	// The group element is learned exactly; a test pair may still hold a color that no training pair (nor
	// its color-permuted copies) showed, whose embedding stayed untrained.
	wantAction := map[string]string{"rot90": "rot90(0,1)x1", "flip-rows": "reflect(0)"}
	for _, r := range first.Results {
		t.Logf("%s %s: test %d/%d in %d steps, learned %s", r.Family, r.TaskName, r.TestExact, r.TestTotal, r.Steps, r.Action)
		if r.Accuracy < 0.8 || r.Action != wantAction[r.TaskName] || !r.Fitted {
			t.Errorf("%s: accuracy %g, learned %s, fitted %v from 4 pairs; want >= 0.8, %s and a fit", r.TaskName, r.Accuracy, r.Action, r.Fitted, wantAction[r.TaskName])
		}
	}
	o.Resume = true
	trained := 0
	again, err := Run(o, Report{Done: func(Result, int, int) { trained++ }})
	if err != nil || trained != 0 || len(again.Results) != 2 {
		t.Errorf("resume of a finished run: %d trained, %d results, %v; want 0 and 2", trained, len(again.Results), err)
	}
	data, _ := os.ReadFile(out)
	os.WriteFile(out, data[:len(data)-15], 0o644)
	var warned error
	cut, err := Run(o, Report{Done: func(Result, int, int) { trained++ }, Error: func(err error) { warned = err }})
	if err != nil || trained != 1 || len(cut.Results) != 2 || warned == nil || !strings.Contains(warned.Error(), "line 3") {
		t.Errorf("resume of a cut file: %d trained, %d results, warning %v, %v; want 1, 2 and a warning naming line 3", trained, len(cut.Results), warned, err)
	}
	rows, err := ReadResults(out)
	if err != nil || len(rows) != 2 {
		t.Errorf("file after the repair: %d rows, %v; want 2", len(rows), err)
	}
}

// TestSolverSettingsApply checks that the settings of how a task is solved (arcsolver.Solver) apply in
// these experiments: with gate_init=search and no training step, the untrained network does not fit a
// rotation and search_fallback=true lets the search's top proposal predict every test pair, where the
// experiment's own search_fallback=false keeps the network's wrong predictions; and with search_screen
// a scaling that no element of a group without scalings maps goes untrained (no step, no action).
func TestSolverSettingsApply(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "go")
	run := func(family datasets.SyntheticFamily, text string) Result {
		settings, err := arcsolver.ParseSettings(text)
		if err != nil {
			t.Fatal(err)
		}
		t.Helper()
		o := Options{NewBackend: backend.New, RandomGrids: true, Families: []datasets.SyntheticFamily{family}, Tasks: 1, Models: []string{ModelLatFormerSearch},
			Sizes: []int{4}, Canvas: 5, NumTest: 10, Steps: 5, Settings: settings, Out: filepath.Join(t.TempDir(), "se.csv")}
		out, err := Run(o, Report{})
		if err != nil || len(out.Results) != 1 {
			t.Fatalf("%s, %q: %d results, %v", family, text, len(out.Results), err)
		}
		return out.Results[0]
	}
	const untrained = "train_steps=0;train_held_steps=0;augment_copies=1"
	network, search := run(datasets.FamilyRotation, untrained), run(datasets.FamilyRotation, untrained+";search_fallback=true")
	if network.Accuracy > 0.5 || network.Fitted || search.Accuracy != 1 || search.Action != "rot90(0,1)x1" {
		t.Errorf("untrained network: accuracy %g (fitted %v); with the fallback: accuracy %g by %q; want < 0.5 unfitted, then 1 by rot90(0,1)x1",
			network.Accuracy, network.Fitted, search.Accuracy, search.Action)
	}
	const noScaling = "experts=translation,rotation,reflection;train_steps=3"
	trained, screened := run(datasets.FamilyScaling, noScaling), run(datasets.FamilyScaling, noScaling+";search_screen=true")
	if trained.Steps == 0 || screened.Steps != 0 || screened.Action != "" || screened.TestExact != 0 {
		t.Errorf("scaling without the scaling expert: %d steps; screened: %d steps, action %q, %d exact; want > 0, then 0, none, 0",
			trained.Steps, screened.Steps, screened.Action, screened.TestExact)
	}
}

// TestWorkerSolverPerModel checks that a worker trains each model with its own solver: the baselines have
// the same settings, and a solver looked up by the settings alone trained every baseline with the
// architecture of the first one the worker met.
func TestWorkerSolverPerModel(t *testing.T) {
	wk := &worker{backend: testutil.Backend(t), solvers: map[[2]string]*arcsolver.Solver{}}
	defer wk.Close()
	o := Options{Steps: 5}
	if o.settings("transformer", 0).String() != o.settings("attention_abs", 0).String() {
		t.Fatalf("the baselines' settings differ: %q, %q", o.settings("transformer", 0), o.settings("attention_abs", 0))
	}
	a, errA := wk.solver("transformer", o.settings("transformer", 0))
	b, errB := wk.solver("attention_abs", o.settings("attention_abs", 0))
	again, errC := wk.solver("transformer", o.settings("transformer", 0))
	if errA != nil || errB != nil || errC != nil || a == b || a != again {
		t.Errorf("solvers: transformer %p, attention_abs %p, transformer again %p (%v, %v, %v); want two, the first reused", a, b, again, errA, errB, errC)
	}
}

// TestAnchoredFamiliesLearned trains LatFormer with g = g(x) (ModelLatFormerAnchored) on three per-pair
// families from 4 pairs each, within the held restart's budget of 200 steps: the search names the rule, the
// network fits the pairs with its gates held at the proposal and predicts new inputs whose element differs
// from every training pair's. The one-element model (ModelLatFormerSearch) gets no proposal there: its
// search has only the canvas' elements, none of which fits (the curves of `make sample-efficiency` show it
// learning none of these families).
func TestAnchoredFamiliesLearned(t *testing.T) {
	t.Setenv(compute.ConfigEnvVar, "go")
	families := []datasets.SyntheticFamily{datasets.FamilyAnchorTouch, datasets.FamilyAnchorFlip, datasets.FamilyAnchorCrop}
	o := Options{NewBackend: backend.New, RandomGrids: true, Families: families, Tasks: 1, Models: []string{ModelLatFormerAnchored, ModelLatFormerSearch},
		Sizes: []int{4}, Canvas: 10, NumTest: 10, Steps: 300, Out: filepath.Join(t.TempDir(), "se.csv")}
	out, err := Run(o, Report{})
	if err != nil {
		t.Fatal(err)
	}
	wantRule := map[datasets.SyntheticFamily]string{
		datasets.FamilyAnchorTouch: "crop(color2)@touch(color5)∘identity",
		datasets.FamilyAnchorFlip:  "crop(fg)@same[min>min,min>min]∘reflect(1)",
		datasets.FamilyAnchorCrop:  "crop(fg)∘identity",
	}
	for _, r := range out.Results {
		t.Logf("%s %s: test %d/%d in %d steps, fitted %v, learned %s", r.Model, r.Family, r.TestExact, r.TestTotal, r.Steps, r.Fitted, r.Action)
		switch r.Model {
		case ModelLatFormerAnchored:
			if !r.Fitted || r.Steps > 200 || r.Accuracy < 0.9 || r.Action != wantRule[r.Family] {
				t.Errorf("%s: fitted %v in %d steps, accuracy %g, learned %q; want a fit within 200 steps, >= 0.9, %q", r.Family, r.Fitted, r.Steps, r.Accuracy, r.Action, wantRule[r.Family])
			}
		case ModelLatFormerSearch:
			if r.Accuracy >= 0.9 {
				t.Errorf("%s: the one-element LatFormer reaches %g", r.Family, r.Accuracy)
			}
		}
	}
	// More pairs fit too: with the smoothed-mask prediction on, anchor-touch fitted 4 pairs in 25 steps and
	// none of 8 in 200 (docs/sample-efficiency.md).
	o.Families, o.Models, o.Sizes, o.Out = families[:1], []string{ModelLatFormerAnchored}, []int{8}, filepath.Join(t.TempDir(), "se8.csv")
	if out, err = Run(o, Report{}); err != nil {
		t.Fatal(err)
	}
	if r := out.Results[0]; !r.Fitted || r.Steps > 100 || r.Accuracy < 0.9 {
		t.Errorf("%s, 8 pairs: fitted %v in %d steps, accuracy %g; want a fit within 100 steps, >= 0.9", r.Family, r.Fitted, r.Steps, r.Accuracy)
	}
}

// TestPoolReadsARCGrids checks that the inputs are drawn from the ARC training tasks' grids when the data is
// there (the paper's Appendix B.1): every grid of the 400 tasks, none empty. The pool once read no task at
// all (LoadTasks with no ids), so every run drew random grids. Skipped without $LATFORMER_DATA.
func TestPoolReadsARCGrids(t *testing.T) {
	dataDir, _ := testutil.ARCData(t, "training")
	pool, err := Options{DataDir: dataDir}.pool()
	if err != nil {
		t.Fatal(err)
	}
	if len(pool) < 400 {
		t.Fatalf("pool of %d grids; want every grid of the 400 ARC training tasks", len(pool))
	}
	if random, err := (Options{DataDir: dataDir, RandomGrids: true}).pool(); err != nil || random != nil {
		t.Errorf("RandomGrids: pool of %d grids, %v; want none (random grids)", len(random), err)
	}
}
