// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arcsolver

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/latformer"
	"github.com/latformer/latformer/lattice"
	"github.com/latformer/latformer/search"
)

// proposalTask is a synthetic task on a 6x6 canvas filled by its grid: outputs are recolor(g·input),
// and want is the element the search must rank first.
type proposalTask struct {
	name    string
	action  lattice.Action
	recolor map[int32]int32
	want    experts.Element
}

// one is the scaling of an unscaled element, as Expert.Bases writes it.
var one = [2]int{1, 1}

var proposalTasks = []proposalTask{
	{name: "flip columns", action: lattice.Reflection{Axis: 1}, want: experts.Element{Flip: [2]bool{false, true}, Scale: one}},
	{name: "rot90", action: lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, want: experts.Element{Quarter: 1, Scale: one}},
	{name: "zero-fill shift right", action: lattice.Shift{Deltas: []int{0, 2}}, want: experts.Element{Shift: [2]int{0, 2}, ZeroFill: [2]bool{false, true}, Scale: one}},
	{name: "zero-fill shift up", action: lattice.Shift{Deltas: []int{-3, 0}}, want: experts.Element{Shift: [2]int{-3, 0}, ZeroFill: [2]bool{true, false}, Scale: one}},
	{name: "recolored translation", action: lattice.Translation{Deltas: []int{1, 2}}, recolor: map[int32]int32{1: 5, 5: 1, 2: 7},
		want: experts.Element{Shift: [2]int{1, 2}, Scale: one}},
}

// taskExamples draws num pairs of the task from rng.
func (task proposalTask) examples(t *testing.T, rng *rand.Rand, num int) []latformer.Example {
	t.Helper()
	ex, _ := examples(t, rng, task.action, 6, 6, num)
	for i := range ex {
		for c, v := range ex[i].Output.Cells {
			if to, ok := task.recolor[v]; ok {
				ex[i].Output.Cells[c] = to
			}
		}
	}
	return ex
}

// TestProposals checks that the search on synthetic tasks of each kind ranks the task's element first,
// that every proposal's Element has, on the expert's canvas, the dense mask of its Action (lattice's
// masks), and that the proposal's table predicts the training pairs.
func TestProposals(t *testing.T) {
	e := experts.DefaultExpert(6, 6)
	for i, task := range proposalTasks {
		rng := rand.New(rand.NewPCG(uint64(i), 41))
		train := task.examples(t, rng, 3)
		props, err := Proposals(e, train, 3)
		if err != nil {
			t.Fatalf("%s: %v", task.name, err)
		}
		if len(props) == 0 {
			t.Fatalf("%s: no proposal", task.name)
		}
		if props[0].Element != task.want {
			t.Errorf("%s: first proposal %+v (%v), want %+v", task.name, props[0].Element, props[0].Action, task.want)
		}
		for _, p := range props {
			a, err := e.ActionOf(p.Element).Mask([]int{6, 6})
			if err != nil {
				t.Fatal(err)
			}
			b, err := p.Action.Mask([]int{6, 6})
			if err != nil {
				t.Fatal(err)
			}
			if d := a.MaxAbsDiff(b); d != 0 {
				t.Errorf("%s: %+v's mask differs from %v's by %g", task.name, p.Element, p.Action, d)
			}
		}
		for _, ex := range train {
			got, ok, err := props[0].Predict(ex.Input)
			if err != nil || !ok || !slices.Equal(got.Cells, ex.Output.Cells) {
				t.Errorf("%s: the first proposal predicts a training pair: ok %v, err %v, exact %v", task.name, ok, err, slices.Equal(got.Cells, ex.Output.Cells))
			}
		}
		t.Logf("%s: %d proposals, first %+v (%v, %d table entries)", task.name, len(props), props[0].Element, props[0].Action, props[0].Entries)
	}
}

