package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// symmetryCompletionTask is a two-action task: a grid symmetric under both flips with some cells
// blacked out becomes the whole grid. Each blacked-out cell has its left-right or its up-down mirror
// intact, and some only the one or the other, so y = f(F₁·x, F₀·x, x) with both flips (and the
// translations that bring them back onto the grid).
func symmetryCompletionTask(rng *rand.Rand) Task {
	var inputs, outputs []Grid
	for _, size := range [][2]int{{6, 6}, {5, 7}, {7, 6}, {6, 8}} {
		h, w := size[0], size[1]
		full := NewGrid(h, w, 0)
		for i := range h {
			for j := range w {
				if i <= h-1-i && j <= w-1-j {
					c := 1 + rng.IntN(9)
					full[i][j], full[i][w-1-j], full[h-1-i][j], full[h-1-i][w-1-j] = c, c, c, c
				}
			}
		}
		in := NewGrid(h, w, 0)
		for i := range h {
			copy(in[i], full[i])
		}
		for i := range h {
			for j := range w {
				// Black out (i, j) unless that leaves it, or a blacked-out neighbor in its orbit, with
				// neither mirror intact.
				if rng.Float64() > 0.35 {
					continue
				}
				in[i][j] = 0
				ok := true
				for _, c := range [][2]int{{i, j}, {i, w - 1 - j}, {h - 1 - i, j}} {
					r, k := c[0], c[1]
					if in[r][k] == 0 && in[r][w-1-k] == 0 && in[h-1-r][k] == 0 {
						ok = false
					}
				}
				if !ok {
					in[i][j] = full[i][j]
				}
			}
		}
		inputs, outputs = append(inputs, in), append(outputs, full)
	}
	task := Task{ID: "symmetry"}
	for i := range inputs {
		p := Pair{Input: inputs[i], Output: outputs[i]}
		if i < len(inputs)-1 {
			task.Train = append(task.Train, p)
		} else {
			task.Test = append(task.Test, p)
		}
	}
	return task
}

// TestAnnotateTwoActions checks that a symmetry-completion task fits no category with one action and
// fits reflect with two (a flip of rows and a flip of columns, each followed by a translation), and that
// a one-action task keeps Annotate's annotation.
func TestAnnotateTwoActions(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	task := symmetryCompletionTask(rng)
	if one := Annotate(task); one.Category != CategoryNone {
		t.Fatalf("one action: %+v, want none", one)
	}
	ann := AnnotateTwoActions(task)
	t.Logf("two actions: %+v", ann)
	if ann.Category != CategoryReflect || ann.Note != "two actions" || len(ann.Actions) != 4 {
		t.Fatalf("two actions: %+v, want reflect with 4 actions", ann)
	}
	for i, a := range ann.Actions {
		if !strings.Contains(a, "reflect(0)") || !strings.Contains(a, "reflect(1)") {
			t.Errorf("pair %d: %q, want both reflections", i, a)
		}
	}
	inputs := annotTestRandomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}})
	transposed := annotTestTask("transpose", inputs, func(g Grid) Grid {
		y := NewGrid(g.Cols(), g.Rows(), 0)
		for i := range g {
			for j := range g[i] {
				y[j][i] = g[i][j]
			}
		}
		return y
	})
	if one, two := Annotate(transposed), AnnotateTwoActions(transposed); one.Category != CategoryReflect || two.Category != one.Category || two.Note != "" {
		t.Errorf("one-action task: Annotate %+v, AnnotateTwoActions %+v", one, two)
	}
}

// TestGenerateTwoActionAnnotations writes annotations/arc_training_two_actions.json (AnnotateTwoActions
// of the 400 training tasks); it runs only with LATFORMER_WRITE_ANNOTATIONS=1.
func TestGenerateTwoActionAnnotations(t *testing.T) {
	if os.Getenv("LATFORMER_WRITE_ANNOTATIONS") != "1" {
		t.Skip("set LATFORMER_WRITE_ANNOTATIONS=1 to regenerate annotations/arc_training_two_actions.json")
	}
	tasks := annotTestLoadARC(t)
	start := time.Now()
	anns := make([]Annotation, len(tasks))
	done := make(chan int)
	for w := range 2 {
		go func() {
			for i := w; i < len(tasks); i += 2 {
				anns[i] = AnnotateTwoActions(tasks[i])
			}
			done <- w
		}()
	}
	<-done
	<-done
	t.Logf("AnnotateTwoActions of %d tasks: %v", len(tasks), time.Since(start))
	annotTestLogCounts(t, anns)
	two := map[Category]int{}
	for _, a := range anns {
		if a.Note == "two actions" {
			two[a.Category]++
		}
	}
	t.Logf("of which with two actions: translate %d, rotate %d, reflect %d, scale %d",
		two[CategoryTranslate], two[CategoryRotate], two[CategoryReflect], two[CategoryScale])
	if err := SaveAnnotations(filepath.Join("annotations", "arc_training_two_actions.json"), anns); err != nil {
		t.Fatal(err)
	}
}

// TestTwoActionAnnotationsMatch checks the embedded two-action annotation against a fresh
// AnnotateTwoActions on the tasks it annotates with two actions and on the first 20 others (the whole
// file takes about 2 minutes: TestGenerateTwoActionAnnotations). It skips without the ARC data.
func TestTwoActionAnnotationsMatch(t *testing.T) {
	tasks := annotTestLoadARC(t)
	embedded, err := TwoActionAnnotations()
	if err != nil {
		t.Fatal(err)
	}
	if len(embedded) != len(tasks) {
		t.Errorf("embedded file has %d tasks, the data %d", len(embedded), len(tasks))
	}
	others, checked := 0, 0
	for _, task := range tasks {
		want, ok := embedded[task.ID]
		if !ok {
			t.Errorf("task %s missing from the embedded file", task.ID)
			continue
		}
		if want.Note != "two actions" {
			if others >= 20 {
				continue
			}
			others++
		}
		checked++
		if got := AnnotateTwoActions(task); !reflect.DeepEqual(got, want) {
			t.Errorf("task %s: embedded %+v, computed %+v (regenerate with LATFORMER_WRITE_ANNOTATIONS=1)", task.ID, want, got)
		}
	}
	t.Logf("checked %d tasks (%d with two actions)", checked, checked-others)
}
