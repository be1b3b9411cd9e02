// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package readmecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/latformer/latformer/"

// packageImports returns, for every package of the module (by its directory relative to the root, with
// slashes), the packages of the module its non-test files import.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "runs" || d.Name() == "testdata" || d.Name() == "notebooks") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, module); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	tableRow = regexp.MustCompile("^\\| `([^`]+)` \\| (.*) \\|$")
	quoted   = regexp.MustCompile("`([a-z0-9/]+)`")
)

// TestReadmeImportsTable checks the README's table of the imports between the packages against the
// code: every package of the module but internal/ and examples/ has a row, and each row lists exactly the
// module's packages that the package imports (internal ones included).
func TestReadmeImportsTable(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "Imports between the packages")
	if !ok {
		t.Fatal(`README.md has no "Imports between the packages" table`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	rows := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		m := tableRow.FindStringSubmatch(line)
		if m == nil || m[1] == "package" {
			continue
		}
		var deps []string
		for _, q := range quoted.FindAllStringSubmatch(m[2], -1) {
			deps = append(deps, q[1])
		}
		rows[m[1]] = deps
	}
	actual := packageImports(t, root)
	if len(rows) < 10 {
		t.Fatalf("the imports table has %d rows; want one per package", len(rows))
	}
	for pkg, deps := range actual {
		written, ok := rows[pkg]
		if !ok {
			if !strings.HasPrefix(pkg, "internal/") && !strings.HasPrefix(pkg, "examples/") {
				t.Errorf("README imports table: no row for package %s (it imports %v)", pkg, deps)
			}
			continue
		}
		slices.Sort(deps)
		slices.Sort(written)
		if !slices.Equal(deps, written) {
			t.Errorf("README imports table, %s: written %v, the code imports %v", pkg, written, deps)
		}
	}
	for pkg := range rows {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("README imports table: row for %s, which is not a package of the module", pkg)
		}
	}
}

// Header is the first line (after a #! line) of every source file, in the file's comment syntax.
const Header = "Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0"

// TestLicense checks that the repository holds the Apache-2.0 license and that every source file (Go,
// Python, shell, JavaScript, the Makefile) starts with the license header, after its #! line if it has one.
func TestLicense(t *testing.T) {
	root := filepath.Join("..", "..")
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil || !strings.Contains(string(license), "Apache License") || !strings.Contains(string(license), "Version 2.0, January 2004") {
		t.Fatalf("LICENSE must hold the Apache License 2.0 (err %v)", err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" || d.Name() == "runs" || d.Name() == "bin" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		ext := filepath.Ext(path)
		if d.IsDir() || !(ext == ".go" || ext == ".py" || ext == ".sh" || ext == ".mjs" || d.Name() == "Makefile" || d.Name() == "Dockerfile" || path == filepath.Join(root, ".ci", "run")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := strings.SplitN(string(data), "\n", 3)
		first := lines[0]
		if strings.HasPrefix(first, "#!") && len(lines) > 1 {
			first = lines[1]
		}
		comment := "# "
		if ext == ".go" || ext == ".mjs" {
			comment = "// "
		}
		if first != comment+Header {
			t.Errorf("%s: the first line must be %q, got %q", path, comment+Header, first)
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("only %d source files checked: the walk missed the tree", checked)
	}

}

// TestLibrariesChooseNoBackend checks that no library package chooses a compute backend: outside the
// programs (cmd/, examples/, bench/), package backend (which offers the constructors) and internal/testutil (the
// tests' backend), no non-test file calls GoMLX's compute.New, compute.NewWithConfig or compute.MustNew, nor
// backend.New or backend.NewWithConfig. Libraries take a backend, or a function that makes one per worker,
// from the program.
func TestLibrariesChooseNoBackend(t *testing.T) {
	root := filepath.Join("..", "..")
	constructors := map[string][]string{
		"github.com/gomlx/compute": {"New", "NewWithConfig", "MustNew"},
		module + "backend":         {"New", "NewWithConfig"},
	}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case path != root && strings.HasPrefix(d.Name(), "."), rel == "cmd", rel == "examples", rel == "bench", rel == "backend", rel == "internal/testutil",
				d.Name() == "runs", d.Name() == "testdata", d.Name() == "notebooks", d.Name() == "scratch":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		names := map[string][]string{} // local package name → its constructors
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if c, ok := constructors[p]; ok {
				name := p[strings.LastIndex(p, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				names[name] = c
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(names[x.Name], sel.Sel.Name) {
				t.Errorf("%s: calls %s.%s: a library package must take its backend from the program", rel, x.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("only %d library files checked: the walk missed the tree", checked)
	}
}
