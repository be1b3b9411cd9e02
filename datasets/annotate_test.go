package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/lattice"
)

// annotTestCrop applies action to the canvas of g (ApplyAction on 30x30) and returns the bounding box of
// the non-pad cells: the grid of T_δ ∘ action for the δ that brings it back to the top-left.
func annotTestCrop(t *testing.T, action lattice.Action, g Grid) Grid {
	t.Helper()
	c, err := ToCanvas(g, annotSide, annotSide)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ApplyAction(action, c)
	if err != nil {
		t.Fatal(err)
	}
	r0, r1, c0, c1 := annotSide, -1, annotSide, -1
	for i := range annotSide {
		for j := range annotSide {
			if out.Cells[i*annotSide+j] != PadToken {
				r0, r1, c0, c1 = min(r0, i), max(r1, i), min(c0, j), max(c1, j)
			}
		}
	}
	res := NewGrid(r1-r0+1, c1-c0+1, 0)
	for i := r0; i <= r1; i++ {
		for j := c0; j <= c1; j++ {
			res[i-r0][j-c0] = int(out.Cells[i*annotSide+j])
		}
	}
	return res
}

// annotTestTask builds a task with 3 train pairs and 1 test pair from inputs and a function of the input.
func annotTestTask(id string, inputs []Grid, fn func(Grid) Grid) Task {
	task := Task{ID: id}
	for i, in := range inputs {
		p := Pair{Input: in, Output: fn(in)}
		if i < len(inputs)-1 {
			task.Train = append(task.Train, p)
		} else {
			task.Test = append(task.Test, p)
		}
	}
	return task
}

// annotTestShiftTask: 12x12 grids of background 0 with a random 5x5 object of colors 1..4 at the
// top-left; the output moves the object by (3,5) inside the same grid (circular translation of the
// canvas by ApplyAction, then cut back to 12x12 with 0 where the pad came in) and recolors it by recolor.
func annotTestShiftTask(t *testing.T, rng *rand.Rand, id string, recolor map[int]int) Task {
	var inputs []Grid
	for range 4 {
		g := NewGrid(12, 12, 0)
		for i := range 5 {
			for j := range 5 {
				if rng.IntN(2) == 0 {
					g[i][j] = 1 + rng.IntN(4)
				}
			}
		}
		inputs = append(inputs, g)
	}
	return annotTestTask(id, inputs, func(in Grid) Grid {
		c, _ := ToCanvas(in, annotSide, annotSide)
		out, err := ApplyAction(lattice.Translation{Deltas: []int{3, 5}}, c)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGrid(12, 12, 0)
		for i := range 12 {
			for j := range 12 {
				v := int(out.Cells[i*annotSide+j])
				if v == PadToken {
					v = 0
				}
				if r, ok := recolor[v]; ok {
					v = r
				}
				g[i][j] = v
			}
		}
		return g
	})
}

func annotTestRandomInputs(rng *rand.Rand, sizes [][2]int) []Grid {
	var gs []Grid
	for _, s := range sizes {
		gs = append(gs, RandomGrid(rng, s[0], s[1]))
	}
	return gs
}

func annotTestCheck(t *testing.T, task Task, want Category, wantAction string) Annotation {
	t.Helper()
	ann := Annotate(task)
	t.Logf("%s: category %q, actions %v, note %q", task.ID, ann.Category, ann.Actions, ann.Note)
	if ann.Category != want {
		t.Fatalf("%s: category %q, want %q (actions %v, note %q)", task.ID, ann.Category, want, ann.Actions, ann.Note)
	}
	nPairs := len(task.Train) + len(task.Test)
	if want == CategoryNone {
		if len(ann.Actions) != 0 {
			t.Errorf("%s: %d actions for none, want 0", task.ID, len(ann.Actions))
		}
		return ann
	}
	if len(ann.Actions) != nPairs {
		t.Fatalf("%s: %d actions, want %d", task.ID, len(ann.Actions), nPairs)
	}
	if wantAction != "" {
		for i, a := range ann.Actions {
			if !strings.Contains(a, wantAction) {
				t.Errorf("%s: pair %d action %q does not contain %q", task.ID, i, a, wantAction)
			}
		}
	}
	return ann
}

