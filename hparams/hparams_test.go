// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package hparams

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ui/commandline"
)

var testTable = NewTable(
	Def("model_dim", 32).AtLeast(1),
	Def("model_layers", 1),
	Def("learning_rate", 1e-3),
	Def("mask_smoothing", false),
	Def("attention", "full").OneOf("full", "mask_only"),
	Def("actions", 1).OneOf(1, 2),
	Def("experts", "all").Checked(func(v any) error {
		if strings.ContainsAny(v.(string), "xyz") {
			return errTest
		}
		return nil
	}),
)

var errTest = &testError{}

type testError struct{}

func (*testError) Error() string { return "no x, y or z" }

// TestParse checks that Parse gives each value the type of its default, with GoMLX's own parsing (the
// same values commandline.ParseSettings puts in a store), that a later entry of a key replaces an earlier
// one, and that scoped keys and "file:" entries are read.
func TestParse(t *testing.T) {
	text := "model_dim=16; learning_rate=3e-4;mask_smoothing=true;attention=mask_only;learning_rate=0.01;/layer_0/actions=2"
	s, err := testTable.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{{"model_dim", 16}, {"mask_smoothing", true}, {"attention", "mask_only"}, {"learning_rate", 0.01}, {"/layer_0/actions", 2}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Parse(%q) = %v, want %v", text, s, want)
	}
	// The store gets what GoMLX's parsing gives it.
	ours, theirs := model.NewStore(), model.NewStore()
	ours.SetParams(testTable.Defaults())
	theirs.SetParams(testTable.Defaults())
	s.Apply(ours)
	if _, err := commandline.ParseSettings(theirs, strings.ReplaceAll(text, " ", "")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"model_dim", "learning_rate", "mask_smoothing", "attention", "/layer_0/actions", "actions"} {
		a, _ := ours.GetParam(key)
		b, _ := theirs.GetParam(key)
		if a != b {
			t.Errorf("%s: %v (%T) applied, GoMLX parses %v (%T)", key, a, a, b, b)
		}
	}
	if back, err := testTable.Parse(s.String()); err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("Parse(String()) = %v, %v; want %v", back, err, s)
	}
	file := filepath.Join(t.TempDir(), "settings.txt")
	os.WriteFile(file, []byte("# a comment\nmodel_dim=8;model_layers=2\n\nactions=2\n"), 0o644)
	s, err = testTable.Parse("model_dim=4;file:" + file + ";model_layers=3")
	if want := (Settings{{"model_dim", 8}, {"actions", 2}, {"model_layers", 3}}); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("with a file: %v, %v; want %v", s, err, want)
	}
}

// TestParseErrors checks the errors: an unknown key names the nearest known ones, a value of another type
// the type and the default, a value outside the choices the choices, one a check refuses the check's
// reason.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"model_dimm=8", `unknown hyperparameter "model_dimm"; nearest known: model_dim`},
		{"modle_dim=8", `nearest known: model_dim`},
		{"dim=8", `nearest known: model_dim`},
		{"qqqqqqqqqqqq=1", `unknown hyperparameter "qqqqqqqqqqqq" (known: actions, attention, experts, learning_rate,`},
		{"model_dim=8.5", `model_dim=8.5: want a whole number (default 32)`},
		{"model_dim=abc", `model_dim=abc: want a whole number (default 32)`},
		{"mask_smoothing=yes", `mask_smoothing=yes: want true or false (default false)`},
		{"learning_rate=fast", `learning_rate=fast: want a number (default 0.001)`},
		{"attention=fulll", `attention=fulll is not an allowed value; allowed values: full, mask_only`},
		{"actions=3", `actions=3 is not an allowed value; allowed values: 1, 2`},
		{"model_dim=0", `model_dim=0: must be >= 1`},
		{"experts=tx", `experts=tx: no x, y or z`},
		{"model_dim", `"model_dim": each setting is key=value`},
		{"model_dim=1=2", `each setting is key=value`},
		{"file:/no/such/file", `settings file`},
	} {
		_, err := testTable.Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): error %v, want one containing %q", c.text, err, c.want)
		}
	}
}

// TestCheck checks typed settings: an int for a float64 parameter becomes a float64, a value of another
// type, outside the choices or of an unknown key is an error.
func TestCheck(t *testing.T) {
	s, err := testTable.Check(Settings{{"learning_rate", 1}, {"model_dim", 8}, {"attention", "full"}})
	if want := (Settings{{"learning_rate", 1.0}, {"model_dim", 8}, {"attention", "full"}}); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("Check = %v, %v; want %v", s, err, want)
	}
	for _, bad := range []Settings{{{"model_dim", 8.0}}, {{"model_dim", "8"}}, {{"attention", "fulll"}}, {{"model_dimm", 8}}, {{"mask_smoothing", 1}}} {
		if _, err := testTable.Check(bad); err == nil {
			t.Errorf("Check(%v): no error", bad)
		}
	}
}

// TestCheckScope checks that a store's values are checked by the same rules as settings: good values (an
// int where a float64 is declared, keys of other tables ignored) pass, and each bad one is an error naming
// its key.
func TestCheckScope(t *testing.T) {
	store := model.NewStore()
	store.SetParam("model_dim", 8)
	store.SetParam("learning_rate", 1)
	store.SetParam("not_ours", "anything")
	if err := testTable.CheckScope(store.RootScope()); err != nil {
		t.Errorf("good values: %v", err)
	}
	for _, bad := range []Setting{{"model_dim", 0}, {"model_dim", 8.0}, {"attention", "fulll"}, {"actions", 3}, {"experts", "xx"}} {
		store := model.NewStore()
		store.SetParam(bad.Key, bad.Value)
		if err := testTable.CheckScope(store.RootScope()); err == nil || !strings.HasPrefix(err.Error(), bad.Key+"=") {
			t.Errorf("%s=%v: got %v, want an error naming the key", bad.Key, bad.Value, err)
		}
	}
}

// TestWithAndOverrides checks that With replaces a key's value in place of appending a second one, and
// that Overrides says what each user setting changes: from the base's value, else the default.
func TestWithAndOverrides(t *testing.T) {
	base := Settings{{"model_dim", 16}, {"attention", "mask_only"}}
	s := base.With(Setting{"model_dim", 8}, Setting{"actions", 2})
	if want := (Settings{{"attention", "mask_only"}, {"model_dim", 8}, {"actions", 2}}); !reflect.DeepEqual(s, want) {
		t.Errorf("With = %v, want %v", s, want)
	}
	if len(base) != 2 || base[0].Value != 16 {
		t.Errorf("With changed its receiver: %v", base)
	}
	user := Settings{{"model_dim", 8}, {"actions", 2}, {"attention", "mask_only"}}
	got := testTable.Overrides(user, base)
	want := []string{"model_dim: 16 → 8", "actions: 1 → 2", "attention: mask_only (unchanged)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Overrides = %q, want %q", got, want)
	}
}

// TestNewTablePanics checks that a key declared twice or a default outside its own choices is a
// programmer error.
func TestNewTablePanics(t *testing.T) {
	for _, params := range [][]Param{
		{Def("a", 1), Def("a", 2)},
		{Def("b", "x").OneOf("y", "z")},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewTable(%v): no panic", params)
				}
			}()
			NewTable(params...)
		}()
	}
	if _, err := Join(NewTable(Def("a", 1)), NewTable(Def("a", 1))); err == nil {
		t.Error("Join of two tables declaring a: no error")
	}
}
