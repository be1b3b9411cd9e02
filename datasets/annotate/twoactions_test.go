// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package annotate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// symmetryCompletionTask is a two-action task: a grid symmetric under both flips with some cells
// blacked out becomes the whole grid. Each blacked-out cell has its left-right or its up-down mirror
// intact, and some only the one or the other, so y = f(F₁·x, F₀·x, x) with both flips (and the
// translations that bring them back onto the grid).
func symmetryCompletionTask(rng *rand.Rand) datasets.Task {
	var inputs, outputs []datasets.Grid
	for _, size := range [][2]int{{6, 6}, {5, 7}, {7, 6}, {6, 8}} {
		h, w := size[0], size[1]
		full := datasets.NewGrid(h, w, 0)
		for i := range h {
			for j := range w {
				if i <= h-1-i && j <= w-1-j {
					c := 1 + rng.IntN(9)
					full[i][j], full[i][w-1-j], full[h-1-i][j], full[h-1-i][w-1-j] = c, c, c, c
				}
			}
		}
		in := full.Clone()
		for i := range h {
			for j := range w {
				// Black out (i, j) unless that leaves it, or a blacked-out neighbor in its orbit, with
				// neither mirror intact.
				if rng.Float64() > 0.35 {
					continue
				}
				in[i][j] = 0
				for _, c := range [][2]int{{i, j}, {i, w - 1 - j}, {h - 1 - i, j}} {
					r, k := c[0], c[1]
					if in[r][k] == 0 && in[r][w-1-k] == 0 && in[h-1-r][k] == 0 {
						in[i][j] = full[i][j]
						break
					}
				}
			}
		}
		inputs, outputs = append(inputs, in), append(outputs, full)
	}
	task := datasets.Task{ID: "symmetry"}
	for i := range inputs {
		p := datasets.Pair{Input: inputs[i], Output: outputs[i]}
		if i < len(inputs)-1 {
			task.Train = append(task.Train, p)
		} else {
			task.Test = append(task.Test, p)
		}
	}
	return task
}

// TestTwoActions checks that a symmetry-completion task fits no category with one action and fits
// reflect with two (a flip of rows and a flip of columns, each followed by a translation), and that a
// one-action task keeps Task's annotation.
func TestTwoActions(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	task := symmetryCompletionTask(rng)
	if one := Task(task); one.Category != datasets.CategoryNone || one.Note != noteNoFit {
		t.Fatalf("one action: %+v, want none (%q)", one, noteNoFit)
	}
	ann := TwoActions(task)
	if ann.Category != datasets.CategoryReflect || ann.Note != NoteTwoActions || len(ann.Actions) != 4 {
		t.Fatalf("two actions: %+v, want reflect with 4 actions", ann)
	}
	for i, a := range ann.Actions {
		if !strings.Contains(a, "reflect(0)") || !strings.Contains(a, "reflect(1)") || !strings.Contains(a, " + ") {
			t.Errorf("pair %d: %q, want both reflections joined by +", i, a)
		}
	}
	inputs := randomInputs(rng, [][2]int{{5, 7}, {6, 4}, {3, 8}})
	transposed := makeTask("transpose", inputs, func(g datasets.Grid) datasets.Grid {
		y := datasets.NewGrid(g.Cols(), g.Rows(), 0)
		for i := range g {
			for j := range g[i] {
				y[j][i] = g[i][j]
			}
		}
		return y
	})
	if one, two := Task(transposed), TwoActions(transposed); one.Category != datasets.CategoryReflect || two.Category != one.Category || two.Note != "" {
		t.Errorf("one-action task: Task %+v, TwoActions %+v", one, two)
	}
}