func TestAnnotateSyntheticTranslate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ann := annotTestCheck(t, annotTestShiftTask(t, rng, "shift", nil), CategoryTranslate, "")
	for i, a := range ann.Actions {
		if a != "translate(3,5)" {
			t.Errorf("pair %d: action %q, want translate(3,5)", i, a)
		}
	}
	// Recolor after translation: f maps color 1 to 2 (and keeps the others).
	ann = annotTestCheck(t, annotTestShiftTask(t, rng, "shift-recolor", map[int]int{1: 2}), CategoryTranslate, "")
	for i, a := range ann.Actions {
		if a != "translate(3,5)" {
			t.Errorf("pair %d: action %q, want translate(3,5)", i, a)
		}
	}
}

func TestAnnotateSyntheticRotate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := annotTestRandomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	rot := lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}
	annotTestCheck(t, annotTestTask("rot90", inputs, func(g Grid) Grid { return annotTestCrop(t, rot, g) }), CategoryRotate, "rot90(0,1)x1")
}

func TestAnnotateSyntheticReflect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := annotTestRandomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	tr := lattice.DiagonalReflection{AxisA: 0, AxisB: 1}
	ann := annotTestCheck(t, annotTestTask("transpose", inputs, func(g Grid) Grid { return annotTestCrop(t, tr, g) }), CategoryReflect, "")
	for i, a := range ann.Actions {
		if a != "transpose(0,1)" {
			t.Errorf("pair %d: action %q, want transpose(0,1)", i, a)
		}
	}
}

func TestAnnotateSyntheticScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	up := lattice.Upscale{Factors: []int{2, 3}}
	pairs, _, _, err := ActionExamples(rng, up, annotSide, annotSide, 4, 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	task := Task{ID: "upscale", Train: pairs[:3], Test: pairs[3:]}
	if r, c := pairs[0].Output.Rows(), pairs[0].Output.Cols(); r != 8 || c != 15 {
		t.Fatalf("upscaled output is %dx%d, want 8x15", r, c)
	}
	ann := annotTestCheck(t, task, CategoryScale, "")
	for i, a := range ann.Actions {
		if a != "upscale(2,3)" {
			t.Errorf("pair %d: action %q, want upscale(2,3)", i, a)
		}
	}
	// Down-scaling by (3,2) of grids made of 3x2 blocks.
	var inputs []Grid
	for range 4 {
		small := RandomGrid(rng, 4, 5)
		g := NewGrid(12, 10, 0)
		for i := range 12 {
			for j := range 10 {
				g[i][j] = small[i/3][j/2]
			}
		}
		inputs = append(inputs, g)
	}
	down := lattice.Downscale{Factors: []int{3, 2}}
	ann = annotTestCheck(t, annotTestTask("downscale", inputs, func(g Grid) Grid { return annotTestCrop(t, down, g) }), CategoryScale, "")
	for i, a := range ann.Actions {
		if a != "downscale(3,2)" {
			t.Errorf("pair %d: action %q, want downscale(3,2)", i, a)
		}
	}
}

func TestAnnotateSyntheticNone(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	inputs := annotTestRandomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}, {7, 7}})
	ann := annotTestCheck(t, annotTestTask("identity", inputs, func(g Grid) Grid { return g.Clone() }), CategoryNone, "")
	if !strings.Contains(ann.Note, "identity") {
		t.Errorf("identity task note %q does not mention identity", ann.Note)
	}
	// A per-cell recoloring that keeps the size needs no geometry either.
	ann = annotTestCheck(t, annotTestTask("recolor", inputs, func(g Grid) Grid {
		c := g.Clone()
		for i := range c {
			for j := range c[i] {
				if c[i][j] == 3 {
					c[i][j] = 4
				}
			}
		}
		return c
	}), CategoryNone, "")
	if !strings.Contains(ann.Note, "identity") {
		t.Errorf("recolor task note %q does not mention identity", ann.Note)
	}
	// Random outputs unrelated to the inputs.
	random := annotTestRandomInputs(rng, [][2]int{{10, 10}, {10, 10}, {10, 10}, {10, 10}})
	ann = annotTestCheck(t, annotTestTask("random", random, func(Grid) Grid { return RandomGrid(rng, 10, 10) }), CategoryNone, "")
	if ann.Note != "fits no geometric category" {
		t.Errorf("random task note %q, want %q", ann.Note, "fits no geometric category")
	}
}

