// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"strings"
	"testing"
)

// parseTestActions returns, on the lattice dims, every action of AllActions, shifts, every composition
// of two of them whose mask is defined, and a few longer compositions like those read from the experts'
// gates (translation ∘ shift ∘ reflection ∘ scaling ∘ rotation).
func parseTestActions(dims []int) []Action {
	base := AllActions(dims)
	shift := make([]int, len(dims))
	shift[0] = 1
	neg := make([]int, len(dims))
	neg[len(dims)-1] = -2
	base = append(base, Shift{Deltas: shift}, Shift{Deltas: neg})
	if len(dims) >= 2 {
		base = append(base, Rotation{AxisA: 0, AxisB: len(dims) - 1, Quarter: -1})
	}
	actions := append([]Action(nil), base...)
	for _, a := range base {
		for _, b := range base {
			actions = append(actions, Compose(a, b))
		}
	}
	if len(dims) == 2 {
		actions = append(actions,
			Compose(Translation{Deltas: []int{0, 3}}, Reflection{Axis: 0}, Upscale{Factors: []int{2, 3}}),
			Compose(Translation{Deltas: []int{1, 0}}, Shift{Deltas: []int{0, -3}}, Upscale{Factors: []int{3, 1}}),
			Compose(Translation{Deltas: []int{0, 1}}, Shift{Deltas: []int{1, 0}}, Reflection{Axis: 1}, Rotation{AxisA: 0, AxisB: 1, Quarter: 1}),
			Compose(Shift{Deltas: []int{1, 1}}, Upscale{Factors: []int{2, 2}}, Rotation{AxisA: 0, AxisB: 1, Quarter: 2}),
			Compose(Upscale{Factors: []int{2, 1}}, Downscale{Factors: []int{1, 3}}),
		)
	}
	return actions
}

// TestParseActionRoundTrip checks that ParseAction inverts String for every kind of action and for
// compositions "a∘b" (and longer) on 1-D, 2-D and 3-D lattices: ParseAction(a.String()) prints the
// same string and has the same mask as a wherever a's mask is defined (and fails where a's fails).
func TestParseActionRoundTrip(t *testing.T) {
	kinds := map[string]bool{}
	for _, dims := range [][]int{{5}, {4, 4}, {3, 5}, {3, 3, 2}} {
		for _, a := range parseTestActions(dims) {
			s := a.String()
			p, err := ParseAction(s)
			if err != nil {
				t.Fatalf("dims %v: ParseAction(%q): %v", dims, s, err)
			}
			if got := p.String(); got != s {
				t.Fatalf("dims %v: ParseAction(%q).String() = %q", dims, s, got)
			}
			want, errWant := a.Mask(dims)
			got, errGot := p.Mask(dims)
			if (errWant == nil) != (errGot == nil) {
				t.Fatalf("dims %v, %s: mask error %v, parsed action's %v", dims, s, errWant, errGot)
			}
			if errWant == nil && !want.Equal(got, 0) {
				t.Fatalf("dims %v, %s: the parsed action's mask differs from the action's", dims, s)
			}
			for _, part := range strings.Split(s, ComposeSeparator) {
				kinds[part[:strings.IndexAny(part+"(", "(")]] = true
			}
		}
	}
	for _, k := range []string{"identity", "translate", "shift", "rot90", "reflect", "transpose", "antitranspose", "upscale", "downscale"} {
		if !kinds[k] {
			t.Errorf("no %s action in the round trip", k)
		}
	}
}

// TestParseActionForms checks spaces are ignored, that the parsed value is the action written, and that
// the actions read from the gates in results/arc_training.csv parse.
func TestParseActionForms(t *testing.T) {
	cases := map[string]string{
		" translate( 1 , -2 ) ":                             "translate(1,-2)",
		"rot90(0,1) x 3":                                    "rot90(0,1)x3",
		"reflect(0) ∘ reflect(1)":                           "reflect(0)∘reflect(1)",
		"shift(-3,-1)∘upscale(5,1)":                         "shift(-3,-1)∘upscale(5,1)",
		"translate(0,1)∘shift(1,0)∘reflect(1)∘rot90(0,1)x1": "translate(0,1)∘shift(1,0)∘reflect(1)∘rot90(0,1)x1",
		"antitranspose(0,1)":                                "antitranspose(0,1)",
		"identity":                                          "identity",
	}
	for in, want := range cases {
		a, err := ParseAction(in)
		if err != nil {
			t.Fatalf("ParseAction(%q): %v", in, err)
		}
		if a.String() != want {
			t.Errorf("ParseAction(%q) = %q, want %q", in, a, want)
		}
	}
	a, err := ParseAction("rot90(0,1)x1")
	if err != nil || a != (Rotation{AxisA: 0, AxisB: 1, Quarter: 1}) {
		t.Errorf("ParseAction(rot90(0,1)x1) = %#v, %v", a, err)
	}
	m, err := ParseAction("translate(0,3)∘reflect(1)∘upscale(2,3)")
	if err != nil {
		t.Fatal(err)
	}
	want := Compose(Translation{Deltas: []int{0, 3}}, Reflection{Axis: 1}, Upscale{Factors: []int{2, 3}})
	mg, _ := m.Mask([]int{6, 6})
	mw, _ := want.Mask([]int{6, 6})
	if !mg.Equal(mw, 0) {
		t.Errorf("mask of the parsed composition differs from Compose's")
	}
}

// TestParseActionErrors checks that junk is an error that quotes the input and says what is wrong.
func TestParseActionErrors(t *testing.T) {
	cases := map[string]string{
		"":                          "empty action",
		"   ":                       "empty action",
		"∘":                         "empty part",
		"translate(1,0)∘":           "part 2 of 2",
		"translate":                 "is not an action",
		"translate()":               "no numbers",
		"translate(1,":              "is not an action",
		"translate(1,a)":            `"a", is not an integer`,
		"translate(1)(2)":           "unexpected",
		"rot90(0,1)":                "quarter turns",
		"rot90(0,1)x":               "not an integer",
		"rot90(0,1)y1":              "quarter turns",
		"rot90(0,0)x1":              "two distinct axes",
		"transpose(1)":              "takes 2 numbers",
		"reflect(-1)":               "must be >= 0",
		"reflect(0,1)":              "takes 1 numbers",
		"upscale(0,2)":              "must be >= 1",
		"downscale(2,-1)":           "must be >= 1",
		"foo(1)":                    `unknown action "foo"`,
		"identity(1)":               "unknown action",
		"rot90(0,1)x1 + shift(1,0)": "two actions",
		"reflect(0) reflect(1)":     "unexpected",
	}
	for in, want := range cases {
		_, err := ParseAction(in)
		if err == nil {
			t.Errorf("ParseAction(%q): no error", in)
			continue
		}
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "lattice.ParseAction") {
			t.Errorf("ParseAction(%q): error %q does not say %q", in, err, want)
		}
	}
}

// FuzzParseAction checks that whatever ParseAction accepts prints to a string that parses to the same
// string (ParseAction ∘ String is idempotent) and never panics.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"identity", "translate(1,-2)", "rot90(0,1)x1", "reflect(0)∘transpose(0,1)", "upscale(2,3)∘downscale(1,2)", "shift(0,-3)", "antitranspose(1,2)", "x(", "∘∘"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		b, err := ParseAction(a.String())
		if err != nil {
			t.Fatalf("ParseAction(%q) = %q, which does not parse: %v", s, a, err)
		}
		if b.String() != a.String() {
			t.Fatalf("ParseAction(%q) = %q, parsed again %q", s, a, b)
		}
	})
}
