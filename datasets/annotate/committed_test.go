// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

// The committed annotations, pinned: the task ids of each geometric category (the other tasks of the
// 400 are none). A change of the definition or of the files shows here as a diff.
var (
	pinnedOneAction = map[datasets.Category]string{
		datasets.CategoryTranslate: `0520fde7 05f2a901 1b2d62fb 239be575 25d8a9c8 25ff71a9 27a28665 2dee498d 3428a4f5
			3618c87e 5168d44c 63613498 6430c8c4 662c240a 7b7f7511 88a10436 94f9d214 9565186b 99b1bc43 a1570a43
			a416b8f3 a79310a0 aabf363d b230c067 b9b7f026 ba97ae07 ce4f8723 d10ecb37 d23f8c26 d9fac9be dae9d2b5
			dc433765 de1cd16c e98196ab f2829549 fafffa47`,
		datasets.CategoryRotate: `017c7c7b 1b60fb0c 3c9b0459 445eab21 44f52bb0 496994bd 5582e5ca 6150a2bd 746b3537
			91714a58 b8825c91 d90796e8 ed36ccf7`,
		datasets.CategoryReflect: `2bcee788 3345333e 67a3c6ac 68b16354 6d0aefbc 6fa7a44f 7468f01a 74dd1130 760b3cac
			8be77c9e 9dfd6313 c9e6f938 f25ffba3`,
		datasets.CategoryScale: `1190e5a7 2204b7a8 23b5c85d 31aa019c 4be741c5 5521c0d9 5614dbcf 67385a82 776ffc46
			85c4e7cd 88a62173 9172f3a0 9ecd008a ac0a08a4 aedd82e4 b91ae062 bda2d7a6 c59eb873 d2abd087 d6ad076f
			f76d97a5 f9012d9b`,
	}
	pinnedOneActionCounts = map[datasets.Category]int{
		datasets.CategoryTranslate: 36, datasets.CategoryRotate: 13, datasets.CategoryReflect: 13, datasets.CategoryScale: 22,
		datasets.CategoryNone: 316,
	}
	// The tasks that g = identity solves (none, with noteIdentity in both files).
	pinnedIdentity = "0d3d703e b1948b0a c8f0f002 d511f180"

	pinnedTwoActions = map[datasets.Category]string{
		datasets.CategoryTranslate: `0520fde7 05f2a901 1b2d62fb 239be575 25d8a9c8 25ff71a9 27a28665 2dee498d 3428a4f5
			3618c87e 484b58aa 5168d44c 63613498 6430c8c4 662c240a 7b7f7511 7e0986d6 7f4411dc 88a10436 94f9d214
			9565186b 99b1bc43 a1570a43 a416b8f3 a79310a0 aabf363d b230c067 b9b7f026 ba97ae07 c3f564a4 cbded52d
			ce4f8723 d037b0a7 d10ecb37 d23f8c26 d8c310e9 d9fac9be dae9d2b5 dc433765 de1cd16c e26a3af2 e98196ab
			f2829549 fafffa47`,
		datasets.CategoryRotate: `017c7c7b 0dfd9992 1b60fb0c 1fad071e 3631a71a 3c9b0459 445eab21 44f52bb0 496994bd
			5582e5ca 5bd6f4ac 6150a2bd 746b3537 8e5a5113 91714a58 a78176bb b8825c91 d90796e8 ed36ccf7`,
		datasets.CategoryReflect: `29ec7d0e 2bcee788 3345333e 67a3c6ac 68b16354 6d0aefbc 6fa7a44f 7468f01a 74dd1130
			760b3cac 8be77c9e 963e52fc 9dfd6313 c9e6f938 f25ffba3`,
		datasets.CategoryScale: `1190e5a7 2204b7a8 23b5c85d 31aa019c 4be741c5 5521c0d9 5614dbcf 67385a82 776ffc46
			85c4e7cd 88a62173 9172f3a0 9ecd008a a61f2674 ac0a08a4 aedd82e4 b91ae062 bda2d7a6 c59eb873 d2abd087
			d6ad076f f76d97a5 f9012d9b`,
	}
	pinnedTwoActionsCounts = map[datasets.Category]int{
		datasets.CategoryTranslate: 44, datasets.CategoryRotate: 19, datasets.CategoryReflect: 15, datasets.CategoryScale: 23,
		datasets.CategoryNone: 299,
	}
	// The tasks of the two-action file with Note "two actions": the 17 that only two actions place.
	pinnedTwoActionsOnly = `0dfd9992 1fad071e 29ec7d0e 3631a71a 484b58aa 5bd6f4ac 7e0986d6 7f4411dc 8e5a5113
		963e52fc a61f2674 a78176bb c3f564a4 cbded52d d037b0a7 d8c310e9 e26a3af2`
)

