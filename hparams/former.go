// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package hparams

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ui/commandline"
)

// Former is a key that settings no longer declare but still recognize: an old name that reads as a current
// key (Renamed, Folded), with a warning, or a removed one (Removed), an error that says why. The packages
// that owned the keys declare them with Retire, so that --set, "file:" entries and the run files written
// before the change keep their meaning or fail clearly.
type Former struct {
	Key string
	// Default gives the old key's type, which its values are parsed as (nil for a removed key).
	Default any
	// To maps the old key's value, given the settings read before it, to the setting that replaces it;
	// nil for a removed key.
	To func(value any, before Settings) Setting
	// Why says what replaced the key (shown in the warning) or why it was removed (the error).
	Why string
}

// Renamed declares that old, a key of oldDefault's type, is now called key: its values read as key's.
func Renamed(old string, oldDefault any, key string) Former {
	return Former{Key: old, Default: oldDefault, Why: "renamed " + key,
		To: func(v any, _ Settings) Setting { return Setting{Key: key, Value: v} }}
}

// Folded declares that old, a key of oldDefault's type, is now part of another key: to gives the setting of
// that key its value stands for (from the settings read before it, for a key that several old ones make up).
func Folded(old string, oldDefault any, why string, to func(value any, before Settings) Setting) Former {
	return Former{Key: old, Default: oldDefault, Why: why, To: to}
}

// Removed declares that old was removed, and why (what to use instead, or that the ablation it ran lost).
func Removed(old, why string) Former { return Former{Key: old, Why: why} }

var (
	formersMu sync.Mutex
	formers   = map[string]Former{}
	warned    = map[string]bool{} // the former keys warned about, once per process
)

// Retire registers former keys (declared once, by the package that owned them); a key registered twice is a
// programmer error (panic). It returns nothing useful, so that a package can call it in a var declaration.
func Retire(fs ...Former) struct{} {
	formersMu.Lock()
	defer formersMu.Unlock()
	for _, f := range fs {
		if _, ok := formers[f.Key]; ok {
			panic(fmt.Sprintf("hparams.Retire: %q retired twice", f.Key))
		}
		formers[f.Key] = f
	}
	return struct{}{}
}

// FormerKey returns the former key registered under key (its base name, for a scoped key).
func FormerKey(key string) (Former, bool) {
	formersMu.Lock()
	defer formersMu.Unlock()
	f, ok := formers[model.BasePath(key)]
	return f, ok
}

// parseFormer reads "key=value" of a former key: an error for a removed one, else the setting that replaces
// it in t (a warning written to warnings the first time), parsed as the old key's type and mapped by f.To.
func (t Table) parseFormer(f Former, key, value string, before Settings, warnings io.Writer) (Setting, error) {
	if f.To == nil {
		return Setting{}, fmt.Errorf("hyperparameter %q was removed: %s", key, f.Why)
	}
	scratch := model.NewStore()
	scratch.SetParam(f.Key, f.Default)
	if _, err := commandline.ParseSettings(scratch, f.Key+"="+value); err != nil {
		return Setting{}, fmt.Errorf("%s=%s: %s", key, value, Param{Key: f.Key, Default: f.Default}.allowed())
	}
	v, _ := scratch.GetParam(f.Key)
	if _, err := (Param{Key: f.Key, Default: f.Default}).convert(v); err != nil {
		return Setting{}, fmt.Errorf("%s=%w", key, err)
	}
	s := f.To(v, before)
	if scope := key[:len(key)-len(model.BasePath(key))]; scope != "" {
		s.Key = scope + s.Key
	}
	p, err := t.lookup(s.Key)
	if err != nil {
		return Setting{}, fmt.Errorf("%s (the former %s): %w", s.Key, key, err)
	}
	if s.Value, err = p.convert(s.Value); err != nil {
		return Setting{}, fmt.Errorf("%s=%w (the former %s=%s)", s.Key, err, key, value)
	}
	warnOnce(warnings, f, fmt.Sprintf("%s=%s", key, value), s)
	return s, nil
}

// checkFormer is Check's reading of a setting of the former key f (the settings before it in before).
func (t Table) checkFormer(f Former, e Setting, before Settings, warnings io.Writer) (Setting, error) {
	if f.To == nil {
		return Setting{}, fmt.Errorf("hyperparameter %q was removed: %s", e.Key, f.Why)
	}
	v, err := (Param{Key: f.Key, Default: f.Default}).convert(e.Value)
	if err != nil {
		return Setting{}, fmt.Errorf("%s=%w", e.Key, err)
	}
	s := f.To(v, before)
	if scope := e.Key[:len(e.Key)-len(model.BasePath(e.Key))]; scope != "" {
		s.Key = scope + s.Key
	}
	p, err := t.lookup(s.Key)
	if err != nil {
		return Setting{}, fmt.Errorf("%s (the former %s): %w", s.Key, e.Key, err)
	}
	if s.Value, err = p.convert(s.Value); err != nil {
		return Setting{}, fmt.Errorf("%s=%w (the former %s=%v)", s.Key, err, e.Key, e.Value)
	}
	warnOnce(warnings, f, fmt.Sprintf("%s=%v", e.Key, e.Value), s)
	return s, nil
}

// warnOnce writes to w (nil: os.Stderr), the first time a process reads the former key f, what it now
// reads as.
func warnOnce(w io.Writer, f Former, entry string, s Setting) {
	formersMu.Lock()
	defer formersMu.Unlock()
	if warned[f.Key] {
		return
	}
	warned[f.Key] = true
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "warning: hyperparameter %q is a former name (%s): %s reads as %s=%v\n", f.Key, f.Why,
		entry, s.Key, s.Value)
}
