// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// softGates returns gate values that select el with confidence p (sigmoid gates at p or 1-p, the chosen
// scaling factor at p and the others sharing 1-p).
func softGates(e Expert, el Element, p float64) GateValues {
	logits := e.LogitsFor(el, 1)
	v := GateValues{}
	k := 0
	for _, s := range e.segments() {
		vals := make([]float64, s.size(e))
		last := s.dims(e)[len(s.dims(e))-1]
		for i := range vals {
			on := logits[k] > 0
			k++
			switch {
			case s.softmax && on:
				vals[i] = p
			case s.softmax:
				vals[i] = (1 - p) / float64(last-1)
			case on:
				vals[i] = p
			default:
				vals[i] = 1 - p
			}
		}
		v[s.name] = vals
	}
	return v
}

// settingLogProb is the log-probability of the hard gate setting logits (> 0: set; one set per softmax
// row) under v read as independent gates (LikelyElements' model).
func settingLogProb(e Expert, v GateValues, logits []float32) float64 {
	lp, k := 0.0, 0
	for _, s := range e.segments() {
		for _, x := range v[s.name] {
			on := logits[k] > 0
			k++
			switch {
			case on:
				lp += math.Log(x)
			case !s.softmax:
				lp += math.Log(1 - x)
			}
		}
	}
	return lp
}

// TestLikelyElements: the first element is the hard reading (ElementOf), no action comes twice, and the
// least certain gate is the first to be flipped (TestLikelyElementsExactOrder checks the order).
func TestLikelyElements(t *testing.T) {
	e := Expert{Rows: 8, Cols: 8, Translation: true, Rotation: true, Reflection: true, Scaling: true,
		TranslationLayers: 3, MaxScale: 3, ZeroFill: true}
	want := Element{Shift: [2]int{0, -4}, ZeroFill: [2]bool{false, true}}
	v := softGates(e, want, 0.9)
	// One uncertain gate: the column's 4-bit at 0.55, so its flip (shift(0,0) with zero fill) comes second.
	v["translation"][1*e.TranslationLayers+2] = 0.55
	got := e.LikelyElements(v, 6)
	if len(got) != 6 {
		t.Fatalf("got %d elements, want 6", len(got))
	}
	if got[0] != e.ElementOf(v) || e.ActionOf(got[0]).String() != e.ActionOf(want).String() {
		t.Errorf("first = %s, want the hard reading %s", e.ActionOf(got[0]), e.ActionOf(want))
	}
	if a, b := e.ActionOf(got[1]).String(), e.ActionOf(Element{ZeroFill: [2]bool{false, true}}).String(); a != b {
		t.Errorf("second = %s, want the least certain gate flipped: %s", a, b)
	}
	seen := map[string]bool{}
	for i, el := range got {
		key := e.ActionOf(el).String()
		if seen[key] {
			t.Errorf("element %d (%s) repeats an action", i, key)
		}
		seen[key] = true
	}
}

// TestLikelyElementsExactOrder: with random soft gates, the listed actions are the most probable ones (by
// their most probable gate setting), in order, against a brute force over every gate setting: the
// enumeration is exact, not a heuristic.
func TestLikelyElementsExactOrder(t *testing.T) {
	e := Expert{Rows: 4, Cols: 4, Translation: true, Reflection: true, Scaling: true,
		TranslationLayers: 2, MaxScale: 2, ZeroFill: true}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 6 {
		v := GateValues{}
		for _, s := range e.segments() {
			vals := make([]float64, s.size(e))
			last := s.dims(e)[len(s.dims(e))-1]
			for i := range vals {
				vals[i] = rng.Float64()
			}
			if s.softmax {
				for r := 0; r < len(vals); r += last {
					sum := 0.0
					for _, x := range vals[r : r+last] {
						sum += x
					}
					for j := r; j < r+last; j++ {
						vals[j] /= sum
					}
				}
			}
			v[s.name] = vals
		}
		got := e.LikelyElements(v, 40)
		// Brute force: the best log-probability of each action over all gate settings (sigmoid gates
		// on/off, one factor per scaling row).
		best := map[string]float64{}
		n := e.NumGates()
		for mask := 0; mask < 1<<n; mask++ {
			logits := make([]float32, n)
			valid := true
			k := 0
			for _, s := range e.segments() {
				last := s.dims(e)[len(s.dims(e))-1]
				ones := 0
				for i := range s.size(e) {
					if mask&(1<<k) != 0 {
						logits[k] = 1
						ones++
					} else {
						logits[k] = -1
					}
					k++
					if s.softmax && (i+1)%last == 0 {
						valid = valid && ones == 1
						ones = 0
					}
				}
			}
			if !valid {
				continue
			}
			hard := GateValues{}
			k = 0
			for _, s := range e.segments() {
				vals := make([]float64, s.size(e))
				for i := range vals {
					if logits[k] > 0 {
						vals[i] = 1
					}
					k++
				}
				hard[s.name] = vals
			}
			el := e.ElementOf(hard)
			key := e.ActionOf(el).String()
			if lp, ok := best[key]; !ok || settingLogProb(e, v, logits) > lp {
				best[key] = settingLogProb(e, v, logits)
			}
		}
		// The listed actions are the 40 most probable actions (by their best setting), in order.
		var all []float64
		for _, lp := range best {
			all = append(all, lp)
		}
		for i, el := range got {
			key := e.ActionOf(el).String()
			rank := 0
			for _, lp := range all {
				if lp > best[key]+1e-9 {
					rank++
				}
			}
			if rank > i {
				t.Fatalf("trial %d: element %d (%s) has %d more probable actions before it", trial, i, key, rank)
			}
		}
	}
}