// TestGateInitSearchStartsAtProposal checks startAtProposal before any training step: with
// gate_init=search and no training steps, the hard gates read the first proposal's element on every
// input (Predict's Action has its mask), where the paper's initialization reads the identity. The
// gating FFN's last weights start at zero, so that a margin as small as 0.05 still selects the element.
func TestGateInitSearchStartsAtProposal(t *testing.T) {
	backend := testutil.Backend(t)
	task := proposalTasks[1] // rot90
	rng := rand.New(rand.NewPCG(5, 41))
	train := task.examples(t, rng, 3)
	props, err := Proposals(experts.DefaultExpert(6, 6), train, 1)
	if err != nil || len(props) == 0 {
		t.Fatalf("proposals: %v, %v", props, err)
	}
	const base = "train_steps=0;augment_copies=2;train_restarts=1"
	for _, init := range []string{GateInitSearch, GateInitSearch + ";gate_init_margin=0.05", GateInitPaper} {
		l := newTestLearner(t, backend, base+";gate_init="+init, 6)
		res, preds := fitPredict(t, l, train, train)
		e := experts.DefaultExpert(6, 6)
		for i, p := range preds {
			want := props[0].Action
			if init == GateInitPaper {
				want = lattice.IdentityAction{}
			}
			if same, err := e.SameMask(p.Action, want); err != nil || !same {
				t.Errorf("gate_init=%s, input %d: hard gates read %v before training, want %v", init, i, p.Action, want)
			}
		}
		if wantAt := map[bool]int{true: -1, false: 0}[init == GateInitPaper]; res.StartedAt != wantAt || res.Steps != 0 {
			t.Errorf("gate_init=%s: StartedAt %d, Steps %d; want %d, 0", init, res.StartedAt, res.Steps, wantAt)
		}
	}
}

// TestGateInitSearch checks gate_init=search against paper on a flip and a rotation: the kept
// restart is restart 0, started at proposal 0, it fits in fewer steps than paper takes in all on the
// same task, and its hard gates predict held-out pairs with the task's element; and on a task with no
// consistent element (outputs unrelated to inputs) it trains exactly as paper (same steps, loss and
// predictions), and with train_unproposed_steps within that budget.
func TestGateInitSearch(t *testing.T) {
	backend := testutil.Backend(t)
	const base = "train_steps=150;augment_copies=4"
	e := experts.DefaultExpert(6, 6)
	for _, task := range []proposalTask{proposalTasks[0], proposalTasks[1]} {
		rng := rand.New(rand.NewPCG(7, 41))
		train, test := task.examples(t, rng, 3), task.examples(t, rng, 4)
		paper, _ := fitPredict(t, newTestLearner(t, backend, base+";gate_init=paper", 6), train, test)
		search, preds := fitPredict(t, newTestLearner(t, backend, base+";gate_init=search", 6), train, test)
		t.Logf("%s: paper %d steps in all (fitted %v, restart %d), search %d (proposals %d)",
			task.name, paper.TotalSteps, paper.Fitted, paper.Restart, search.TotalSteps, search.Starts)
		if search.Restart != 0 || search.StartedAt != 0 || search.Starts == 0 || !search.Fitted {
			t.Errorf("%s: search kept restart %d started at %d of %d proposals, fitted %v; want restart 0 at proposal 0, fitted",
				task.name, search.Restart, search.StartedAt, search.Starts, search.Fitted)
		}
		if search.TotalSteps >= paper.TotalSteps {
			t.Errorf("%s: search took %d steps, paper %d: want fewer", task.name, search.TotalSteps, paper.TotalSteps)
		}
		for i, p := range preds {
			if same, err := e.SameMask(p.Action, e.ActionOf(task.want)); err != nil || !same || !slices.Equal(p.Canvas.Cells, test[i].Output.Cells) {
				t.Errorf("%s: test %d predicted with %v (exact %v), want %v", task.name, i, p.Action, slices.Equal(p.Canvas.Cells, test[i].Output.Cells), e.ActionOf(task.want))
			}
		}
	}

	// No consistent element: the outputs are random grids.
	rng := rand.New(rand.NewPCG(9, 41))
	train, _ := examples(t, rng, lattice.IdentityAction{}, 6, 6, 3)
	for i := range train {
		out, err := datasets.ToCanvas(datasets.RandomGrid(rng, 6, 6), 6, 6)
		if err != nil {
			t.Fatal(err)
		}
		train[i].Output = out
	}
	if props, err := Proposals(e, train, 0); err != nil || len(props) != 0 {
		t.Fatalf("random outputs: %d proposals (%v), want none", len(props), err)
	}
	const short = "train_steps=20;augment_copies=2;train_restarts=2;fit_patience=0"
	paper, paperPreds := fitAndPredict(t, newTestLearner(t, backend, short+";gate_init=paper", 6), train, train)
	search, searchPreds := fitAndPredict(t, newTestLearner(t, backend, short+";gate_init=search", 6), train, train)
	if paper.TotalSteps != search.TotalSteps || paper.Loss != search.Loss || paper.Restart != search.Restart || search.StartedAt != -1 || search.Starts != 0 {
		t.Errorf("no proposal: search %+v, paper %+v; want the same training", search, paper)
	}
	for i := range paperPreds {
		if !slices.Equal(paperPreds[i], searchPreds[i]) {
			t.Errorf("no proposal: prediction %d differs between search and paper", i)
		}
	}
	// train_unproposed_steps: the budget of every restart without a proposal (paper has none).
	budget, _ := fitAndPredict(t, newTestLearner(t, backend, short+";gate_init=search;train_unproposed_steps=7", 6), train, train)
	budgetPaper, _ := fitAndPredict(t, newTestLearner(t, backend, short+";gate_init=paper;train_unproposed_steps=7", 6), train, train)
	if budget.TotalSteps != 2*7 || budgetPaper.TotalSteps != paper.TotalSteps {
		t.Errorf("train_unproposed_steps=7: %d steps in all with search, %d with paper; want 14 and %d", budget.TotalSteps, budgetPaper.TotalSteps, paper.TotalSteps)
	}
}

