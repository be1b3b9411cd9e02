// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"
)

// fourierCase is one primitive of Table 1 with its binary mask.
type fourierCase struct {
	name  string
	kind  ShiftKind
	n     int
	param int
	want  *Matrix
}

// fourierCases lists the primitives of Table 1 checked against the binary masks: translation by every
// δ in [-l, l] for l in {1,2,5,7,30}, reflection for l in {1,2,5,30}, 90° rotation of l x l lattices
// for l in {1,2,3,5,6,10}, up-scaling by h = 1..5 for l in {5,7,30}, and the identity.
func fourierCases() []fourierCase {
	var cases []fourierCase
	for _, l := range []int{1, 2, 5, 7, 30} {
		cases = append(cases, fourierCase{fmt.Sprintf("identity/n=%d", l), ShiftIdentity, l, 0, IdentityMatrix(l)})
		for d := -l; d <= l; d++ {
			cases = append(cases, fourierCase{fmt.Sprintf("translation/l=%d/δ=%d", l, d), ShiftTranslation, l, d, TranslationMask1D(l, d)})
		}
	}
	for _, l := range []int{1, 2, 5, 30} {
		cases = append(cases, fourierCase{fmt.Sprintf("reflection/l=%d", l), ShiftReflection, l, 0, ReflectionMask1D(l)})
	}
	for _, l := range []int{1, 2, 3, 5, 6, 10} {
		cases = append(cases, fourierCase{fmt.Sprintf("rotation90/l=%d", l), ShiftRotation90, l * l, l, Rotation90Mask2D(l)})
	}
	for _, l := range []int{5, 7, 30} {
		for h := 1; h <= 5; h++ {
			cases = append(cases, fourierCase{fmt.Sprintf("upscale/l=%d/h=%d", l, h), ShiftUpscale, l, h, UpscaleMask1D(l, h)})
		}
	}
	return cases
}

// TestFourierShiftMaskMatchesPrimitives checks Theorem 2 with Table 1: F^{-1}(F(I) ⊙ exp(-2πj/n o r^T))
// equals the binary primitive mask of every transformation (max abs difference < 1e-9).
func TestFourierShiftMaskMatchesPrimitives(t *testing.T) {
	worst := map[ShiftKind]float64{}
	count := map[ShiftKind]int{}
	for _, tc := range fourierCases() {
		o, err := FourierShift(tc.kind, tc.n, tc.param)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(o) != tc.n {
			t.Fatalf("%s: len(o) = %d, want %d", tc.name, len(o), tc.n)
		}
		m, err := MaskFromFourierShift(o)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := m.MaxAbsDiff(tc.want)
		worst[tc.kind] = max(worst[tc.kind], d)
		count[tc.kind]++
		if d >= 1e-9 {
			t.Errorf("%s: max |Fourier mask - primitive| = %g", tc.name, d)
		}
	}
	for k := ShiftIdentity; k <= ShiftUpscale; k++ {
		t.Logf("%-11s %3d cases, max |Fourier mask - primitive| = %.3g", k, count[k], worst[k])
	}
}

// TestKernelMaskFromKernelsMatchesPrimitives checks Corollary 1: the kernel of row i is a one-hot
// vector at o_i mod n, and the circular convolution kappa_i ⋆ e_i is row i of the binary mask.
func TestKernelMaskFromKernelsMatchesPrimitives(t *testing.T) {
	var worstRow, worstKernel float64
	rows := 0
	for _, tc := range fourierCases() {
		o, err := FourierShift(tc.kind, tc.n, tc.param)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := MaskFromKernels(o)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range tc.n {
			kappa, err := KernelFromFourierShift(o, i)
			if err != nil {
				t.Fatalf("%s row %d: %v", tc.name, i, err)
			}
			hot := mod(o[i], tc.n)
			for s, v := range kappa {
				want := 0.0
				if s == hot {
					want = 1
				}
				worstKernel = max(worstKernel, math.Abs(v-want))
			}
			for j := range tc.n {
				worstRow = max(worstRow, math.Abs(m.At(i, j)-tc.want.At(i, j)))
			}
			rows++
		}
		if d := m.MaxAbsDiff(tc.want); d >= 1e-9 {
			t.Errorf("%s: max |kernel mask - primitive| = %g", tc.name, d)
		}
	}
	if worstKernel >= 1e-9 {
		t.Errorf("kernels are not one-hot at o_i mod n: max deviation %g", worstKernel)
	}
	t.Logf("%d rows checked: max |kappa_i - onehot(o_i mod n)| = %.3g, max |(kappa_i ⋆ e_i) - M[i]| = %.3g", rows, worstKernel, worstRow)
}

