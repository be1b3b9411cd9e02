// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runmeta

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFingerprint: the fingerprint changes with a file's content, a file added, or a path that is
// absent, and not with the directory's location.
func TestFingerprint(t *testing.T) {
	mk := func(files map[string]string) string {
		dir := filepath.Join(t.TempDir(), "data")
		for name, body := range files {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fp, err := Fingerprint(dir)
		if err != nil {
			t.Fatal(err)
		}
		return fp
	}
	base := map[string]string{"a.json": "1", "sub/b.json": "2"}
	a, b := mk(base), mk(base)
	if a != b || !strings.HasPrefix(a, "sha256:") {
		t.Errorf("same files in two places: %s vs %s", a, b)
	}
	for name, files := range map[string]map[string]string{
		"content": {"a.json": "1", "sub/b.json": "3"},
		"added":   {"a.json": "1", "sub/b.json": "2", "c.json": ""},
		"renamed": {"a.json": "1", "sub/c.json": "2"},
	} {
		if mk(files) == a {
			t.Errorf("%s: same fingerprint %s", name, a)
		}
	}
	absent, err := Fingerprint(filepath.Join(t.TempDir(), "none"))
	if err != nil || absent == a {
		t.Errorf("absent directory: %s, %v", absent, err)
	}
}

func TestCodeVersionAndDiff(t *testing.T) {
	if v := CodeVersion(); !strings.HasPrefix(v, "git:") && !strings.HasPrefix(v, "exe:") {
		t.Errorf("CodeVersion() = %q", v)
	}
	m := Meta{Command: "arc", Settings: []string{"steps=1"}, Code: "c", Data: "d"}
	if d := m.Diff(m); d != "" {
		t.Errorf("Diff with itself: %q", d)
	}
	o := m
	o.Settings = []string{"steps=1", "limit=3"}
	if d := m.Diff(o); !strings.Contains(d, `"(none)" vs "limit=3"`) {
		t.Errorf("Diff of settings: %q", d)
	}
	o = m
	o.Data = "e"
	if d := m.Diff(o); d != "data fingerprint d vs e" {
		t.Errorf("Diff of data: %q", d)
	}
}
