// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import (
	"fmt"
	"math"
	"math/cmplx"
)

// ShiftKind names a primitive transformation of Table 1 of the paper, whose mask on the 1-D lattice (or,
// for ShiftRotation90, the square lattice) is a "shifted identity" with the Fourier shift of
// FourierShift.
type ShiftKind int

const (
	// ShiftIdentity is the identity: o_k = 0.
	ShiftIdentity ShiftKind = iota
	// ShiftTranslation is the circular translation by δ = param cells: o_k = -δ.
	ShiftTranslation
	// ShiftReflection is the reversal of the 1-D lattice: o_1 = n-1, o_k = o_{k-1} - 2.
	ShiftReflection
	// ShiftRotation90 is the 90° counter-clockwise rotation of an l x l lattice (n = l*l):
	// o_k = k(l-1) - floor((k-1)/l).
	ShiftRotation90
	// ShiftUpscale is the up-scaling by h = param, with the sign of Table 1 corrected:
	// o_k = -[((k-1) mod h) + (h-1) floor((k-1)/h)] (see FourierShift).
	ShiftUpscale
)

// String returns the name of the kind ("identity", "translation", "reflection", "rotation90", "upscale").
func (k ShiftKind) String() string {
	switch k {
	case ShiftIdentity:
		return "identity"
	case ShiftTranslation:
		return "translation"
	case ShiftReflection:
		return "reflection"
	case ShiftRotation90:
		return "rotation90"
	case ShiftUpscale:
		return "upscale"
	}
	return fmt.Sprintf("ShiftKind(%d)", int(k))
}

// FourierShift returns the Fourier shift vector o(g) in Z^n of Table 1 for the primitive transformation
// kind on a lattice of n cells, as a 0-based slice: o[k-1] is the paper's o_k, k = 1..n. Its meaning
// (Section 3.3): row k of the mask attends to the column k + o_k (mod n), i.e. the mask is the identity
// with row k shifted by o_k, and MaskFromFourierShift(o) builds it (Theorem 2). The rows are:
//
//   - ShiftIdentity: o_k = 0 (param ignored).
//   - ShiftTranslation by δ = param: o_k = -δ, giving TranslationMask1D(n, δ).
//   - ShiftReflection: o_1 = n-1, o_k = o_{k-1} - 2 (param ignored), giving ReflectionMask1D(n).
//   - ShiftRotation90 on an l x l lattice: o_k = k(l-1) - floor((k-1)/l), giving Rotation90Mask2D(l).
//     param is l and n must be l*l (param 0 means l = sqrt(n)). For k > l these o_k are larger than n
//     (and differ from the actual relative offsets by multiples of n): the column k + o_k is taken mod n,
//     which is exact because the complex exponential exp(-2πj o r/n) is n-periodic in o. The values are
//     returned as printed, not reduced.
//   - ShiftUpscale by h = param >= 1: o_k = -[((k-1) mod h) + (h-1) floor((k-1)/h)], giving
//     UpscaleMask1D(n, h), the M_S^(h) of Appendix C (row k, 0-based, attends to floor(k/h)).
//
// Erratum: Table 1 and Appendix C print the up-scaling shift with the opposite sign,
// o_k = ((k-1) mod h) + (h-1) floor((k-1)/h). With the "row k attends to k + o_k" reading that makes the
// identity, translation, reflection and rotation rows of Table 1 correct, the printed formula sends row
// k (0-based, k = q h + s) to column (2h-1) q + 2s instead of q = floor(k/h); e.g. for h = 2 row 1 attends
// to column 2, not 0, so it does not produce M_S^(h) for any h >= 2 (verified numerically in
// TestFourierUpscaleErratum). ShiftUpscale uses the corrected sign; TableOneUpscaleShiftAsPrinted
// returns the printed one.
//
// It returns an error if n < 1, the kind is unknown, h < 1, or n is not l*l for ShiftRotation90.
func FourierShift(kind ShiftKind, n int, param int) ([]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("experts.FourierShift(%s): n must be >= 1, got %d", kind, n)
	}
	o := make([]int, n)
	switch kind {
	case ShiftIdentity:
	case ShiftTranslation:
		for k := range o {
			o[k] = -param
		}
	case ShiftReflection:
		o[0] = n - 1
		for k := 1; k < n; k++ {
			o[k] = o[k-1] - 2
		}
	case ShiftRotation90:
		l := param
		if l == 0 {
			l = int(math.Round(math.Sqrt(float64(n))))
		}
		if l < 1 || l*l != n {
			return nil, fmt.Errorf("experts.FourierShift(%s): n = %d must be l*l for the side l = %d (param %d)",
				kind, n, l, param)
		}
		for k := 1; k <= n; k++ {
			o[k-1] = k*(l-1) - (k-1)/l
		}
	case ShiftUpscale:
		printed, err := TableOneUpscaleShiftAsPrinted(n, param)
		if err != nil {
			return nil, fmt.Errorf("experts.FourierShift(%s): %w", kind, err)
		}
		for k, v := range printed {
			o[k] = -v
		}
	default:
		return nil, fmt.Errorf("experts.FourierShift: unknown kind %s", kind)
	}
	return o, nil
}

