// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd && !amd64.v3

package fusedops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"simd/archsimd"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/fastmath"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// vectorRowFns are the vectorized softmax rows this CPU can run.
func vectorRowFns() map[string]func(in, out []float32, axisSize int) {
	fns := map[string]func(in, out []float32, axisSize int){}
	if archsimd.X86.AVX2() {
		fns["avx2"] = softmaxRowsAVX2
	}
	if archsimd.X86.AVX512() {
		fns["avx512"] = softmaxRowsAVX512
	}
	return fns
}

// TestSoftmaxRowsBitIdentical: the vectorized rows give fusedSoftmax's results bit for bit, for row
// lengths around the vector widths, wide and narrow value ranges, -Inf, +0 and -0 inputs, and rows of
// large negative values only (where a max taken over padding lanes would underflow every exp).
func TestSoftmaxRowsBitIdentical(t *testing.T) {
	fns := vectorRowFns()
	if len(fns) == 0 {
		t.Skip("CPU without AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, axisSize := range []int{1, 7, 8, 15, 16, 17, 31, 33, 900, 901} {
		for _, scaleIn := range []float32{1e-3, 1, 10, 100, 1000, -1} {
			const rows = 5
			in := make([]float32, rows*axisSize)
			for i := range in {
				in[i] = float32(rng.NormFloat64()) * scaleIn
				if scaleIn < 0 { // large negative values only
					in[i] = -in[i] - 500
				}
			}
			if axisSize > 3 && scaleIn > 0 {
				in[1] = float32(math.Inf(-1))
				in[2] = 0
				in[3] = float32(math.Copysign(0, -1))
			}
			want := make([]float32, len(in))
			fusedSoftmax(in, want, 1, shapes.Make(dtypes.Float32, rows, axisSize), fastmath.Exp32)
			for name, rowsFn := range fns {
				got := make([]float32, len(in))
				rowsFn(in, got, axisSize)
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
						t.Fatalf("%s, row length %d, scale %g: element %d (input %g): got %g (%#x), want %g (%#x)",
							name, axisSize, scaleIn, i, in[i], got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// TestSoftmaxRowsSpecialValues: rows with NaNs of distinct payloads, infinities, and an empty axis give the
// scalar loop's bits (NaN payloads included: a vector multiply by a NaN 1/sum could take the other NaN).
func TestSoftmaxRowsSpecialValues(t *testing.T) {
	fns := vectorRowFns()
	if len(fns) == 0 {
		t.Skip("CPU without AVX2")
	}
	nan := func(payload uint32) float32 { return math.Float32frombits(0x7fc00000 | payload) }
	inf := float32(math.Inf(1))
	ninf := -inf
	for _, length := range []int{7, 16, 17, 33} {
		for _, head := range [][]float32{{nan(1), nan(2)}, {inf, nan(1)}, {nan(3), inf}, {inf, inf}, {ninf, nan(5)}} {
			in := make([]float32, 3*length) // the special row between two ordinary ones
			for i := range in {
				in[i] = float32(i%5) - 2
			}
			copy(in[length:], head)
			want := make([]float32, len(in))
			fusedSoftmax(in, want, 1, shapes.Make(dtypes.Float32, 3, length), fastmath.Exp32)
			for name, rowsFn := range fns {
				got := make([]float32, len(in))
				rowsFn(in, got, length)
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
						t.Fatalf("%s, row length %d, row head %v: element %d: got %#x, want %#x", name, length, head, i,
							math.Float32bits(got[i]), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
	// Rows whose maximum is a zero, +0 and -0 mixed in every order (the vector maximum may keep either sign, the
	// scalar loop the first it meets; every exp(x - max) is the same either way): the same bits.
	negZero := float32(math.Copysign(0, -1))
	for _, length := range []int{3, 8, 13, 16, 21} {
		for pattern := range 8 {
			in := make([]float32, 2*length)
			for i := range in {
				switch (i + pattern) % 4 {
				case 0:
					in[i] = negZero
				case 1:
					in[i] = 0
				case 2:
					in[i] = -float32(1+i%3) * 0.5
				default:
					in[i] = negZero
				}
			}
			want := make([]float32, len(in))
			fusedSoftmax(in, want, 1, shapes.Make(dtypes.Float32, 2, length), fastmath.Exp32)
			for name, rowsFn := range fns {
				got := make([]float32, len(in))
				rowsFn(in, got, length)
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
						t.Fatalf("%s, row length %d, zeros pattern %d: element %d: got %#x, want %#x", name, length, pattern, i,
							math.Float32bits(got[i]), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
	for _, rowsFn := range fns {
		rowsFn([]float32{}, []float32{}, 0) // returns (a zero-length axis once looped forever)
	}
}

// TestExp32Vector compares the vector exps with fastmath.Exp32 on every 251st float32 bit pattern
// (17 million inputs, a NaN gives a NaN).
func TestExp32Vector(t *testing.T) {
	checkExp32Vector(t, 251)
}

// TestExp32VectorAllInputs compares them on all 2^32 float32 values: about 90 s on one core, so it runs
// when COMPUTE_TEST_EXHAUSTIVE=1.
func TestExp32VectorAllInputs(t *testing.T) {
	if os.Getenv("COMPUTE_TEST_EXHAUSTIVE") != "1" {
		t.Skip("set COMPUTE_TEST_EXHAUSTIVE=1 to compare all 2^32 inputs")
	}
	checkExp32Vector(t, 1)
}

// checkExp32Vector runs expRowsAVX2 (exp(x - 0), 16 values at a time) and, with AVX-512, exp32x16 on the bit
// patterns 0, stride, 2·stride, ...
func checkExp32Vector(t *testing.T, stride uint64) {
	if !archsimd.X86.AVX2() {
		t.Skip("CPU without AVX2")
	}
	hasAVX512 := archsimd.X86.AVX512()
	same := func(got, want float32) bool {
		return math.Float32bits(got) == math.Float32bits(want) || (got != got && want != want)
	}
	var in16, out16, rows16 [16]float32
	zero := archsimd.LoadFloat32x8(&zeroFloat32x8)
	for start := uint64(0); start < 1<<32; start += 16 * stride {
		for j := range in16 {
			in16[j] = math.Float32frombits(uint32(start + uint64(j)*stride))
		}
		if hasAVX512 {
			exp32x16(archsimd.LoadFloat32x16(&in16)).Store(&out16)
		}
		expRowsAVX2(in16[:], rows16[:], zero)
		for j, x := range in16 {
			want := fastmath.Exp32(x)
			if got := rows16[j]; !same(got, want) {
				t.Fatalf("avx2: exp(%g) (%#x): got %g (%#x), want %g (%#x)", x, math.Float32bits(x), got, math.Float32bits(got), want, math.Float32bits(want))
			}
			if got := out16[j]; hasAVX512 && !same(got, want) {
				t.Fatalf("avx512: exp(%g) (%#x): got %g (%#x), want %g (%#x)", x, math.Float32bits(x), got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
}

// BenchmarkSoftmaxRows: one [900, 900] softmax over the last axis (one example's attention at canvas 30).
func BenchmarkSoftmaxRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const rows, axisSize = 900, 900
	in := make([]float32, rows*axisSize)
	for i := range in {
		in[i] = float32(rng.NormFloat64()) * 3
	}
	out := make([]float32, len(in))
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			fusedSoftmax(in, out, 1, shapes.Make(dtypes.Float32, rows, axisSize), fastmath.Exp32)
		}
	})
	for name, rowsFn := range vectorRowFns() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rowsFn(in, out, axisSize)
			}
		})
	}
}

func BenchmarkSoftmaxRowsSmall(b *testing.B) {
	for _, axisSize := range []int{9, 25, 100, 400} {
		rows := 810000 / axisSize
		in := make([]float32, rows*axisSize)
		for i := range in {
			in[i] = float32(i%17) * 0.3
		}
		out := make([]float32, len(in))
		b.Run(fmt.Sprintf("scalar/%d", axisSize), func(b *testing.B) {
			for b.Loop() {
				fusedSoftmax(in, out, 1, shapes.Make(dtypes.Float32, rows, axisSize), fastmath.Exp32)
			}
		})
		for name, rowsFn := range vectorRowFns() {
			b.Run(fmt.Sprintf("%s/%d", name, axisSize), func(b *testing.B) {
				for b.Loop() {
					rowsFn(in, out, axisSize)
				}
			})
		}
	}
}

// TestFusedSoftmaxParallelMatchesRows: the executor's softmax over the last axis of a tensor large enough to be
// split across the backend's workers ([16, 1, 400, 401], rows of a length that is not a multiple of 8) gives
// the bits of softmaxRowsFloat32 on the whole tensor on one goroutine.
func TestFusedSoftmaxParallelMatchesRows(t *testing.T) {
	if softmaxRowsFloat32 == nil {
		t.Skip("no vectorized softmax on this CPU")
	}
	be, err := gobackend.New("parallelism=-1") // an unlimited pool: the only kind the work is split on
	if err != nil {
		t.Fatal(err)
	}
	defer be.Finalize()
	b := be.(*gobackend.Backend)
	rng := rand.New(rand.NewPCG(7, 3))
	shape := shapes.Make(dtypes.Float32, 16, 1, 400, 401)
	in := make([]float32, shape.Size())
	for i := range in {
		in[i] = float32(rng.NormFloat64()) * 4
	}
	buf, err := b.BufferFromFlatData(0, in, shape)
	if err != nil {
		t.Fatal(err)
	}
	node := &gobackend.Node{OpType: compute.OpTypeFusedSoftmax, Shape: shape, Data: &nodeFusedSoftmax{axis: 3}}
	out, err := execFusedSoftmax(b, node, []*gobackend.Buffer{buf.(*gobackend.Buffer)}, []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(in))
	softmaxRowsFloat32(in, want, 401)
	got := out.Flat.([]float32)
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("value %d (row %d): parallel %g, one goroutine %g", i, i/401, got[i], want[i])
		}
	}
}