// gridFlipTask draws num pairs on a 7x7 canvas whose input grids differ in size (2..6 rows and columns) and
// whose output is the grid with its columns (axis 1) or rows (axis 0) reversed: a size-relative element.
func gridFlipTask(t *testing.T, rng *rand.Rand, axis, num int) []latformer.Example {
	t.Helper()
	out := make([]latformer.Example, num)
	for k := range out {
		h, w := 2+rng.IntN(5), 2+rng.IntN(5)
		in, flipped := datasets.NewGrid(h, w, 0), datasets.NewGrid(h, w, 0)
		for i := range h {
			for j := range w {
				in[i][j] = rng.IntN(5)
			}
		}
		for i := range h {
			for j := range w {
				a, b := i, w-1-j
				if axis == 0 {
					a, b = h-1-i, j
				}
				flipped[i][j] = in[a][b]
			}
		}
		x, err := datasets.ToCanvas(in, 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		y, err := datasets.ToCanvas(flipped, 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = latformer.Example{Input: x, Output: y}
	}
	return out
}

// TestLatticeProposalsGrid checks the size-relative search end to end: on a task whose grids differ in
// size, the canvas expert has no proposal and LatticeProposals returns the grid-lattice expert with the
// flip first; the proposal → gates → read-back round trip gives the same element (LogitsFor, hard gates,
// DecodeGates, ElementOf); and the grid-lattice expert's hard mask, with each input's extents, maps every
// training input to the proposal's g·x (search.Proposal.Gather), the exact agreement of the search and
// the expert.
func TestLatticeProposalsGrid(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(17, 3))
	for axis := range 2 {
		train := gridFlipTask(t, rng, axis, 4)
		e := experts.DefaultExpert(7, 7)
		if props, err := Proposals(e, train, 0); err != nil || len(props) != 0 {
			t.Fatalf("axis %d: %d canvas proposals (%v), want none", axis, len(props), err)
		}
		props, used, err := LatticeProposals(e, train, 3, true)
		if err != nil || !used.Lattice.SizeRelative() || len(props) == 0 {
			t.Fatalf("axis %d: %d proposals, grid %v, err %v; want grid proposals", axis, len(props), used.Lattice, err)
		}
		want := experts.Element{Scale: one}
		want.Flip[axis] = true
		if props[0].Element != want || !props[0].Grid() {
			t.Errorf("axis %d: top proposal %+v (%v, grid %v), want %+v", axis, props[0].Element, props[0].Action, props[0].Grid(), want)
		}
		if none, _, err := LatticeProposals(e, train, 3, false); err != nil || len(none) != 0 {
			t.Errorf("axis %d: search_lattices=canvas: %d proposals (%v), want none", axis, len(none), err)
		}
		extents := func(ex latformer.Example) []int32 {
			h, w := search.GridExtents(ex.Input)
			return []int32{int32(h), int32(w)}
		}
		for _, p := range props {
			// A grid-lattice mask row with no 1 may read the input's pad cell beyond the grid instead.
			checkMaskMatchesGather(t, backend, used, p, train, extents, true)
		}
	}
}

// markerTask draws num pairs of a 6x6 task whose color table needs a per-pair role (search.RoleTable):
// a black input with a grey (5) shape and one marker cell of colors[i]; the output is the input upside
// down with the grey shape recolored to the marker's color.
func markerTask(rng *rand.Rand, colors []int32) []latformer.Example {
	out := make([]latformer.Example, len(colors))
	for k, m := range colors {
		x := datasets.Canvas{Rows: 6, Cols: 6, Cells: make([]int32, 36)}
		for n := 5 + rng.IntN(3); n > 0; {
			if i := rng.IntN(36); x.Cells[i] == 0 {
				x.Cells[i] = 5
				n--
			}
		}
		for {
			if i := rng.IntN(36); x.Cells[i] == 0 {
				x.Cells[i] = m
				break
			}
		}
		y := datasets.Canvas{Rows: 6, Cols: 6, Cells: make([]int32, 36)}
		for i := range y.Cells {
			v := x.Cells[(5-i/6)*6+i%6]
			if v == 5 {
				v = m
			}
			y.Cells[i] = v
		}
		out[k] = latformer.Example{Input: x, Output: y}
	}
	return out
}

// TestProposalsColorRoles: on a task no plain table fits (the grey shape takes the marker's color, which
// changes from pair to pair), for 5 seeds, Proposals and LatticeProposals find the flip of the rows on the
// canvas (not the grid lattice) with a role table and no plain table, and its generalized table predicts a
// test pair whose marker color (6) no training pair has, all 36 cells.
func TestProposalsColorRoles(t *testing.T) {
	e := experts.DefaultExpert(6, 6)
	want := experts.Element{Flip: [2]bool{true, false}, Scale: one}
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(34, seed))
		train, test := markerTask(rng, []int32{1, 2, 3, 4}), markerTask(rng, []int32{6})[0]
		props, err := Proposals(e, train, 3)
		if err != nil || len(props) == 0 {
			t.Fatalf("seed %d: %d proposals, err %v", seed, len(props), err)
		}
		lattice, used, err := LatticeProposals(e, train, 3, true)
		if err != nil || len(lattice) == 0 || used.Lattice.SizeRelative() {
			t.Fatalf("seed %d: LatticeProposals: %d proposals, grid %v, err %v; want canvas proposals", seed, len(lattice), used.Lattice, err)
		}
		for _, p := range [][]Proposal{props, lattice} {
			top := p[0]
			if top.Element != want || top.Table != nil || top.Roles == nil {
				t.Errorf("seed %d: top %+v (%v), plain table %v, role table %v; want %+v with a role table only", seed, top.Element, top.Action, top.Table != nil, top.Roles != nil, want)
				continue
			}
			got, ok, err := top.Generalize().Predict(test.Input)
			wrong := 0
			for i := range got.Cells {
				if got.Cells[i] != test.Output.Cells[i] {
					wrong++
				}
			}
			if err != nil || !ok || wrong != 0 {
				t.Errorf("seed %d: the test predicted with %d of 36 cells wrong (mapped %v, err %v)", seed, wrong, ok, err)
			}
		}
	}
}