// idsWhere returns the sorted ids of the annotations for which keep holds.
func idsWhere(anns map[string]Annotation, keep func(Annotation) bool) []string {
	var ids []string
	for id, a := range anns {
		if keep(a) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// checkPinned checks a committed annotation against the pinned ids and counts: 400 tasks, the ids of
// each category, the counts, the identity-solved tasks, and an action per pair only where there is a
// category.
func checkPinned(t *testing.T, name string, anns map[string]Annotation, ids map[datasets.Category]string, counts map[datasets.Category]int) {
	t.Helper()
	if len(anns) != 400 {
		t.Fatalf("%s: %d annotations, want the 400 ARC training tasks", name, len(anns))
	}
	list := make([]Annotation, 0, len(anns))
	for id, a := range anns {
		list = append(list, a)
		if a.TaskID != id {
			t.Errorf("%s: key %s holds task id %q", name, id, a.TaskID)
		}
		if (a.Category == datasets.CategoryNone) != (len(a.Actions) == 0) {
			t.Errorf("%s: task %s of category %q has %d actions", name, id, a.Category, len(a.Actions))
		}
	}
	if got := Counts(list); !reflect.DeepEqual(got, counts) {
		t.Errorf("%s: counts %v, want %v", name, got, counts)
	}
	for _, cat := range datasets.Categories {
		got := idsWhere(anns, func(a Annotation) bool { return a.Category == cat })
		if want := strings.Fields(ids[cat]); !slices.Equal(got, want) {
			t.Errorf("%s: %s tasks\n got %v\nwant %v", name, cat, got, want)
		}
	}
	got := idsWhere(anns, func(a Annotation) bool { return a.Note == noteIdentity })
	if want := strings.Fields(pinnedIdentity); !slices.Equal(got, want) {
		t.Errorf("%s: tasks solved by the identity %v, want %v", name, got, want)
	}
}

// TestDefaultPinned pins the committed one-action annotation (Default).
func TestDefaultPinned(t *testing.T) {
	anns, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	checkPinned(t, "Default", anns, pinnedOneAction, pinnedOneActionCounts)
	for id, a := range anns {
		if a.Category == datasets.CategoryNone && a.Note != noteNoFit && a.Note != noteIdentity {
			t.Errorf("task %s: note %q", id, a.Note)
		}
	}
}

// TestDefaultTwoActionsPinned pins the committed two-action annotation (DefaultTwoActions) and checks
// that it keeps every annotation of Default except the none tasks that two actions place.
func TestDefaultTwoActionsPinned(t *testing.T) {
	two, err := DefaultTwoActions()
	if err != nil {
		t.Fatal(err)
	}
	checkPinned(t, "DefaultTwoActions", two, pinnedTwoActions, pinnedTwoActionsCounts)
	got := idsWhere(two, func(a Annotation) bool { return a.Note == NoteTwoActions })
	if want := strings.Fields(pinnedTwoActionsOnly); !slices.Equal(got, want) {
		t.Errorf("tasks placed with two actions\n got %v\nwant %v", got, want)
	}
	one, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for id, a := range two {
		switch {
		case a.Note == NoteTwoActions:
			if one[id].Note != noteNoFit || !strings.Contains(a.Actions[0], " + ") {
				t.Errorf("task %s: two actions %+v, one action %+v", id, a, one[id])
			}
		case a.Note == noteNoFitTwo:
			if one[id].Note != noteNoFit {
				t.Errorf("task %s: %q with two actions, %q with one", id, a.Note, one[id].Note)
			}
		case !reflect.DeepEqual(a, one[id]):
			t.Errorf("task %s: two-action file %+v, one-action file %+v", id, a, one[id])
		}
	}
}

// TestCountsVersusPaper asserts what docs/arc.md ("Annotation by geometric prior") says of the counts
// against the paper's (Table 2 fractions, PaperCounts): the definition finds fewer reflection tasks and
// more rotation and scaling ones, fewer geometric tasks in all (84 against 112), and with two actions
// reflect stays far below the paper (a mirror tiling needs three moved copies) while 17 more tasks fit.
func TestCountsVersusPaper(t *testing.T) {
	one, two := pinnedOneActionCounts, pinnedTwoActionsCounts
	if one[datasets.CategoryReflect] >= PaperCounts[datasets.CategoryReflect] {
		t.Errorf("reflect: %d, the paper %d; docs/arc.md says fewer", one[datasets.CategoryReflect], PaperCounts[datasets.CategoryReflect])
	}
	for _, c := range []datasets.Category{datasets.CategoryRotate, datasets.CategoryScale} {
		if one[c] <= PaperCounts[c] {
			t.Errorf("%s: %d, the paper %d; docs/arc.md says more", c, one[c], PaperCounts[c])
		}
	}
	sum := func(m map[datasets.Category]int) int {
		n := 0
		for _, c := range datasets.Categories {
			n += m[c]
		}
		return n
	}
	if sum(one) != 84 || sum(PaperCounts) != 112 || sum(two) != 84+17 {
		t.Errorf("geometric tasks: %d with one action, %d with two, paper %d; docs/arc.md says 84, 101, 112", sum(one), sum(two), sum(PaperCounts))
	}
	if two[datasets.CategoryReflect] >= PaperCounts[datasets.CategoryReflect]/2 {
		t.Errorf("reflect with two actions: %d, the paper %d; docs/arc.md says it stays out of reach", two[datasets.CategoryReflect], PaperCounts[datasets.CategoryReflect])
	}
	for _, c := range datasets.Categories {
		if two[c] < one[c] {
			t.Errorf("%s: %d with two actions < %d with one", c, two[c], one[c])
		}
	}
}

// loadARC loads the ARC training tasks from $LATFORMER_DATA (make test sets it), skipping the test without
// them.
func loadARC(t testing.TB) []datasets.Task { return loadSplit(t, "training", 400) }

// loadSplit loads the ARC tasks of a split from $LATFORMER_DATA and checks there are want of them; it skips
// without the data.
func loadSplit(t testing.TB, split string, want int) []datasets.Task {
	t.Helper()
	_, arcDir := testutil.ARCData(t, split)
	tasks, err := datasets.LoadDir(arcDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != want {
		t.Fatalf("%d ARC %s tasks, want %d", len(tasks), split, want)
	}
	return tasks
}

// TestTaskReproducesDefault annotates the 400 ARC training tasks and checks that the result equals the
// committed annotation and does not depend on the number of workers. It skips without the ARC data.
func TestTaskReproducesDefault(t *testing.T) {
	tasks := loadARC(t)
	anns := All(tasks, 2, Task)
	for i := 1; i < len(anns); i++ {
		if anns[i-1].TaskID >= anns[i].TaskID {
			t.Fatalf("annotations not sorted by id at %d", i)
		}
	}
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range anns {
		if !reflect.DeepEqual(def[a.TaskID], a) {
			t.Errorf("task %s: committed %+v, computed %+v (regenerate: see the package doc)", a.TaskID, def[a.TaskID], a)
		}
	}
	// Determinism: a subset again, on one worker and in reverse order.
	var sub []datasets.Task
	for i := len(tasks) - 1; i >= 0; i -= 8 {
		sub = append(sub, tasks[i])
	}
	again := All(sub, 1, Task)
	if len(sub) < 40 || len(again) != len(sub) {
		t.Fatalf("%d annotations of %d tasks, want one per task and at least 40 tasks", len(again), len(sub))
	}
	for _, a := range again {
		if !reflect.DeepEqual(a, def[a.TaskID]) {
			t.Errorf("task %s: %+v on 1 worker, %+v committed", a.TaskID, a, def[a.TaskID])
		}
	}
}

// TestTwoActionsReproducesDefault checks the committed two-action annotation against a fresh TwoActions
// on the tasks it places with two actions and on the first 20 others (the whole file takes minutes:
// `latformer annotate --two-actions`). It skips without the ARC data.
func TestTwoActionsReproducesDefault(t *testing.T) {
	tasks := loadARC(t)
	committed, err := DefaultTwoActions()
	if err != nil {
		t.Fatal(err)
	}
	others, checked := 0, 0
	for _, task := range tasks {
		want, ok := committed[task.ID]
		if !ok {
			t.Errorf("task %s missing from the committed file", task.ID)
			continue
		}
		if want.Note != NoteTwoActions {
			if others >= 20 {
				continue
			}
			others++
		}
		checked++
		if got := TwoActions(task); !reflect.DeepEqual(got, want) {
			t.Errorf("task %s: committed %+v, computed %+v", task.ID, want, got)
		}
	}
	if checked-others != 17 {
		t.Errorf("checked %d tasks with two actions, want 17", checked-others)
	}
}

// TestEvaluationPinned checks the committed annotation of the evaluation split: 381 tasks with the
// per-category counts of docs/arc.md, and, with the ARC data at hand, that a fresh run gives it.
func TestEvaluationPinned(t *testing.T) {
	anns, err := Evaluation()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[datasets.Category]int{}
	for _, a := range anns {
		counts[a.Category]++
	}
	want := map[datasets.Category]int{datasets.CategoryTranslate: 8, datasets.CategoryRotate: 4, datasets.CategoryReflect: 3,
		datasets.CategoryScale: 10, datasets.CategoryNone: 356}
	if len(anns) != 381 || !reflect.DeepEqual(counts, want) {
		t.Errorf("%d evaluation annotations, counts %v; want 381, %v", len(anns), counts, want)
	}
	computed := All(loadSplit(t, "evaluation", 381), 2, Task)
	if len(computed) != 381 {
		t.Fatalf("%d annotations computed, want 381", len(computed))
	}
	for _, a := range computed {
		if !reflect.DeepEqual(a, anns[a.TaskID]) {
			t.Errorf("task %s: committed %+v, computed %+v", a.TaskID, anns[a.TaskID], a)
		}
	}
}
