// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/latformer/latformer/datasets"
)

// TestLabelStoreConcurrent saves 200 labels of different tasks from 50 goroutines and a stream of saves
// of one task: every label of a different task is there at the end, the shared task holds one of the
// saved notes, and the file is valid JSON after every save.
func TestLabelStoreConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "labels.json")
	s, err := OpenLabels(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for g := range 50 {
		wg.Go(func() {
			for k := range 4 {
				id := fmt.Sprintf("t%02d_%d", g, k)
				if err := s.Put(Label{TaskID: id, Priors: []string{"translation"}, Note: id}); err != nil {
					errs <- err
				}
				if err := s.Put(Label{TaskID: "shared", Priors: []string{"rotation"}, Note: id}); err != nil {
					errs <- err
				}
				data, err := os.ReadFile(path)
				if err != nil || !json.Valid(data) {
					errs <- fmt.Errorf("the file is not valid JSON while saving: %v", err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	labels, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 201 {
		t.Errorf("%d labels, want 200 + 1", len(labels))
	}
	for g := range 50 {
		for k := range 4 {
			id := fmt.Sprintf("t%02d_%d", g, k)
			if labels[id].Note != id {
				t.Errorf("label %s lost or wrong: %+v", id, labels[id])
			}
		}
	}
	if _, ok := labels[labels["shared"].Note]; !ok {
		t.Errorf("the shared task's note %q is none of the saved ones", labels["shared"].Note)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".labels.json.tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLabelStoreCrash simulates a crash during a save (after the temporary file is written, before the
// rename): the save fails, the previous file is byte for byte intact and no temporary file is left;
// then a half-written temporary file left by a killed process does not disturb the next save.
func TestLabelStoreCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "labels.json")
	s, err := OpenLabels(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(Label{TaskID: "a", Priors: []string{"reflection"}, Note: "first"}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	crash := errors.New("simulated crash")
	s.beforeRename = func(tmp string) error {
		// The new content is complete in the temporary file, the old file untouched.
		if data, err := os.ReadFile(tmp); err != nil || !strings.Contains(string(data), `"b"`) {
			t.Errorf("temporary file: %v", err)
		}
		return crash
	}
	if err := s.Put(Label{TaskID: "b", Priors: []string{"rotation"}}); !errors.Is(err, crash) {
		t.Fatalf("Put during a crash: %v", err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the file changed in a failed save:\n%s", after)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".labels.json.tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A process killed while writing leaves half a temporary file behind.
	if err := os.WriteFile(filepath.Join(dir, ".labels.json.tmp-123"), before[:len(before)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	s.beforeRename = nil
	if err := s.Put(Label{TaskID: "c", Priors: []string{"scaling"}}); err != nil {
		t.Fatal(err)
	}
	labels, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	if labels["a"].Note != "first" || labels["c"].Priors[0] != "scaling" || len(labels) != 2 {
		t.Errorf("labels after the crash: %v", labels)
	}
}

// TestLabelStoreKilled kills (SIGKILL) a process in the middle of a stream of saves: the file is valid
// and holds every label whose save had returned.
func TestLabelStoreKilled(t *testing.T) {
	if path := os.Getenv("BROWSER_TEST_LABELS_CHILD"); path != "" {
		s, err := OpenLabels(path)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		for i := 0; ; i++ {
			id := fmt.Sprintf("task%05d", i)
			if err := s.Put(Label{TaskID: id, Priors: []string{"copying"}, Note: strings.Repeat("n", i%500)}); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			fmt.Println("saved", id)
		}
	}
	path := filepath.Join(t.TempDir(), "labels.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLabelStoreKilled$")
	cmd.Env = append(os.Environ(), "BROWSER_TEST_LABELS_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < 40 { // no deadline: a child that stops saving ends with go test's -timeout
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, "saved "); ok {
			acked = append(acked, id)
		} else if strings.HasPrefix(line, "error") {
			t.Fatal(line)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(acked) < 40 {
		t.Fatalf("the child acknowledged only %d saves", len(acked))
	}
	s, err := OpenLabels(path)
	if err != nil {
		t.Fatalf("the file after the kill: %v", err)
	}
	labels, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range acked {
		if _, ok := labels[id]; !ok {
			t.Errorf("label %s was acknowledged but is not in the file", id)
		}
	}
	t.Logf("killed after %d acknowledged saves; the file holds %d labels", len(acked), len(labels))
}

// TestLabelStoreRefusesBadFile checks that a file that is not a labels file stops the store (OpenLabels
// fails, a Put fails) and is never overwritten.
func TestLabelStoreRefusesBadFile(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"truncated":    `{"format": "latformer-arc-labels/1", "labels": {"a": {"task_id": "a", "pri`,
		"other format": `{"format": "something-else", "labels": {}}`,
		"unknown key":  `{"format": "latformer-arc-labels/1", "labels": {}, "extra": 1}`,
		"wrong id":     `{"format": "latformer-arc-labels/1", "labels": {"a": {"task_id": "b", "split": "", "priors": [], "saved": "2026-01-01T00:00:00Z"}}}`,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenLabels(path); err == nil {
			t.Errorf("%s: OpenLabels accepted it", name)
		}
		s := &LabelStore{path: path}
		if err := s.Put(Label{TaskID: "c", Priors: []string{"rotation"}}); err == nil {
			t.Errorf("%s: Put overwrote it", name)
		}
		if data, _ := os.ReadFile(path); string(data) != content {
			t.Errorf("%s: the file changed", name)
		}
	}
	if _, err := OpenLabels(dir); err == nil {
		t.Errorf("a directory as labels file: no error")
	}
	if _, err := OpenLabels(filepath.Join(dir, "missing", "labels.json")); err == nil {
		t.Errorf("a missing directory: no error")
	}
}

// TestCheckLabel checks the validation and normalization of a label.
func TestCheckLabel(t *testing.T) {
	l, err := CheckLabel(Label{TaskID: "68b16354", Priors: []string{"reflection", "translation", "reflection"}, Note: " a\r\nb\t "})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Priors, []string{"translation", "reflection"}) || l.Note != "a\nb" {
		t.Errorf("normalized %+v", l)
	}
	for name, bad := range map[string]Label{
		"bad id":       {TaskID: "../x"},
		"empty id":     {},
		"prior":        {TaskID: "a", Priors: []string{"Reflection"}},
		"long note":    {TaskID: "a", Note: strings.Repeat("é", MaxNoteRunes+1)},
		"NUL":          {TaskID: "a", Note: "a\x00b"},
		"invalid UTF8": {TaskID: "a", Note: "\xff"},
	} {
		if _, err := CheckLabel(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := CheckLabel(Label{TaskID: "a", Note: strings.Repeat("é", MaxNoteRunes)}); err != nil {
		t.Errorf("a note of MaxNoteRunes characters: %v", err)
	}
}

// TestValidTaskID checks the id pattern.
func TestValidTaskID(t *testing.T) {
	for _, id := range []string{"68b16354", "a", "task_1-B", strings.Repeat("z", 64)} {
		if !ValidTaskID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range []string{"", ".", "..", "../etc/passwd", "a/b", `a\b`, "a.json", "%2e%2e", "a b", "a\x00", "é", strings.Repeat("z", 65)} {
		if ValidTaskID(id) {
			t.Errorf("%q accepted", id)
		}
	}
}

// TestPersonCategory checks the mapping of a label's priors to the definition's categories.
func TestPersonCategory(t *testing.T) {
	cases := []struct {
		priors []string
		want   datasets.Category
		why    string
	}{
		{nil, "none", "no prior marked"},
		{[]string{"translation"}, "translate", ""},
		{[]string{"rotation"}, "rotate", ""},
		{[]string{"translation", "rotation"}, "rotate", ""},
		{[]string{"reflection"}, "reflect", ""},
		{[]string{"translation", "scaling"}, "scale", ""},
		{[]string{"rotation", "reflection"}, "none", "two transformations (reflect and rotate)"},
		{[]string{"reflection", "counting"}, "none", "needs more than lattice transformations: Counting"},
		{[]string{"object-cohesion"}, "none", "Object cohesion"},
	}
	for _, c := range cases {
		got, why := PersonCategory(c.priors)
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("PersonCategory(%v) = %q, %q; want %q, %q", c.priors, got, why, c.want, c.why)
		}
	}
	// Every prior has a unique key, and exactly the four Table 2 ones have a category.
	seen := map[string]bool{}
	var cats []datasets.Category
	for _, p := range Priors {
		if seen[p.Key] || !ValidTaskID(p.Key) {
			t.Errorf("prior key %q repeated or odd", p.Key)
		}
		seen[p.Key] = true
		if p.Category != "" {
			cats = append(cats, p.Category)
		}
	}
	if !slices.Equal(cats, datasets.Categories) {
		t.Errorf("the priors' categories %v, want %v", cats, datasets.Categories)
	}
}
