// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/latformer/latformer/internal/testutil"
)

// TestFreeGates checks the free-gate mask: FreeGates' layout and errors, and that with the mask of "t"
// set in the expert's variable the gate logits of the other experts are held at their identity setting
// (whatever the input and the weights) while the translation logits are those of the unmasked expert.
func TestFreeGates(t *testing.T) {
	e := DefaultExpert(6, 6)
	if _, err := e.FreeGates("tx"); err == nil || !strings.Contains(err.Error(), "letters") {
		t.Errorf("FreeGates(\"tx\") error = %v, want a complaint about the letters", err)
	}
	if _, err := e.FreeGates(""); err == nil {
		t.Error("FreeGates(\"\") accepted")
	}
	all, err := e.FreeGates("all")
	if err != nil {
		t.Fatal(err)
	}
	every, err := e.FreeGates("tfrs")
	if err != nil {
		t.Fatal(err)
	}
	for i := range all {
		if all[i] != 1 || every[i] != 1 {
			t.Fatalf("gate %d: \"all\" %v, \"tfrs\" %v, want 1", i, all[i], every[i])
		}
	}
	onlyT, err := e.FreeGates("t")
	if err != nil {
		t.Fatal(err)
	}
	nT := 2*e.TranslationLayers + 4 // translation bits and the zero-fill gates, first in the layout
	for i, v := range onlyT {
		if want := float32(boolToInt(i < nT)); v != want {
			t.Fatalf("FreeGates(\"t\")[%d] = %v, want %v", i, v, want)
		}
	}

	// v and h free one translation axis each (its shift bits and its two zero-fill gates) and nothing else;
	// together they free what t frees.
	vert, err := e.FreeGates("v")
	if err != nil {
		t.Fatal(err)
	}
	horiz, err := e.FreeGates("h")
	if err != nil {
		t.Fatal(err)
	}
	L := e.TranslationLayers
	for i := range vert {
		rows := i < L || (i >= 2*L && i < 2*L+2) // the rows' shift bits, then the rows' zero-fill gates
		cols := (i >= L && i < 2*L) || (i >= 2*L+2 && i < nT)
		if vert[i] != float32(boolToInt(rows)) || horiz[i] != float32(boolToInt(cols)) {
			t.Fatalf("gate %d: FreeGates(\"v\") %v, (\"h\") %v; want %v, %v", i, vert[i], horiz[i], boolToInt(rows), boolToInt(cols))
		}
		if vert[i]+horiz[i] != onlyT[i] {
			t.Fatalf("gate %d: v and h together %v, t %v", i, vert[i]+horiz[i], onlyT[i])
		}
	}
	if !ZeroFillFamily("v") || !ZeroFillFamily("hr") || !ZeroFillFamily("z") || ZeroFillFamily("t") || ZeroFillFamily("all") {
		t.Error("ZeroFillFamily: want true for the letters z, v, h and false otherwise")
	}

	backend := testutil.Backend(t)
	store := model.NewStore()
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, x *Node) *Node {
		return e.GateLogits(scope.In("expert"), x, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	rng := rand.New(rand.NewPCG(1, 2))
	x := testutil.NormalTensor(rng, 3, e.N(), 8)
	free := tensors.MustCopyFlatData[float32](exec.MustCall(x)[0])
	var v *model.Variable
	for vv := range store.IterVariables() {
		if g, ok := GateVariableOf(vv.Path()); ok && g.Part == GateFree {
			v = vv
		}
	}
	if v == nil || v.Trainable {
		t.Fatalf("free-gate variable %v missing or trainable", v)
	}
	if err := v.SetValue(tensors.FromValue(onlyT)); err != nil {
		t.Fatal(err)
	}
	masked := tensors.MustCopyFlatData[float32](exec.MustCall(x)[0])
	off := e.offGateLogits()
	n := e.NumGates()
	for b := range 3 {
		for i := range n {
			got, want := masked[b*n+i], free[b*n+i]
			if i >= nT {
				want = off[i]
			}
			if math.Abs(float64(got-want)) > 1e-5 {
				t.Fatalf("example %d, gate %d: logit %v, want %v", b, i, got, want)
			}
		}
	}
	// Held gates select the identity: the hard gates of the masked logits read back no flip, rotation,
	// scaling or down-scaling, for every example.
	hard := MustExecOnceN(backend, func(l *Node) []*Node { return e.GatesFromLogits(l, true).GateTensors() },
		tensors.FromFlatDataAndDimensions(masked, 3, n))
	values, err := e.DecodeGates(hard)
	if err != nil {
		t.Fatal(err)
	}
	for b, v := range values {
		el := e.ElementOf(v)
		if el.Flip != [2]bool{} || el.Quarter != 0 || el.Down != [2]bool{} || max(el.Scale[0], 1) != 1 || max(el.Scale[1], 1) != 1 {
			t.Errorf("example %d: held gates read back as %+v", b, el)
		}
	}
	// The soft gates of the held experts are exactly the hard ones, 0 or 1 (TinyGate): no subnormal
	// products in the masks, and no leakage into mask rows that should be empty.
	soft := MustExecOnceN(backend, func(l *Node) []*Node { return e.GatesFromLogits(l, false).GateTensors() },
		tensors.FromFlatDataAndDimensions(masked, 3, n))
	softValues, err := e.DecodeGates(soft)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for b := range softValues {
		for name, vals := range softValues[b] {
			if name == "translation" || name == "zerofill" || name == "shift" {
				continue // free
			}
			for i, v := range vals {
				if h := values[b][name][i]; v != h {
					t.Fatalf("example %d: held %s gate %d is %g with soft gates, want exactly %g", b, name, i, v, h)
				}
				checked++
			}
		}
	}
	if checked < 3*(n-nT) {
		t.Fatalf("checked %d held soft gates, want %d", checked, 3*(n-nT))
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFreedExperts checks which experts a restart schedule frees: t, z, v and h the translation, r, f and
// s the others, "all" every one, only among the model's experts, in ParamExperts' order; a bad letter is an
// error.
func TestFreedExperts(t *testing.T) {
	cases := []struct {
		list     string
		schedule []string
		want     string
	}{
		{"all", []string{"t"}, "translation"},
		{"all", []string{"z", "v", "h"}, "translation"},
		{"all", []string{"t", "rf"}, "translation,rotation,reflection"},
		{"all", []string{"s", "all"}, "translation,rotation,reflection,scaling"},
		{"rotation,scaling", []string{"t", "s"}, "scaling"},
		{"rotation", []string{"t"}, ""},
	}
	for _, c := range cases {
		got, err := FreedExperts(c.list, c.schedule)
		if err != nil || got != c.want {
			t.Errorf("FreedExperts(%q, %q) = %q, %v; want %q", c.list, c.schedule, got, err, c.want)
		}
	}
	if _, err := FreedExperts("all", []string{"t", "x"}); err == nil {
		t.Errorf("FreedExperts with the letter x: no error")
	}
}