// TableOneUpscaleShiftAsPrinted returns the up-scaling Fourier shift exactly as printed in Table 1 and
// Appendix C of the paper, o_k = ((k-1) mod h) + (h-1) floor((k-1)/h) for k = 1..n (0-based slice). It
// has the wrong sign (see FourierShift): MaskFromFourierShift of it is not the up-scaling mask M_S^(h)
// for h >= 2; FourierShift(ShiftUpscale, n, h) is its negation, which is. It is kept to document and test
// the erratum. It returns an error if n < 1 or h < 1.
func TableOneUpscaleShiftAsPrinted(n, h int) ([]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("experts.TableOneUpscaleShiftAsPrinted: n must be >= 1, got %d", n)
	}
	if h < 1 {
		return nil, fmt.Errorf("experts.TableOneUpscaleShiftAsPrinted: factor h must be >= 1, got %d", h)
	}
	o := make([]int, n)
	for k := 1; k <= n; k++ {
		o[k-1] = (k-1)%h + (h-1)*((k-1)/h)
	}
	return o, nil
}

// fourierImagTol is the largest |imaginary part| accepted when returning a real mask or kernel.
const fourierImagTol = 1e-6

// MaskFromFourierShift implements Theorem 2 for a primitive mask: given the Fourier shift o in Z^n
// (n = len(o) >= 1; see FourierShift) it returns the n x n real matrix
//
//	M = F^{-1}( F(I_n) ⊙ exp(-2πj/n · o r^T) ),
//
// where F is the discrete Fourier transform applied to each row (F(x)_r = Σ_t x_t exp(-2πj r t/n)) and
// r is the vector of frequency indices. Entry (k, r) of o r^T is o_k r, so row k of the identity, e_k, is
// multiplied in the Fourier domain by exp(-2πj o_k r/n), which by the time-shifting property moves its 1
// to column k + o_k (mod n): M is the identity with "the rows shifted" as the paper says. The paper writes
// F as applied column-wise (and M[:, i] in Corollary 1) because its F acts on M^T; with this package's
// convention (row i of a mask = the attention of output cell i) the transform runs along each row. The
// paper's r = (1, ..., n) indexes the frequencies 1..n with frequency n ≡ 0; since every factor is
// n-periodic in r that is the same vector as r = (0, ..., n-1) used here, and o_k is likewise taken mod n.
//
// The DFTs are plain O(n^2) complex sums per row (no FFT), so the cost is O(n^3); it is meant for the
// small n of the tests (up to ~100). It returns the real part, not rounded (entries are 0 or 1 up to
// ~1e-13), or an error if o is empty or if some |imaginary part| exceeds 1e-6.
func MaskFromFourierShift(o []int) (*Matrix, error) {
	n := len(o)
	if n == 0 {
		return nil, fmt.Errorf("experts.MaskFromFourierShift: empty shift vector")
	}
	tw := fourierTwiddles(n)
	m := NewMatrix(n, n)
	row := make([]complex128, n)
	for k := range n {
		for t := range row { // e_k, row k of I_n.
			row[t] = 0
		}
		row[k] = 1
		spec := fourierDFT(row, tw, false) // Row k of F(I_n).
		for r := range spec {              // ⊙ exp(-2πj/n · o_k r).
			spec[r] *= tw[mod(o[k]*r, n)]
		}
		back := fourierDFT(spec, tw, true)
		for t, v := range back {
			if math.Abs(imag(v)) > fourierImagTol {
				return nil, fmt.Errorf("experts.MaskFromFourierShift: element (%d, %d) has imaginary part %g > %g "+
					"(n = %d, o_%d = %d)", k, t, imag(v), fourierImagTol, n, k+1, o[k])
			}
			m.Set(k, t, real(v))
		}
	}
	return m, nil
}