// TestFourierUpscaleErratum documents the sign erratum of Table 1's up-scaling shift: the formula as
// printed does not produce M_S^(h) (row k attends to floor(k/h)) for h = 2, while its negation does.
func TestFourierUpscaleErratum(t *testing.T) {
	for _, n := range []int{5, 7, 30} {
		for h := 1; h <= 5; h++ {
			printed, err := TableOneUpscaleShiftAsPrinted(n, h)
			if err != nil {
				t.Fatal(err)
			}
			corrected, err := FourierShift(ShiftUpscale, n, h)
			if err != nil {
				t.Fatal(err)
			}
			for k := range printed {
				if corrected[k] != -printed[k] {
					t.Fatalf("n=%d h=%d: corrected o[%d] = %d, want -%d", n, h, k, corrected[k], printed[k])
				}
			}
			want := UpscaleMask1D(n, h)
			mp, err := MaskFromFourierShift(printed)
			if err != nil {
				t.Fatal(err)
			}
			mc, err := MaskFromFourierShift(corrected)
			if err != nil {
				t.Fatal(err)
			}
			dp, dc := mp.MaxAbsDiff(want), mc.MaxAbsDiff(want)
			wrongRows := 0
			for i := range n {
				if mp.At(i, i/h) < 0.5 {
					wrongRows++
				}
			}
			if dc >= 1e-9 {
				t.Errorf("n=%d h=%d: corrected shift gives max diff %g from M_S^(h)", n, h, dc)
			}
			if h >= 2 && dp < 0.5 {
				t.Errorf("n=%d h=%d: the printed shift unexpectedly gives M_S^(h)", n, h)
			}
			if h == 1 && dp >= 1e-9 {
				t.Errorf("n=%d h=1: both formulas are 0 and should give the identity", n)
			}
			t.Logf("n=%2d h=%d: printed: %2d/%2d rows wrong (max diff %.3g); corrected: max diff %.3g", n, h, wrongRows, n, dp, dc)
		}
	}
	// The smallest example, spelled out: n = 4, h = 2.
	printed, _ := TableOneUpscaleShiftAsPrinted(4, 2)
	corrected, _ := FourierShift(ShiftUpscale, 4, 2)
	mp, _ := MaskFromFourierShift(printed)
	t.Logf("n=4 h=2: printed o = %v gives\n%swant M_S^(2) =\n%scorrected o = %v", printed, mp.ASCII(), UpscaleMask1D(4, 2).ASCII(), corrected)
	if fmt.Sprint(printed) != "[0 1 1 2]" || fmt.Sprint(corrected) != "[0 -1 -1 -2]" {
		t.Errorf("n=4 h=2: printed %v, corrected %v", printed, corrected)
	}
}