// TestAnchoredMaskMatchesGather checks the anchor-relative expert against the search on the per-pair
// synthetic families (datasets.AnchoredFamilies): no canvas or grid element fits their training pairs, an
// anchored one does, and for every proposal the expert's mask with hard gates at the proposal's element and
// each input's frame (Example.Frame) maps the input to the search's g·x, cell for cell, nothing landing
// (zero) where the search's gather reads nothing.
func TestAnchoredMaskMatchesGather(t *testing.T) {
	backend := testutil.Backend(t)
	tasks := map[string][]latformer.Example{"upscale-by-colors": upscaleByColorsTask(t)}
	names := []string{"upscale-by-colors"}
	for _, family := range datasets.AnchoredFamilies {
		task, err := datasets.SyntheticTaskAt(family, 0, datasets.SyntheticOptions{NumTrain: 4, NumTest: 4, Canvas: 10})
		if err != nil {
			t.Fatal(err)
		}
		train := make([]latformer.Example, len(task.Train))
		for i, p := range task.Train {
			train[i] = latformer.Example{Input: p.Input, Output: p.Output}
		}
		tasks[string(family)] = train
		names = append(names, string(family))
	}
	for _, family := range names {
		train := tasks[family]
		side := train[0].Input.Rows
		e := experts.DefaultExpert(side, side)
		if props, _, err := LatticeProposals(e, train, 3, true); err != nil || len(props) != 0 {
			t.Fatalf("%s: %d canvas or grid proposals (%v), want none", family, len(props), err)
		}
		props, used, err := latticeProposals(e, train, 3, true, true)
		if err != nil || used.Lattice != experts.Anchored || len(props) == 0 {
			t.Fatalf("%s: %d proposals, anchored %v, err %v; want anchored proposals", family, len(props), used.Lattice, err)
		}
		framed := WithFrames(props[0], train)
		for _, p := range props {
			checkMaskMatchesGather(t, backend, used, p, framed, func(ex latformer.Example) []int32 { return ex.Frame[:] }, false)
		}
		rule, _ := props[0].Anchored()
		t.Logf("%s: %d proposals, top %v∘%v", family, len(props), rule, props[0].Action)
	}
}

