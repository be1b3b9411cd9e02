// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package hparams

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var _ = Retire(
	Renamed("old_dim", 0, "model_dim"),
	Folded("old_flag", false, "now actions", func(v any, before Settings) Setting {
		if v.(bool) {
			return Setting{Key: "actions", Value: 2}
		}
		return Setting{Key: "actions", Value: 1}
	}),
	Removed("old_gone", "tried, lost: see the notes"),
	Renamed("old_layers", 1, "model_layers"),
	Renamed("old_rate", 0.0, "learning_rate"),
)

// TestFormerKeys checks that a renamed key reads as its new name with its value (scoped too), a folded one as
// the setting its function gives, each with one warning per process, written to the caller's writer, naming
// the old key and what it reads as, that a removed key is an error saying why, and a bad value of an old key
// an error naming it.
func TestFormerKeys(t *testing.T) {
	var buf bytes.Buffer
	s, err := testTable.ParseTo("old_dim=16;old_flag=true;/layer_0/old_dim=8;old_dim=12", &buf)
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{{"actions", 2}, {"/layer_0/model_dim", 8}, {"model_dim", 12}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Parse = %v, want %v", s, want)
	}
	out := buf.String()
	if n := strings.Count(out, `"old_dim"`); n != 1 {
		t.Errorf("%d warnings for old_dim, want 1 (once per process): %q", n, out)
	}
	if !strings.Contains(out, "old_dim=16 reads as model_dim=16") || !strings.Contains(out, "old_flag=true reads as actions=2") {
		t.Errorf("warnings %q do not say what the old keys read as", out)
	}
	if _, err := testTable.Parse("old_gone=1"); err == nil || !strings.Contains(err.Error(), `"old_gone" was removed: tried, lost`) {
		t.Errorf("a removed key: error %v, want one saying it was removed and why", err)
	}
	if _, err := testTable.Parse("old_flag=maybe"); err == nil || !strings.Contains(err.Error(), "old_flag") {
		t.Errorf("a bad value of a former key: error %v, want one naming it", err)
	}
	if _, err := testTable.Parse("old_dim=0"); err == nil || !strings.Contains(err.Error(), "must be >= 1") {
		t.Errorf("a former key's value the new key refuses: error %v, want the new key's check", err)
	}
	// Check (settings made in Go) reads them as Parse does.
	checked, err := testTable.CheckTo(Settings{{"old_flag", true}, {"old_dim", 16}}, &buf)
	if want := (Settings{{"actions", 2}, {"model_dim", 16}}); err != nil || !reflect.DeepEqual(checked, want) {
		t.Errorf("Check of former keys = %v, %v; want %v", checked, err, want)
	}
	if _, err := testTable.Check(Settings{{"old_gone", 1}}); err == nil || !strings.Contains(err.Error(), "was removed") {
		t.Errorf("Check of a removed key: error %v", err)
	}
}

// TestFormerWarningsWriter checks that the warning about a former key goes to the writer given to ParseTo,
// also for a "file:" entry, and to the one given to CheckTo.
func TestFormerWarningsWriter(t *testing.T) {
	var fromFile, fromCheck bytes.Buffer
	path := filepath.Join(t.TempDir(), "settings.txt")
	if err := os.WriteFile(path, []byte("# a run's settings\nold_layers=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := testTable.ParseTo("file:"+path, &fromFile)
	if want := (Settings{{"model_layers", 2}}); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("ParseTo of a file: %v, %v; want %v", s, err, want)
	}
	if _, err := testTable.CheckTo(Settings{{"old_rate", 0.5}}, &fromCheck); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fromFile.String(), `"old_layers" is a former name`) ||
		!strings.Contains(fromCheck.String(), `"old_rate" is a former name`) {
		t.Errorf("warnings: ParseTo's writer %q, CheckTo's %q; want each in its caller's writer",
			fromFile.String(), fromCheck.String())
	}
}
