// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latformer/latformer/internal/testutil"

	"github.com/latformer/latformer/lattice"
)

// fitPredict fits the learner on train from the paper's initialization and returns the fit and the
// predictions for test.
func fitPredict(t *testing.T, l *Learner, train, test []Example) (FitResult, []Prediction) {
	t.Helper()
	fit, err := l.Fit(train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := l.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	return fit, preds
}

// fitAndPredict fits the learner on train and returns the fit and the predicted cells of test.
func fitAndPredict(t *testing.T, l *Learner, train, test []Example) (FitResult, [][]int32) {
	t.Helper()
	fit, preds := fitPredict(t, l, train, test)
	cells := make([][]int32, len(preds))
	for i, p := range preds {
		cells[i] = p.Canvas.Cells
	}
	return fit, cells
}

// TestLearnerResetMatchesNew checks compile-once reuse (LearnerCache): a learner that trained on one task
// and was reset gives, on the next task, the loss, gates choice and predictions of a new learner, with
// another batch shape (a new graph) and again with the same shape (no compiling at all).
func TestLearnerResetMatchesNew(t *testing.T) {
	backend := testutil.Backend(t)
	const settings = "train_steps=30;augment_copies=3;fit_patience=0"
	rng := rand.New(rand.NewPCG(7, 8))
	trainA, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 4)
	trainB, _ := examples(t, rng, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, 6, 5, 3)
	testB, _ := examples(t, rng, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, 6, 5, 5)

	fresh := newTestLearner(t, backend, settings, 6)
	wantFit, wantCells := fitAndPredict(t, fresh, trainB, testB)

	cache, err := NewLearnerCache(backend, parse(t, settings))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	first, reused, err := cache.Learner(6, 6)
	if err != nil || reused {
		t.Fatalf("first learner: reused=%v, err=%v", reused, err)
	}
	fitA, _ := fitAndPredict(t, first, trainA, testB)
	if fitA.Compile <= 0 {
		t.Errorf("the first fit reports no compile time")
	}
	for round, wantCompile := range []bool{true, false} { // batch 9 is new after batch 12; then known
		l, reused, err := cache.Learner(6, 6)
		if err != nil || !reused || l != first {
			t.Fatalf("round %d: reused=%v (same learner %v), err=%v", round, reused, l == first, err)
		}
		fit, cells := fitAndPredict(t, l, trainB, testB)
		t.Logf("round %d: loss %.6f (new learner %.6f), compile %s, hard gates %v", round, fit.Loss, wantFit.Loss, fit.Compile, fit.HardGates)
		if math.Abs(fit.Loss-wantFit.Loss) > 1e-6 || fit.Steps != wantFit.Steps || fit.HardGates != wantFit.HardGates || fit.Exact != wantFit.Exact {
			t.Errorf("round %d: reset learner fit %+v, new learner %+v", round, fit, wantFit)
		}
		for i := range cells {
			if !slices.Equal(cells[i], wantCells[i]) {
				t.Errorf("round %d: prediction %d differs from the new learner's", round, i)
			}
		}
		if (fit.Compile > 0) != wantCompile {
			t.Errorf("round %d: compile time %s, want compiling %v", round, fit.Compile, wantCompile)
		}
	}
	if cache.Len() != 1 {
		t.Errorf("cache holds %d canvases, want 1", cache.Len())
	}
}

// TestPadPairsMatchesUnpadded checks ParamPadPairs: padding 3 training pairs to 4 with masked-out rows
// gives the same losses (within float rounding) and the same predictions as no padding.
func TestPadPairsMatchesUnpadded(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(9, 10))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{2, 1}}, 6, 4, 3)
	test, _ := examples(t, rng, lattice.Translation{Deltas: []int{2, 1}}, 6, 4, 5)
	var fits []FitResult
	var cells [][][]int32
	for _, pad := range []string{"", ";train_pad_pairs=4"} {
		l := newTestLearner(t, backend, "train_steps=30;augment_copies=3;fit_patience=0"+pad, 6)
		fit, c := fitAndPredict(t, l, train, test)
		fits, cells = append(fits, fit), append(cells, c)
	}
	t.Logf("loss unpadded %.6f, padded %.6f; exact %.3f / %.3f", fits[0].Loss, fits[1].Loss, fits[0].Exact, fits[1].Exact)
	if math.Abs(fits[0].Loss-fits[1].Loss) > 1e-4 || fits[0].Exact != fits[1].Exact {
		t.Errorf("padded fit %+v differs from unpadded %+v", fits[1], fits[0])
	}
	for i := range cells[0] {
		if !slices.Equal(cells[0][i], cells[1][i]) {
			t.Errorf("prediction %d differs with padding", i)
		}
	}
}