// upscaleByColorsTask is a task whose up-scaling factor is read off each input: 3 x 3 grids with k = 1, 2, 3
// colors besides black, up-scaled k times, on a 12 x 12 canvas.
func upscaleByColorsTask(t *testing.T) []latformer.Example {
	grids := []datasets.Grid{{{0, 4, 0}, {0, 0, 0}, {4, 0, 0}}, {{2, 0, 0}, {0, 0, 7}, {0, 0, 0}}, {{0, 1, 0}, {3, 0, 6}, {0, 0, 0}}}
	var out []latformer.Example
	for k, g := range grids {
		in, err := datasets.ToCanvas(g, 12, 12)
		if err != nil {
			t.Fatal(err)
		}
		y, err := datasets.ApplyAction(lattice.Upscale{Factors: []int{k + 1, k + 1}}, in)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, latformer.Example{Input: in, Output: y})
	}
	return out
}

// checkMaskMatchesGather checks the expert's mask against the search on the examples: with hard gates at
// the proposal's element (read back as that element) and each example's Gates.Extent (extent), the mask maps
// every input to the search's g·x, cell for cell, a row with no 1 (nothing lands: zero) where the search's
// gather reads nothing; padOK also accepts the pad token there.
func checkMaskMatchesGather(t *testing.T, backend compute.Backend, used experts.Expert, p Proposal, examples []latformer.Example, extent func(latformer.Example) []int32, padOK bool) {
	t.Helper()
	logits := make([][]float32, len(examples))
	extents := make([][]int32, len(examples))
	inputs := make([][]float32, len(examples))
	for i, ex := range examples {
		logits[i] = used.LogitsFor(p.Element, 6)
		extents[i] = extent(ex)
		for _, v := range ex.Input.Cells {
			inputs[i] = append(inputs[i], float32(v))
		}
	}
	outs := graph.MustExecOnceN(backend, func(l, ext, x *graph.Node) []*graph.Node {
		gates := used.GatesFromLogits(l, true)
		if used.Lattice == experts.Anchored {
			gates.Frames = ext
		} else {
			gates.Extent = ext
		}
		moved := graph.Einsum("bij,bj->bi", used.Mask(gates).Dense(), x)
		return append([]*graph.Node{moved}, gates.GateTensors()...)
	}, logits, extents, inputs)
	values, err := used.DecodeGates(outs[1:])
	if err != nil {
		t.Fatal(err)
	}
	moved := tensors.MustCopyFlatData[float32](outs[0])
	name := p.Action.String()
	if rule, ok := p.Anchored(); ok {
		name = rule.String() + "∘" + name
	}
	for i, ex := range examples {
		if back := used.ElementOf(values[i]); back != p.Element {
			t.Errorf("%s: gates read back %+v, want %+v", name, back, p.Element)
		}
		gather, err := p.Gather(ex.Input)
		if err != nil {
			t.Fatal(err)
		}
		n := len(ex.Input.Cells)
		for c, src := range gather {
			want := float32(0)
			if src >= 0 {
				want = float32(ex.Input.Cells[src])
			}
			if got := moved[i*n+c]; got != want && !(padOK && src < 0 && got == datasets.PadToken) {
				t.Fatalf("%s, pair %d, cell %d: the expert's mask gives %v, the search's gather %v", name, i, c, got, want)
			}
		}
	}
}

// TestAnchoredNeedsFrames checks that a learner with the anchor-relative expert refuses training examples
// without frames (a zero box would give empty masks and train on nothing), and trains with them.
func TestAnchoredNeedsFrames(t *testing.T) {
	backend := testutil.Backend(t)
	train := upscaleByColorsTask(t)
	store, err := latformer.NewStore(parse(t, "expert_lattice=anchored;train_steps=2;train_restarts=1"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := latformer.NewLearner(backend, store, 12, 12)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Fit(train, nil, nil); err == nil || !strings.Contains(err.Error(), "frame") {
		t.Errorf("Fit without frames: err %v, want one that names the missing frame", err)
	}
	props, _, err := LatticeProposalsAnchored(experts.DefaultExpert(12, 12), train, 1)
	if err != nil || len(props) == 0 {
		t.Fatalf("%d proposals (%v)", len(props), err)
	}
	if _, err := l.Fit(WithFrames(props[0], train), nil, nil); err != nil {
		t.Errorf("Fit with frames: %v", err)
	}
}