// TestShiftNeighbors: on a 10 × 10 canvas (4 translation bits) the neighbors of translate(8,6) are
// translate(7,6), (9,6), (8,5), (8,7), in that order, each one cell from it and each reached by the
// gates (LogitsFor then ElementOf gives it back); translate(7,6), which differs from (8,6) in every bit
// of the row shift, is not among the 16 most likely elements of soft gates confident at 0.8 in
// translate(8,6), so only the neighbors reach it. Circular shifts wrap at the side (0 − 1 = 9); zero-fill
// shifts keep their sign and stop below 2^4; an expert without translation has none.
func TestShiftNeighbors(t *testing.T) {
	e := Expert{Rows: 10, Cols: 10, Translation: true, Reflection: true, TranslationLayers: 4, MaxScale: 1}
	el := Element{Shift: [2]int{8, 6}}
	got := e.ShiftNeighbors(el)
	want := []string{"translate(7,6)", "translate(9,6)", "translate(8,5)", "translate(8,7)"}
	if len(got) != len(want) {
		t.Fatalf("%d neighbors of translate(8,6), want %d", len(got), len(want))
	}
	for i, n := range got {
		if s := e.ActionOf(n).String(); s != want[i] {
			t.Errorf("neighbor %d: %s, want %s", i, s, want[i])
		}
		back := e.ElementOf(softGates(e, n, 0.9))
		if e.ActionOf(back).String() != want[i] {
			t.Errorf("neighbor %s: the gates set by LogitsFor read back as %s", want[i], e.ActionOf(back))
		}
	}
	for _, l := range e.LikelyElements(softGates(e, el, 0.8), 16) {
		if e.ActionOf(l).String() == "translate(7,6)" {
			t.Errorf("translate(7,6) among the 16 likely elements of gates at translate(8,6); the neighbors would not be needed")
		}
	}
	wrap := e.ShiftNeighbors(Element{Shift: [2]int{0, 3}})
	if s := e.ActionOf(wrap[0]).String(); s != "translate(9,3)" {
		t.Errorf("rows −1 from translate(0,3): %s, want translate(9,3)", s)
	}
	z := Expert{Rows: 10, Cols: 10, Translation: true, ZeroFill: true, TranslationLayers: 4, MaxScale: 1}
	zn := z.ShiftNeighbors(Element{Shift: [2]int{-15, 0}, ZeroFill: [2]bool{true, false}})
	var names []string
	for _, n := range zn {
		names = append(names, z.ActionOf(n).String())
	}
	if len(zn) != 3 || names[0] != "shift(-14,0)" {
		t.Errorf("zero-fill shift(-15,0): neighbors %v; want shift(-14,0) first and 3 in all (-16 needs a fifth bit)", names)
	}
	if n := (Expert{Rows: 10, Cols: 10, Reflection: true}).ShiftNeighbors(el); n != nil {
		t.Errorf("an expert without translation: %d neighbors, want none", len(n))
	}
}
