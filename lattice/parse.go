// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"strconv"
	"strings"
)

// ComposeSeparator is the symbol between the parts of a composition in Action.String and ParseAction:
// "a∘b" is a ∘ b (b applied first).
const ComposeSeparator = "∘"

// ParseAction is the inverse of Action.String: it reads the description of an action back into an
// Action, so that ParseAction(a.String()) has the same String and the same Mask as a for every action
// of this package. It accepts
//
//	identity
//	translate(d1,...,dm)   Translation{Deltas}
//	shift(d1,...,dm)       Shift{Deltas}
//	rot90(a,b)xq           Rotation{AxisA: a, AxisB: b, Quarter: q}
//	reflect(a)             Reflection{Axis: a}
//	transpose(a,b)         DiagonalReflection{AxisA: a, AxisB: b}
//	antitranspose(a,b)     DiagonalReflection{AxisA: a, AxisB: b, Anti: true}
//	upscale(h1,...,hm)     Upscale{Factors}
//	downscale(h1,...,hm)   Downscale{Factors}
//
// and compositions of these joined by "∘" (ComposeSeparator; the last part is applied first, as in
// Compose). Spaces around names, numbers and separators are ignored. Checks that need no lattice are
// made here (axes >= 0, the two axes of a plane distinct, scaling factors >= 1, at least one number in
// a list); whether the action fits a lattice is left to Mask. Anything else is an error that quotes the
// input and says what was expected. The "g1 + g2" of the two-action model (experiments/arc) is two
// actions: split it and parse each.
func ParseAction(s string) (Action, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("lattice.ParseAction(%q): empty action", s)
	}
	if strings.Contains(s, "+") {
		return nil, fmt.Errorf("lattice.ParseAction(%q): %q joins two actions "+
			"(the two-action model's \"g1 + g2\"): parse each side", s, "+")
	}
	parts := strings.Split(s, ComposeSeparator)
	actions := make([]Action, 0, len(parts))
	for i, p := range parts {
		a, err := parseOneAction(strings.TrimSpace(p))
		if err != nil {
			if len(parts) > 1 {
				return nil, fmt.Errorf("lattice.ParseAction(%q): part %d of %d: %w", s, i+1, len(parts), err)
			}
			return nil, fmt.Errorf("lattice.ParseAction(%q): %w", s, err)
		}
		actions = append(actions, a)
	}
	return Compose(actions...), nil
}

// parseActionKinds lists the accepted forms, for error messages.
const parseActionKinds = "identity, translate(d,...), shift(d,...), rot90(a,b)xq, reflect(a), " +
	"transpose(a,b), antitranspose(a,b), upscale(h,...), downscale(h,...)"

// parseOneAction parses one part of a composition (no "∘").
func parseOneAction(p string) (Action, error) {
	if p == "" {
		return nil, fmt.Errorf("empty part (a %q with nothing on one side)", ComposeSeparator)
	}
	if p == "identity" {
		return IdentityAction{}, nil
	}
	open := strings.IndexByte(p, '(')
	closing := strings.IndexByte(p, ')')
	if open < 0 || closing < open {
		return nil, fmt.Errorf("%q is not an action: want one of %s", p, parseActionKinds)
	}
	name := strings.TrimSpace(p[:open])
	args, err := parseInts(p[open+1 : closing])
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p, err)
	}
	rest := strings.TrimSpace(p[closing+1:])
	if name != "rot90" && rest != "" {
		return nil, fmt.Errorf("%q: unexpected %q after the closing parenthesis", p, rest)
	}
	nArgs := func(want int) error {
		if len(args) != want {
			return fmt.Errorf("%q: %s takes %d numbers, got %d", p, name, want, len(args))
		}
		return nil
	}
	switch name {
	case "translate":
		return Translation{Deltas: args}, nil
	case "shift":
		return Shift{Deltas: args}, nil
	case "upscale", "downscale":
		for a, h := range args {
			if h < 1 {
				return nil, fmt.Errorf("%q: factor %d of axis %d must be >= 1", p, h, a)
			}
		}
		if name == "upscale" {
			return Upscale{Factors: args}, nil
		}
		return Downscale{Factors: args}, nil
	case "reflect":
		if err := nArgs(1); err != nil {
			return nil, err
		}
		if args[0] < 0 {
			return nil, fmt.Errorf("%q: axis %d must be >= 0", p, args[0])
		}
		return Reflection{Axis: args[0]}, nil
	case "rot90", "transpose", "antitranspose":
		if err := nArgs(2); err != nil {
			return nil, err
		}
		if args[0] < 0 || args[1] < 0 || args[0] == args[1] {
			return nil, fmt.Errorf("%q: the axes of the plane must be two distinct axes >= 0, got %d and %d",
				p, args[0], args[1])
		}
		if name != "rot90" {
			return DiagonalReflection{AxisA: args[0], AxisB: args[1], Anti: name == "antitranspose"}, nil
		}
		q, ok := strings.CutPrefix(rest, "x")
		if !ok {
			return nil, fmt.Errorf(
				"%q: rot90(a,b) must be followed by x and the number of quarter turns, e.g. rot90(0,1)x1", p)
		}
		quarter, err := strconv.Atoi(strings.TrimSpace(q))
		if err != nil {
			return nil, fmt.Errorf("%q: the number of quarter turns %q is not an integer", p, q)
		}
		return Rotation{AxisA: args[0], AxisB: args[1], Quarter: quarter}, nil
	}
	return nil, fmt.Errorf("%q: unknown action %q: want one of %s", p, name, parseActionKinds)
}

// parseInts parses a comma-separated list of at least one integer.
func parseInts(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("no numbers between the parentheses")
	}
	fields := strings.Split(s, ",")
	v := make([]int, len(fields))
	for i, f := range fields {
		x, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("number %d, %q, is not an integer", i+1, strings.TrimSpace(f))
		}
		v[i] = x
	}
	return v, nil
}