// TestAnnotatePrecedence: the outputs are both rot180(x) and flip-rows ∘ flip-columns(x) (the same
// permutation of the canvas) and, because the inputs are left-right symmetric, also flip-rows(x) up to a
// translation: the task fits rotate and reflect, and rotate wins.
func TestAnnotatePrecedence(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var inputs []Grid
	for _, s := range [][2]int{{8, 10}, {9, 8}, {10, 6}, {7, 12}} {
		g := RandomGrid(rng, s[0], s[1])
		for i := range g {
			for j := range s[1] / 2 {
				g[i][s[1]-1-j] = g[i][j]
			}
		}
		inputs = append(inputs, g)
	}
	rot180 := lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2}
	task := annotTestTask("rot180", inputs, func(g Grid) Grid { return annotTestCrop(t, rot180, g) })
	for _, p := range append(task.Train, task.Test...) {
		flips := annotTestCrop(t, lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1}), p.Input)
		if !flips.Equal(p.Output) {
			t.Fatalf("rot180 output differs from the double flip")
		}
	}
	annotTestCheck(t, task, CategoryRotate, "rot90(0,1)x2")

	// Both rotate and reflect fit.
	space := annotGetSpace()
	for _, cat := range []Category{CategoryRotate, CategoryReflect} {
		var pairs []*annotPair
		for _, p := range append(task.Train, task.Test...) {
			ap, err := newAnnotPair(p)
			if err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, ap)
		}
		actions, capped := annotSearchCategory(space, cat, pairs)
		t.Logf("category %q alone: actions %v", cat, actions)
		if actions == nil || capped {
			t.Errorf("category %q does not fit the rot180 task on its own (capped %v)", cat, capped)
		}
	}
}

