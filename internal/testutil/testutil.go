// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package testutil holds what the project's tests share: the compute backend they run on and random
// input tensors drawn from a seeded generator, so that every test builds them the same way.
package testutil

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend" // The pure-Go backend of BackendConfig.
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/datasets"
)

// BackendConfig is the GoMLX backend configuration the tests run on: the pure-Go backend, which needs
// no C library and gives the same numbers on every machine, with one graph node at a time
// ("ops_sequential"), so that tests running side by side do not compete for the worker pool.
const BackendConfig = "go:ops_sequential"

// Backend returns a new backend of BackendConfig; it fails t when the backend cannot be created.
func Backend(t testing.TB) compute.Backend {
	t.Helper()
	b, err := compute.NewWithConfig(BackendConfig)
	if err != nil {
		t.Fatalf("creating the test backend %q: %v", BackendConfig, err)
	}
	return b
}

// ARCData returns the data directory of $LATFORMER_DATA (make test sets it) and its ARC split's directory
// (datasets.ARCSplitDir); it skips the test where either is missing.
func ARCData(t testing.TB, split string) (dataDir, splitDir string) {
	t.Helper()
	dataDir = os.Getenv(datasets.EnvDataDir)
	if dataDir == "" {
		t.Skipf("no ARC data: $%s is not set", datasets.EnvDataDir)
	}
	splitDir, err := datasets.ARCSplitDir(dataDir, split)
	if err != nil {
		t.Skipf("no ARC %s split: %v", split, err)
	}
	return dataDir, splitDir
}

// NormalTensor returns a float32 tensor of the given dimensions whose values, in row-major order, are
// successive standard normal draws of rng (rng.NormFloat64).
func NormalTensor(rng *rand.Rand, dims ...int) *tensors.Tensor {
	return fill(dims, func() float32 { return float32(rng.NormFloat64()) })
}

// UniformTensor returns a float32 tensor of the given dimensions whose values, in row-major order, are
// successive uniform draws of rng in [0, 1) (rng.Float32).
func UniformTensor(rng *rand.Rand, dims ...int) *tensors.Tensor {
	return fill(dims, rng.Float32)
}

// fill returns a float32 tensor of dims with next() in every cell, in row-major order.
func fill(dims []int, next func() float32) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
	tensors.MustMutableFlatData[float32](t, func(f []float32) {
		for i := range f {
			f[i] = next()
		}
	})
	return t
}

// CheckDocDefaults checks that the doc comment of every exported constant of the package in dir whose
// value is a key of defaults ends with that key's default in brackets, as in
//
//	// ParamSteps is the maximum number of training steps per task [500].
//	ParamSteps = "train_steps"
//
// so that `go doc` shows the defaults and cannot drift from the map they are read from. Numbers
// compare as numbers ("[-2]" matches -2.0), booleans and strings as written.
func CheckDocDefaults(t testing.TB, dir string, defaults map[string]any) {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 || !vs.Names[0].IsExported() {
					continue
				}
				lit, ok := vs.Values[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				key, _ := strconv.Unquote(lit.Value)
				want, ok := defaults[key]
				if !ok {
					continue
				}
				checked++
				name := vs.Names[0].Name
				doc := strings.TrimSpace(vs.Doc.Text())
				open := strings.LastIndex(doc, "[")
				if open < 0 || !strings.HasSuffix(strings.TrimSuffix(doc, "."), "]") {
					t.Errorf("%s (%q): the doc comment does not end with its default in brackets [%v]", name, key, want)
					continue
				}
				got := strings.TrimSuffix(strings.TrimSuffix(doc, "."), "]")[open+1:]
				if !sameDefault(got, want) {
					t.Errorf("%s (%q): the doc comment says [%s], the default is %v", name, key, got, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("no constant of %s names a key of the defaults", dir)
	}
}

// sameDefault says whether a default written in a doc comment equals want.
func sameDefault(written string, want any) bool {
	switch w := want.(type) {
	case int:
		v, err := strconv.ParseFloat(written, 64)
		return err == nil && v == float64(w)
	case float64:
		v, err := strconv.ParseFloat(written, 64)
		return err == nil && v == w
	default:
		return written == fmt.Sprint(want)
	}
}

// CheckParamsPage checks the table of hyperparameters of a Markdown page (docs/hyperparameters.md):
// its rows, "| `key` | default | meaning |" (a row may name several keys with one default: "`a`, `b`"),
// must name every key of defaults exactly once and no other, each with its default (compared as
// CheckDocDefaults does).
func CheckParamsPage(t testing.TB, page string, defaults map[string]any) {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // key -> the default its row gives
	for i, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			t.Errorf("%s:%d: a row of fewer than three cells: %q", page, i+1, line)
			continue
		}
		def := strings.TrimSpace(cells[2])
		for _, k := range strings.Split(cells[1], ",") {
			k = strings.Trim(strings.TrimSpace(k), "`")
			if _, ok := rows[k]; ok {
				t.Errorf("%s:%d: %q has a row already", page, i+1, k)
			}
			rows[k] = def
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no row \"| `key` | default | meaning |\" found", page)
	}
	for k, want := range defaults {
		got, ok := rows[k]
		switch {
		case !ok:
			t.Errorf("%s: no row for %q (default %v)", page, k, want)
		case !sameDefault(got, want):
			t.Errorf("%s: %q has the default %s, the declared one is %v", page, k, got, want)
		}
	}
	for k := range rows {
		if _, ok := defaults[k]; !ok {
			t.Errorf("%s: a row for %q, which is not a declared hyperparameter", page, k)
		}
	}
}
