// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package hparams is the typed layer in front of GoMLX's hyperparameters: each package declares its
// hyperparameters once (Def: the model.Store key, the default, whose Go type is the parameter's, and for
// a parameter of a few values the values it accepts), a Table collects them, and Settings are values
// keyed by those keys. Table.Parse reads the command line's --set "key=value;..." once, with GoMLX's
// own parsing of each value (ui/commandline.ParseSettings), and checks every key and value before any
// work: an unknown key is an error that names the nearest known keys, a bad value one that names the
// values or the type the parameter accepts. Settings.Apply then writes the values into a model.Store,
// where the model reads them as every GoMLX model does (model.GetParamOr).
package hparams

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ui/commandline"
)

// Param declares one hyperparameter: its key (a model.Store key), its default value, whose Go type
// (bool, int, float64 or string) every value must have, and what else a value must satisfy.
type Param struct {
	Key     string
	Default any
	// Choices are the values the parameter accepts (nil: any value of its type).
	Choices []any
	// Check, when not nil, returns an error for a value the parameter does not accept (after the type
	// and Choices).
	Check func(value any) error
}

// Def declares the hyperparameter key with its default.
func Def(key string, def any) Param {
	switch def.(type) {
	case bool, int, float64, string:
	default:
		panic(fmt.Sprintf("hparams.Def(%q): default %v of type %T; want bool, int, float64 or string", key, def, def))
	}
	return Param{Key: key, Default: def}
}

// OneOf returns p accepting only the values given (of p's type; the default among them).
func (p Param) OneOf(values ...any) Param {
	p.Choices = values
	return p
}

// AtLeast returns p (an int or float64 parameter) accepting only values >= min.
func (p Param) AtLeast(min float64) Param {
	p.Check = func(v any) error {
		if x, _ := toFloat(v); x < min {
			return fmt.Errorf("must be >= %s", strconv.FormatFloat(min, 'g', -1, 64))
		}
		return nil
	}
	return p
}

// Checked returns p with check applied to every value (after its type and choices).
func (p Param) Checked(check func(value any) error) Param {
	p.Check = check
	return p
}

// allowed says which values p accepts, for error messages.
func (p Param) allowed() string {
	if len(p.Choices) > 0 {
		s := make([]string, len(p.Choices))
		for i, c := range p.Choices {
			s[i] = fmt.Sprint(c)
		}
		return "allowed values: " + strings.Join(s, ", ")
	}
	return fmt.Sprintf("want %s (default %v)", typeName(p.Default), p.Default)
}

// typeName is how errors name the type of a default.
func typeName(v any) string {
	switch v.(type) {
	case bool:
		return "true or false"
	case int:
		return "a whole number"
	case float64:
		return "a number"
	default:
		return "a string"
	}
}