// TestRestarts checks ParamRestarts: restart 0 is the single run, later restarts start from other
// initializations, the kept restart reports its own loss, an earlier restart's variables are brought back
// to predict, and a reset learner repeats every restart exactly.
func TestRestarts(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(11, 12))
	train, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 3)
	test, _ := examples(t, rng, lattice.Translation{Deltas: []int{1, 2}}, 6, 4, 4)
	const base = "train_steps=15;augment_copies=3;fit_patience=0;gate_init_train=soft"
	type run struct {
		fit   FitResult
		cells [][]int32
		last  map[int]float64 // restart -> loss reported at its last step
		score float64         // fraction of training pairs the kept model predicts exactly
	}
	fitRun := func(l *Learner) run {
		r := run{last: map[int]float64{}}
		fit, err := l.Fit(train, nil, func(p Progress) { r.last[p.Restart] = p.Loss })
		if err != nil {
			t.Fatal(err)
		}
		r.fit = fit
		preds, err := l.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range preds {
			r.cells = append(r.cells, p.Canvas.Cells)
		}
		if r.score, err = l.scoreOnTraining(train, !fit.HardGates); err != nil {
			t.Fatal(err)
		}
		return r
	}
	single := fitRun(newTestLearner(t, backend, base+";train_restarts=1", 6))
	cache, err := NewLearnerCache(backend, parse(t, base+";train_restarts=3"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	l, _, err := cache.Learner(6, 6)
	if err != nil {
		t.Fatal(err)
	}
	multi := fitRun(l)
	t.Logf("single: loss %.5f fitted %v; restarts: final losses %v, kept %d (loss %.5f, fitted %d of %d, hard %v), %d steps in all",
		single.fit.Loss, single.fit.Fitted, multi.last, multi.fit.Restart, multi.fit.Loss, multi.fit.RestartsFitted, multi.fit.Restarts, multi.fit.HardGates, multi.fit.TotalSteps)
	if multi.fit.Restarts != 3 || multi.fit.TotalSteps != 45 || single.fit.Restarts != 1 || single.fit.TotalSteps != 15 {
		t.Errorf("restarts %d, total steps %d; single %d, %d", multi.fit.Restarts, multi.fit.TotalSteps, single.fit.Restarts, single.fit.TotalSteps)
	}
	if math.Abs(multi.last[0]-single.fit.Loss) > 1e-6 {
		t.Errorf("restart 0's loss %.6f differs from the single run's %.6f", multi.last[0], single.fit.Loss)
	}
	if multi.last[1] == multi.last[0] || multi.last[2] == multi.last[1] {
		t.Errorf("restarts did not start from different initializations: losses %v", multi.last)
	}
	if got := multi.last[multi.fit.Restart]; got != multi.fit.Loss {
		t.Errorf("kept restart %d reports loss %.6f, its last step %.6f", multi.fit.Restart, multi.fit.Loss, got)
	}
	// The kept restart's variables must predict. A learner with kept+1 restarts keeps the same restart
	// (the order is the same; ties keep the earlier) as its last one, whose variables are live without a
	// restore: the predictions must be its.
	if multi.fit.Restart == 2 {
		t.Fatalf("the last restart was kept: pick another task so that restoring an earlier one is tested")
	}
	ref := fitRun(newTestLearner(t, backend, fmt.Sprintf("%s;train_restarts=%d", base, multi.fit.Restart+1), 6))
	if ref.fit.Restart != multi.fit.Restart || math.Abs(ref.fit.Loss-multi.fit.Loss) > 1e-6 || ref.score != multi.score {
		t.Errorf("%d restarts keep restart %d (loss %.6f, score %.2f); 3 restarts kept %d (%.6f, %.2f)", multi.fit.Restart+1,
			ref.fit.Restart, ref.fit.Loss, ref.score, multi.fit.Restart, multi.fit.Loss, multi.score)
	}
	for i := range multi.cells {
		if !slices.Equal(multi.cells[i], ref.cells[i]) {
			t.Errorf("kept restart %d, but prediction %d differs from the one of the run that ends with it (variables not restored?)", multi.fit.Restart, i)
		}
	}
	if (multi.score == 1) != multi.fit.Fitted {
		t.Errorf("kept model predicts %.2f of the training pairs, but Fitted = %v (the kept variables are not restored?)", multi.score, multi.fit.Fitted)
	}
	// A reset learner repeats all three restarts.
	l, reused, err := cache.Learner(6, 6)
	if err != nil || !reused {
		t.Fatalf("reused %v, err %v", reused, err)
	}
	again := fitRun(l)
	if again.fit.Restart != multi.fit.Restart || math.Abs(again.fit.Loss-multi.fit.Loss) > 1e-6 || again.score != multi.score {
		t.Errorf("after Reset: kept %d loss %.6f score %.2f, first time %d %.6f %.2f", again.fit.Restart, again.fit.Loss, again.score,
			multi.fit.Restart, multi.fit.Loss, multi.score)
	}
	for i := range again.cells {
		if !slices.Equal(again.cells[i], multi.cells[i]) {
			t.Errorf("after Reset: prediction %d differs", i)
		}
	}
}
