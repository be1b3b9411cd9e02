// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package latformer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experts"
	"github.com/latformer/latformer/internal/testutil"
)

// TestPhasesOf checks the phases each recipe's restarts train through, in order, and their budgets: the
// default recipe holds a restart started at a proposal (held, 200 steps) and gives the others 100 soft
// steps; the paper's protocol trains 500 soft steps and nothing else; the search-free recipe adds the gate
// beam after 200 soft steps; train_hard_steps alone adds the hard phase. The most steps a restart may take
// (Progress.MaxSteps) adds up its phases' budgets.
func TestPhasesOf(t *testing.T) {
	backend := testutil.Backend(t)
	canvas := datasets.Canvas{Rows: 3, Cols: 3, Cells: make([]int32, 9)}
	examples := []Example{{Input: canvas, Output: canvas}}
	for _, c := range []struct {
		settings  string
		proposals int
		want      []string // per restart
		caps      []int
	}{
		{"", 1, []string{"held 200", "soft 100"}, []int{200, 100}},
		{"", 0, []string{"soft 100"}, []int{100}},
		{"", -1, []string{"soft 500"}, []int{500}},
		{"gate_init_train=soft;train_hard_steps=50", 1, []string{"soft 500, hard", "soft 100, hard"}, []int{550, 150}},
		{"train_steps=200;train_hard_steps=200;train_gate_beam=4;train_gate_beam_steps=25", -1, []string{"soft 200, beam"}, []int{200 + 4*25 + 175}},
		{"train_steps=200;train_hard_steps=200;train_gate_beam=4;train_gate_beam_steps=25;train_gate_beam_neighbors=true", -1, []string{"soft 200, beam"}, []int{200 + 8*25 + 175}},
	} {
		l := newTestLearner(t, backend, c.settings, 3)
		var starts *Starts
		if c.proposals >= 0 {
			starts = &Starts{Expert: experts.ExpertFromScope(l.store.RootScope(), 3, 3), Elements: make([]experts.Element, c.proposals)}
		}
		run, err := l.newFitRun(examples, starts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.prepare(run.batch, run.needHard()); err != nil { // the graphs' variables say whether there are mask experts
			t.Fatal(err)
		}
		for r, want := range c.want {
			run.restart = r
			var names []string
			caps := 0
			for _, p := range l.phasesOf(run) {
				name := strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", p), "latformer."), "Phase")
				switch p := p.(type) {
				case softPhase:
					name += fmt.Sprint(" ", p.steps)
				case heldPhase:
					name += fmt.Sprint(" ", p.steps)
				}
				names = append(names, name)
				caps += p.maxSteps(run)
			}
			if got := strings.Join(names, ", "); got != want || caps != c.caps[r] {
				t.Errorf("%q, %d proposals, restart %d: phases %q (at most %d steps), want %q (%d)", c.settings, c.proposals, r, got, caps, want, c.caps[r])
			}
		}
	}
}