// convert returns v as a value of p's type (an int for a float64 parameter becomes a float64) and
// checks it against p's choices and check.
func (p Param) convert(v any) (any, error) {
	switch p.Default.(type) {
	case float64:
		switch x := v.(type) {
		case float64:
		case int:
			v = float64(x)
		default:
			return nil, fmt.Errorf("%v (%T): %s", v, v, p.allowed())
		}
	default:
		if fmt.Sprintf("%T", v) != fmt.Sprintf("%T", p.Default) {
			return nil, fmt.Errorf("%v (%T): %s", v, v, p.allowed())
		}
	}
	if len(p.Choices) > 0 && !slices.Contains(p.Choices, v) {
		return nil, fmt.Errorf("%v is not an allowed value; %s", v, p.allowed())
	}
	if p.Check != nil {
		if err := p.Check(v); err != nil {
			return nil, fmt.Errorf("%v: %w", v, err)
		}
	}
	return v, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// Table holds declared hyperparameters by key.
type Table map[string]Param

// NewTable returns the table of params; a key declared twice is a programmer error (panic).
func NewTable(params ...Param) Table {
	t := Table{}
	for _, p := range params {
		if _, ok := t[p.Key]; ok {
			panic(fmt.Sprintf("hparams.NewTable: %q declared twice", p.Key))
		}
		if p.Default != nil {
			if _, err := p.convert(p.Default); err != nil {
				panic(fmt.Sprintf("hparams.NewTable: the default of %q: %v", p.Key, err))
			}
		}
		t[p.Key] = p
	}
	return t
}

// Join returns the union of tables; a key in two of them is an error.
func Join(tables ...Table) (Table, error) {
	out := Table{}
	for _, t := range tables {
		for k, p := range t {
			if _, ok := out[k]; ok {
				return nil, fmt.Errorf("hyperparameter %q declared twice", k)
			}
			out[k] = p
		}
	}
	return out, nil
}

// FromDefaults declares every key of defaults with its value (no choices).
func FromDefaults(defaults map[string]any) Table {
	t := Table{}
	for k, v := range defaults {
		t[k] = Def(k, v)
	}
	return t
}

// Defaults returns every key's default, a new map.
func (t Table) Defaults() map[string]any {
	out := make(map[string]any, len(t))
	for k, p := range t {
		out[k] = p.Default
	}
	return out
}

// Keys returns the keys, sorted.
func (t Table) Keys() []string { return slices.Sorted(maps.Keys(t)) }

// lookup returns the parameter a key names: its base name (model.BasePath) for a scoped key
// ("/latformer_0/latformer_heads").
func (t Table) lookup(key string) (Param, error) {
	p, ok := t[model.BasePath(key)]
	if !ok {
		return p, t.unknown(key)
	}
	return p, nil
}

// unknown is the error of an unknown key: it names the nearest known keys.
func (t Table) unknown(key string) error {
	near := t.Nearest(model.BasePath(key), 3)
	if len(near) == 0 {
		return fmt.Errorf("unknown hyperparameter %q (known: %s)", key, strings.Join(t.Keys(), ", "))
	}
	return fmt.Errorf("unknown hyperparameter %q; nearest known: %s", key, strings.Join(near, ", "))
}

// Nearest returns up to n known keys nearest to key by edit distance (Levenshtein), nearest first, among
// those within a third of the key's length (at least 2 edits) or that contain it or are contained in it.
func (t Table) Nearest(key string, n int) []string {
	type cand struct {
		key  string
		dist int
	}
	var cands []cand
	limit := max(2, len(key)/3)
	for k := range t {
		d := editDistance(key, k)
		if d <= limit || strings.Contains(k, key) || strings.Contains(key, k) {
			cands = append(cands, cand{k, d})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.key, b.key)
	})
	var out []string
	for i := 0; i < len(cands) && i < n; i++ {
		out = append(out, cands[i].key)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Check returns settings with every value of its parameter's type (an int given for a float64
// parameter converted), a former key (Retire) replaced by what it reads as (with Parse's warning), or an
// error naming the first unknown or removed key or bad value. It is CheckTo(s, os.Stderr).
func (t Table) Check(s Settings) (Settings, error) { return t.CheckTo(s, os.Stderr) }

// CheckTo is Check writing the warning about a former key to warnings (nil: os.Stderr).
func (t Table) CheckTo(s Settings, warnings io.Writer) (Settings, error) {
	out := make(Settings, len(s))
	for i, e := range s {
		p, err := t.lookup(e.Key)
		if f, ok := FormerKey(e.Key); err != nil && ok {
			// A former key (Retire): the setting it now reads as, as Parse reads it.
			if e, err = t.checkFormer(f, e, out[:i], warnings); err != nil {
				return nil, err
			}
			out[i] = e
			continue
		}
		if err != nil {
			return nil, err
		}
		v, err := p.convert(e.Value)
		if err != nil {
			return nil, fmt.Errorf("%s=%w", e.Key, err)
		}
		out[i] = Setting{Key: e.Key, Value: v}
	}
	return out, nil
}

// CheckScope checks the value scope holds for each key of t (its own, model.Scope.GetParam) as Check checks a
// setting: a store filled by other means than Parse (store.SetParam by a library user) is checked where it is
// used, with the same rules. It returns an error naming the first key, in key order, whose value t rejects.
func (t Table) CheckScope(scope *model.Scope) error {
	for _, key := range t.Keys() {
		v, found := scope.GetParam(key)
		if !found {
			continue
		}
		if _, err := t[key].convert(v); err != nil {
			return fmt.Errorf("%s=%w", key, err)
		}
	}
	return nil
}

// Parse reads settings in GoMLX's --set syntax, "key=value;key=value" (a key may carry a scope,
// "/scope/key=value"; an entry "file:PATH" reads the settings of a file, one or more per line, "#"
// starting a comment line), each value parsed by commandline.ParseSettings as the type of its
// parameter's default, then checked (Check). Later entries of a key replace earlier ones. It is
// ParseTo(text, os.Stderr).
func (t Table) Parse(text string) (Settings, error) { return t.ParseTo(text, os.Stderr) }

// ParseTo is Parse writing the warning about a former key (Retire) to warnings (nil: os.Stderr).
func (t Table) ParseTo(text string, warnings io.Writer) (Settings, error) {
	var out Settings
	for _, entry := range strings.Split(text, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if path, ok := strings.CutPrefix(entry, "file:"); ok {
			s, err := t.parseFile(path, warnings)
			if err != nil {
				return nil, err
			}
			out = out.With(s...)
			continue
		}
		key, value, ok := strings.Cut(entry, "=")
		if !ok || strings.Contains(value, "=") {
			return nil, fmt.Errorf("%q: each setting is key=value", entry)
		}
		p, err := t.lookup(key)
		if err != nil {
			f, ok := FormerKey(key)
			if !ok {
				return nil, err
			}
			s, err := t.parseFormer(f, key, value, out, warnings)
			if err != nil {
				return nil, err
			}
			out = out.With(s)
			continue
		}
		// GoMLX's parsing of the value, as the type of the default.
		scratch := model.NewStore()
		scratch.SetParam(p.Key, p.Default)
		if _, err := commandline.ParseSettings(scratch, p.Key+"="+value); err != nil {
			return nil, fmt.Errorf("%s=%s: %s", key, value, p.allowed())
		}
		v, _ := scratch.GetParam(p.Key)
		if v, err = p.convert(v); err != nil {
			return nil, fmt.Errorf("%s=%w", key, err)
		}
		out = out.With(Setting{Key: key, Value: v})
	}
	return out, nil
}

// parseFile reads the settings of a "file:" entry.
func (t Table) parseFile(path string, warnings io.Writer) (Settings, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("settings file: %w", err)
	}
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	s, err := t.ParseTo(strings.Join(lines, ";"), warnings)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Setting is the value of one hyperparameter.
type Setting struct {
	Key   string
	Value any
}

// Settings are hyperparameter values, each key at most once, in the order they were set.
type Settings []Setting

// With returns s with the given settings set, each replacing the key's earlier value (s is not
// changed).
func (s Settings) With(more ...Setting) Settings {
	out := slices.Clone(s)
	for _, m := range more {
		out = slices.DeleteFunc(out, func(e Setting) bool { return e.Key == m.Key })
		out = append(out, m)
	}
	return out
}

// Get returns the value of key in s.
func (s Settings) Get(key string) (any, bool) {
	for _, e := range s {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// String writes s in the --set syntax, "key=value;key=value" (Parse reads it back).
func (s Settings) String() string {
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = fmt.Sprintf("%s=%v", e.Key, e.Value)
	}
	return strings.Join(parts, ";")
}

// Apply writes s into store (store.SetParam, a scoped key in its scope).
func (s Settings) Apply(store *model.Store) {
	for _, e := range s {
		store.SetParam(e.Key, e.Value)
	}
}

// Overrides describes what user changes, one "key: from → to" per setting: from is the value base
// (the run's own settings, applied before user's) gives the key, else its default in t.
func (t Table) Overrides(user, base Settings) []string {
	var out []string
	for _, e := range user {
		from, ok := base.Get(e.Key)
		if !ok {
			from = t[model.BasePath(e.Key)].Default
		}
		if fmt.Sprint(from) == fmt.Sprint(e.Value) {
			out = append(out, fmt.Sprintf("%s: %v (unchanged)", e.Key, e.Value))
		} else {
			out = append(out, fmt.Sprintf("%s: %v → %v", e.Key, from, e.Value))
		}
	}
	return out
}