// KernelFromFourierShift implements the kernel of Corollary 1 for row i (0-based, 0 <= i < n = len(o)):
// kappa_i = F^{-1}(exp(-2πj/n · o_i · r)) with r = (0, ..., n-1) the frequency indices (the paper's
// r = (1..n), see MaskFromFourierShift). It is a real vector of length n, a one-hot delta at o_i mod n
// (up to rounding ~1e-15); the row i of the mask is the circular convolution kappa_i ⋆ e_i (see
// MaskFromKernels). It returns an error if i is out of range or some |imaginary part| exceeds 1e-6.
func KernelFromFourierShift(o []int, i int) ([]float64, error) {
	n := len(o)
	if i < 0 || i >= n {
		return nil, fmt.Errorf("experts.KernelFromFourierShift: row %d out of range for a shift vector of length %d",
			i, n)
	}
	tw := fourierTwiddles(n)
	spec := make([]complex128, n)
	for r := range spec {
		spec[r] = tw[mod(o[i]*r, n)]
	}
	back := fourierDFT(spec, tw, true)
	kappa := make([]float64, n)
	for t, v := range back {
		if math.Abs(imag(v)) > fourierImagTol {
			return nil, fmt.Errorf("experts.KernelFromFourierShift: element %d of kernel %d has imaginary part %g > %g",
				t, i, imag(v), fourierImagTol)
		}
		kappa[t] = real(v)
	}
	return kappa, nil
}

// MaskFromKernels implements Corollary 1: it builds the n x n mask of the Fourier shift o (n = len(o))
// row by row as the circular convolution of the kernel kappa_i = KernelFromFourierShift(o, i) with the
// row e_i of the identity, (kappa_i ⋆ e_i)_t = Σ_s kappa_i[s] e_i[(t - s) mod n] — the paper's
// M[:, i] = F^{-1}(exp(-2πj/n o r^T))[:, i] ⋆ I_n[:, i] written for rows (see MaskFromFourierShift for
// the row/column convention). It equals MaskFromFourierShift(o) up to rounding: "a convolution of the
// identity matrix with predefined kernels", which motivates the convolutional mask experts of Section 4.
// It returns an error if o is empty or a kernel is not real.
func MaskFromKernels(o []int) (*Matrix, error) {
	n := len(o)
	if n == 0 {
		return nil, fmt.Errorf("experts.MaskFromKernels: empty shift vector")
	}
	m := NewMatrix(n, n)
	for i := range n {
		kappa, err := KernelFromFourierShift(o, i)
		if err != nil {
			return nil, fmt.Errorf("experts.MaskFromKernels: %w", err)
		}
		e := make([]float64, n) // e_i, row i of I_n.
		e[i] = 1
		for t := range n {
			var v float64
			for s := range n {
				v += kappa[s] * e[mod(t-s, n)]
			}
			m.Set(i, t, v)
		}
	}
	return m, nil
}

// fourierTwiddles returns w[m] = exp(-2πj m/n), m = 0..n-1; exponents are reduced mod n before the
// lookup to keep the DFT accurate.
func fourierTwiddles(n int) []complex128 {
	w := make([]complex128, n)
	for m := range w {
		s, c := math.Sincos(-2 * math.Pi * float64(m) / float64(n))
		w[m] = complex(c, s)
	}
	return w
}

// fourierDFT returns the discrete Fourier transform of x, X_r = Σ_t x_t exp(-2πj r t/n), or with
// inverse the inverse transform x_t = (1/n) Σ_r X_r exp(+2πj r t/n), by the plain O(n^2) sum.
func fourierDFT(x []complex128, tw []complex128, inverse bool) []complex128 {
	n := len(x)
	y := make([]complex128, n)
	for r := range n {
		var acc complex128
		for t, v := range x {
			w := tw[(r*t)%n]
			if inverse {
				w = cmplx.Conj(w)
			}
			acc += v * w
		}
		if inverse {
			acc /= complex(float64(n), 0)
		}
		y[r] = acc
	}
	return y
}