// TestAnnotateGathers checks the precomputed gathers against ApplyAction of the same action.
func TestAnnotateGathers(t *testing.T) {
	space := annotGetSpace()
	if space.err != nil {
		t.Fatal(space.err)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	c, err := ToCanvas(RandomGrid(rng, 17, 23), annotSide, annotSide)
	if err != nil {
		t.Fatal(err)
	}
	gatherApply := func(g []int32) []int32 {
		out := make([]int32, annotN)
		for i, src := range g {
			if src < 0 {
				out[i] = PadToken
			} else {
				out[i] = c.Cells[src]
			}
		}
		return out
	}
	for _, d := range [][2]int{{0, 0}, {3, 5}, {29, 1}, {14, 27}} {
		want, err := ApplyAction(lattice.Translation{Deltas: []int{d[0], d[1]}}, c)
		if err != nil {
			t.Fatal(err)
		}
		if got := gatherApply(space.trans[d[0]*annotSide+d[1]]); !reflect.DeepEqual(got, want.Cells) {
			t.Errorf("translation %v: gather differs from ApplyAction", d)
		}
	}
	if n := len(space.bases[CategoryScale]); n != 80 {
		t.Errorf("%d scalings, want 80", n)
	}
	if n, m := len(space.bases[CategoryRotate]), len(space.bases[CategoryReflect]); n != 3 || m != 4 {
		t.Errorf("%d rotations and %d reflections, want 3 and 4", n, m)
	}
	// A mixed scaling equals down-scaling the rows, then up-scaling the columns, by ApplyAction.
	for _, b := range space.bases[CategoryScale] {
		if b.action.String() != "downscale(3,1)∘upscale(1,4)" {
			continue
		}
		up, err := ApplyAction(lattice.Upscale{Factors: []int{1, 4}}, c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ApplyAction(lattice.Downscale{Factors: []int{3, 1}}, up)
		if err != nil {
			t.Fatal(err)
		}
		if got := gatherApply(b.gather); !reflect.DeepEqual(got, want.Cells) {
			t.Errorf("%s: gather differs from sequential ApplyAction", b.action)
		}
		return
	}
	t.Errorf("mixed scaling downscale(3,1)∘upscale(1,4) not found")
}

func TestAnnotationsSaveLoad(t *testing.T) {
	anns := []Annotation{
		{TaskID: "b", Category: CategoryRotate, Actions: []string{"rot90(0,1)x1", "identity"}},
		{TaskID: "a", Category: CategoryNone, Note: "fits no geometric category"},
	}
	path := filepath.Join(t.TempDir(), "ann.json")
	if err := SaveAnnotations(path, anns); err != nil {
		t.Fatal(err)
	}
	got, err := LoadAnnotations(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got["a"], anns[1]) || !reflect.DeepEqual(got["b"], anns[0]) {
		t.Errorf("round trip: got %+v", got)
	}
	data, _ := os.ReadFile(path)
	if ia, ib := strings.Index(string(data), `"a"`), strings.Index(string(data), `"b"`); ia < 0 || ib < ia {
		t.Errorf("ids not in sorted order in %s", data)
	}
	if err := SaveAnnotations(path, append(anns, anns[0])); err == nil {
		t.Errorf("duplicate id saved without error")
	}
	counts := CategoryCounts(anns)
	if counts[CategoryRotate] != 1 || counts[CategoryNone] != 1 || counts[CategoryTranslate] != 0 {
		t.Errorf("counts %v", counts)
	}
}

func annotTestLoadARC(t *testing.T) []Task {
	t.Helper()
	dataDir, err := DataDir("") // $LATFORMER_DATA, else ../shared/data or ../../shared/data
	if err != nil {
		t.Skipf("no data directory: %v", err)
	}
	arcDir, err := ARCSplitDir(dataDir, "training")
	if err != nil {
		t.Skipf("no ARC training split: %v", err)
	}
	tasks, err := LoadDir(arcDir)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

func annotTestLogCounts(t *testing.T, anns []Annotation) {
	counts := CategoryCounts(anns)
	t.Logf("counts: translate %d (paper 52), rotate %d (paper 5), reflect %d (paper 44), scale %d (paper 11), none %d",
		counts[CategoryTranslate], counts[CategoryRotate], counts[CategoryReflect], counts[CategoryScale], counts[CategoryNone])
	capped := 0
	for _, a := range anns {
		if strings.Contains(a.Note, "cap") {
			capped++
		}
	}
	t.Logf("tasks that hit the search cap: %d", capped)
}

// TestAnnotateARCTraining annotates the 400 ARC training tasks, checks that the result does not depend
// on the number of workers and matches the embedded annotations, and logs the counts and the runtime.
func TestAnnotateARCTraining(t *testing.T) {
	tasks := annotTestLoadARC(t)
	if len(tasks) != 400 {
		t.Fatalf("%d ARC training tasks, want 400", len(tasks))
	}
	start := time.Now()
	anns := AnnotateAll(tasks, 2)
	t.Logf("AnnotateAll of %d tasks on 2 workers: %v", len(tasks), time.Since(start))
	annotTestLogCounts(t, anns)
	for i := 1; i < len(anns); i++ {
		if anns[i-1].TaskID >= anns[i].TaskID {
			t.Fatalf("annotations not sorted by id at %d", i)
		}
	}
	// Determinism: a subset again, on one worker and in reverse order.
	var sub []Task
	for i := len(tasks) - 1; i >= 0; i -= 8 {
		sub = append(sub, tasks[i])
	}
	again := AnnotateAll(sub, 1)
	byID := map[string]Annotation{}
	for _, a := range anns {
		byID[a.TaskID] = a
	}
	for _, a := range again {
		if !reflect.DeepEqual(a, byID[a.TaskID]) {
			t.Errorf("task %s: %+v on 1 worker, %+v on 2", a.TaskID, a, byID[a.TaskID])
		}
	}
	def, err := DefaultAnnotations()
	if err != nil {
		t.Fatal(err)
	}
	if len(def) == 0 {
		t.Logf("embedded annotations are empty: run TestGenerateAnnotations")
		return
	}
	if len(def) != len(anns) {
		t.Errorf("embedded annotations have %d tasks, want %d", len(def), len(anns))
	}
	for _, a := range anns {
		if !reflect.DeepEqual(def[a.TaskID], a) {
			t.Errorf("task %s: embedded %+v, computed %+v (regenerate with LATFORMER_WRITE_ANNOTATIONS=1)", a.TaskID, def[a.TaskID], a)
		}
	}
}

// TestGenerateAnnotations writes annotations/arc_training.json; it runs only with
// LATFORMER_WRITE_ANNOTATIONS=1.
func TestGenerateAnnotations(t *testing.T) {
	if os.Getenv("LATFORMER_WRITE_ANNOTATIONS") != "1" {
		t.Skip("set LATFORMER_WRITE_ANNOTATIONS=1 to regenerate annotations/arc_training.json")
	}
	tasks := annotTestLoadARC(t)
	start := time.Now()
	anns := AnnotateAll(tasks, 0)
	t.Logf("AnnotateAll of %d tasks: %v", len(tasks), time.Since(start))
	annotTestLogCounts(t, anns)
	if err := SaveAnnotations(filepath.Join("annotations", "arc_training.json"), anns); err != nil {
		t.Fatal(err)
	}
}