// TestFourierShiftTableValues checks a few entries of Table 1 against the formulas written out by hand.
func TestFourierShiftTableValues(t *testing.T) {
	for _, tc := range []struct {
		kind     ShiftKind
		n, param int
		want     string
	}{
		{ShiftIdentity, 3, 0, "[0 0 0]"},
		{ShiftTranslation, 4, 1, "[-1 -1 -1 -1]"},
		{ShiftTranslation, 3, -2, "[2 2 2]"},
		{ShiftReflection, 4, 0, "[3 1 -1 -3]"},
		{ShiftReflection, 5, 0, "[4 2 0 -2 -4]"},
		{ShiftRotation90, 4, 2, "[1 2 2 3]"},               // k(l-1) - floor((k-1)/l), l = 2
		{ShiftRotation90, 9, 0, "[2 4 6 7 9 11 12 14 16]"}, // l = 3 derived from n; o_k > n for k > l
		{ShiftUpscale, 6, 3, "[0 -1 -2 -2 -3 -4]"},
	} {
		o, err := FourierShift(tc.kind, tc.n, tc.param)
		if err != nil {
			t.Fatalf("%s n=%d: %v", tc.kind, tc.n, err)
		}
		if got := fmt.Sprint(o); got != tc.want {
			t.Errorf("FourierShift(%s, %d, %d) = %s, want %s", tc.kind, tc.n, tc.param, got, tc.want)
		}
	}
}

// TestFourierPaperOneBasedIndexing checks the claim of MaskFromFourierShift's documentation: computing
// Theorem 2 literally with the paper's 1-based indices (F(x)_p = Σ_q x_q exp(-2πj p q/n), p, q = 1..n,
// and r = (1, ..., n)) gives the same mask as the 0-based DFT with r = (0, ..., n-1).
func TestFourierPaperOneBasedIndexing(t *testing.T) {
	var worst float64
	for _, tc := range fourierCases() {
		if tc.n > 30 {
			continue
		}
		o, _ := FourierShift(tc.kind, tc.n, tc.param)
		n := tc.n
		w := func(e int) complex128 { return cmplx.Exp(complex(0, -2*math.Pi*float64(e)/float64(n))) }
		got := NewMatrix(n, n)
		for k := 1; k <= n; k++ { // row k of I_n (1-based): e_k.
			spec := make([]complex128, n+1)
			for p := 1; p <= n; p++ {
				spec[p] = w(p*k) * w(o[k-1]*p) // F(e_k)_p · exp(-2πj/n o_k r_p), r_p = p.
			}
			for q := 1; q <= n; q++ {
				var acc complex128
				for p := 1; p <= n; p++ {
					acc += spec[p] * cmplx.Conj(w(p*q))
				}
				acc /= complex(float64(n), 0)
				if math.Abs(imag(acc)) > 1e-9 {
					t.Fatalf("%s: imaginary part %g", tc.name, imag(acc))
				}
				got.Set(k-1, q-1, real(acc))
			}
		}
		d := got.MaxAbsDiff(tc.want)
		worst = max(worst, d)
		if d >= 1e-9 {
			t.Errorf("%s: 1-based Theorem 2 differs from the primitive by %g", tc.name, d)
		}
	}
	t.Logf("1-based indexing with r = (1..n): max diff %.3g", worst)
}

// TestFourierErrors checks the argument validation of the Fourier functions.
func TestFourierErrors(t *testing.T) {
	if _, err := FourierShift(ShiftRotation90, 6, 0); err == nil {
		t.Errorf("rotation with n = 6 should fail")
	}
	if _, err := FourierShift(ShiftRotation90, 9, 2); err == nil {
		t.Errorf("rotation with n = 9, l = 2 should fail")
	}
	if _, err := FourierShift(ShiftUpscale, 5, 0); err == nil {
		t.Errorf("upscale with h = 0 should fail")
	}
	if _, err := FourierShift(ShiftIdentity, 0, 0); err == nil {
		t.Errorf("n = 0 should fail")
	}
	if _, err := FourierShift(ShiftKind(42), 3, 0); err == nil || ShiftKind(42).String() != "ShiftKind(42)" {
		t.Errorf("unknown kind should fail, got %v", err)
	}
	if _, err := MaskFromFourierShift(nil); err == nil {
		t.Errorf("empty o should fail")
	}
	if _, err := MaskFromKernels(nil); err == nil {
		t.Errorf("empty o should fail")
	}
	if _, err := KernelFromFourierShift([]int{1, 2}, 2); err == nil {
		t.Errorf("row out of range should fail")
	}
	if _, err := TableOneUpscaleShiftAsPrinted(3, 0); err == nil {
		t.Errorf("h = 0 should fail")
	}
}
