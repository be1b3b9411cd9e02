// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/internal/testutil"
	"github.com/latformer/latformer/lattice"
)

func randomConfig(rng *rand.Rand, e Expert) Element {
	var c Element
	for a := range 2 {
		c.Shift[a] = rng.IntN(1 << e.TranslationLayers)
		c.Flip[a] = rng.IntN(2) == 1
		c.Scale[a] = 1 + rng.IntN(e.MaxScale)
		c.Down[a] = rng.IntN(2) == 1
	}
	c.Quarter = rng.IntN(4)
	return c
}

// allConfigs lists: every translation reachable by the gates of both axes, every combination of the
// flips, rotations, scaling factors and transpose gates (translation off), and random combinations of all.
func allConfigs(rng *rand.Rand, e Expert, numRandom int) []Element {
	var cs []Element
	L := e.TranslationLayers
	for r := range 1 << L {
		for col := range 1 << L {
			cs = append(cs, Element{Shift: [2]int{r, col}})
		}
	}
	for bits := range 16 {
		for s0 := 1; s0 <= e.MaxScale; s0++ {
			for s1 := 1; s1 <= e.MaxScale; s1++ {
				for tp := range 4 {
					cs = append(cs, Element{
						Flip:    [2]bool{bits&1 != 0, bits&2 != 0},
						Quarter: bits >> 2,
						Scale:   [2]int{s0, s1},
						Down:    [2]bool{tp&1 != 0, tp&2 != 0},
					})
				}
			}
		}
	}
	for range numRandom {
		cs = append(cs, randomConfig(rng, e))
	}
	return cs
}

// TestGateLayout pins the layout of the gate logits (gateTable): for a small expert, the logits that
// select one element, their initial bias, and the element read back from them.
func TestGateLayout(t *testing.T) {
	e := DefaultExpert(4, 4)
	e.TranslationLayers, e.MaxScale, e.FlipGateInit = 2, 3, -2
	e.ZeroFill, e.TranslationGateInit = false, 0 // the zero-fill segment is pinned by TestExpertZeroFillHardGates
	el := Element{Shift: [2]int{1, 2}, Flip: [2]bool{true, false}, Quarter: 3, Scale: [2]int{2, 1}, Down: [2]bool{false, true}}
	got := e.LogitsFor(el, 1)
	want := []float32{
		+1, -1, -1, +1, // translation: rows 1 = 0b01, columns 2 = 0b10 (layer k shifts by 2^k)
		+1, -1, // reflection of rows, columns
		+1, +1, // rotation: 90°, 180° (3 quarter turns)
		-1, +1, -1, +1, -1, -1, // scale: softmax over h = 1..3, per axis
		-1, +1, // transpose (down-scaling) per axis
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("LogitsFor:\n got %v\nwant %v", got, want)
	}
	if e.NumGates() != len(want) {
		t.Errorf("NumGates = %d, want %d", e.NumGates(), len(want))
	}
	bias := []float32{0, 0, 0, 0, -2, -2, -2, -2, 4, 0, 0, 4, 0, 0, -4, -4}
	if fmt.Sprint(e.initialGateBias()) != fmt.Sprint(bias) {
		t.Errorf("initial bias:\n got %v\nwant %v", e.initialGateBias(), bias)
	}
	v := GateValues{
		"translation": {1, 0, 0, 1}, "reflection": {1, 0}, "rotation": {1, 1},
		"scale": {0.1, 0.8, 0.1, 0.7, 0.2, 0.1}, "transpose": {0, 1},
	}
	if back := e.ElementOf(v); back != el {
		t.Errorf("ElementOf: got %+v, want %+v", back, el)
	}
	if got, want := e.Action(v).String(), e.ActionOf(el).String(); got != want {
		t.Errorf("Action %s != ActionOf %s", got, want)
	}
}

// hardGateMasks sets the expert's hard gates to each element of configs (LogitsFor) and returns the
// dense masks, flattened one after the other, and the gate values read back from the graph.
func hardGateMasks(t *testing.T, backend compute.Backend, e Expert, configs []Element) ([]float32, []GateValues) {
	t.Helper()
	logits := make([][]float32, len(configs))
	for i, c := range configs {
		logits[i] = e.LogitsFor(c, 6)
	}
	outs := MustExecOnceN(backend, func(l *Node) []*Node {
		gates := e.GatesFromLogits(l, true)
		return append([]*Node{e.Mask(gates).Dense()}, gates.GateTensors()...)
	}, logits)
	values, err := e.DecodeGates(outs[1:])
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](outs[0]), values
}

// TestExpertHardGatesRoundTrip checks gate discretization (Section 4.1): with hard gates, the expert's
// mask is exactly (max abs diff 0) the binary mask M_g of the group element that Expert.Action reads
// back from the gates, for every reachable translation, every combination of flips, rotations and
// scalings, and random combinations of everything, on a square canvas (with rotation) and a
// non-square one (without).
func TestExpertHardGatesRoundTrip(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dims := range [][2]int{{6, 6}, {4, 5}} {
		e := DefaultExpert(dims[0], dims[1])
		configs := allConfigs(rng, e, 300)
		masks, values := hardGateMasks(t, backend, e, configs)
		n := e.N()
		distinct := map[string]bool{}
		for i := range configs {
			action := e.Action(values[i])
			want, err := action.Mask([]int{e.Rows, e.Cols})
			if err != nil {
				t.Fatalf("config %d: %v.Mask: %v", i, action, err)
			}
			maxErr := 0.0
			for k, v := range masks[i*n*n : (i+1)*n*n] {
				maxErr = max(maxErr, math.Abs(float64(v)-want.Data[k]))
			}
			if maxErr != 0 {
				t.Fatalf("%v canvas, config %d: expert mask differs from M_g of %v by %g", dims, i, action, maxErr)
			}
			distinct[fmt.Sprint(want.Data)] = true
		}
		t.Logf("canvas %dx%d: %d hard gate settings round-trip exactly, %d distinct masks", dims[0], dims[1], len(configs), len(distinct))
	}
}

// TestExpertSoftMaskRows checks that with soft gates and without scaling every row of the mask is a
// probability distribution (a convex combination of permutation masks): rows sum to 1, entries in [0,1].
func TestExpertSoftMaskRows(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, zeroFill := range []bool{false, true} {
		e := DefaultExpert(5, 5)
		e.Scaling, e.ZeroFill = false, zeroFill
		checkSoftMaskRows(t, backend, rng, e)
	}
}

// checkSoftMaskRows checks that e's soft masks for random logits have entries in [0,1] and rows that
// sum to 1 (circular translations: a convex combination of permutations) or to at most 1 (zero-fill
// shifts lose the cells shifted in from outside).
func checkSoftMaskRows(t *testing.T, backend compute.Backend, rng *rand.Rand, e Expert) {
	logits := make([][]float32, 8)
	for i := range logits {
		logits[i] = make([]float32, e.NumGates())
		for j := range logits[i] {
			logits[i][j] = float32(rng.NormFloat64() * 2)
		}
	}
	for _, smooth := range []bool{false, true} {
		m := MustExecOnce(backend, func(l *Node) *Node {
			g := e.GatesFromLogits(l, false)
			if smooth {
				return e.SmoothedMask(g).Dense()
			}
			return e.Mask(g).Dense()
		}, logits)
		flat := tensors.MustCopyFlatData[float32](m)
		n := e.N()
		worst := 0.0
		for r := range len(flat) / n {
			sum := 0.0
			for _, v := range flat[r*n : (r+1)*n] {
				if v < -1e-6 || v > 1+1e-6 {
					t.Fatalf("entry %g outside [0,1]", v)
				}
				sum += float64(v)
			}
			if e.ZeroFill {
				worst = max(worst, sum-1)
			} else {
				worst = max(worst, math.Abs(sum-1))
			}
		}
		t.Logf("zero fill %v, smooth=%v: max row sum deviation = %.2e", e.ZeroFill, smooth, worst)
		if worst > 1e-5 {
			t.Errorf("zero fill %v, smooth=%v: rows do not sum to 1 (or at most 1 with zero fill; deviation %g)", e.ZeroFill, smooth, worst)
		}
	}
}

// TestHeatKernel checks the smoothing kernels: rows sum to 1, symmetric, and for the cycle C_n the
// kernel is circulant with a peak at distance 0 decreasing with the distance; t -> 0 gives the identity.
func TestHeatKernel(t *testing.T) {
	for _, n := range []int{2, 4, 7, 30} {
		h := lattice.CycleHeatKernel(n, 1)
		for i := range n {
			sum := 0.0
			for j := range n {
				sum += h.At(i, j)
				if math.Abs(h.At(i, j)-h.At(j, i)) > 1e-12 {
					t.Fatalf("n=%d: not symmetric", n)
				}
				if math.Abs(h.At(i, j)-h.At(0, mod(j-i, n))) > 1e-12 {
					t.Fatalf("n=%d: not circulant", n)
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("n=%d row %d sums to %g", n, i, sum)
			}
		}
		for d := 1; d <= n/2; d++ {
			if h.At(0, d) >= h.At(0, d-1) {
				t.Errorf("n=%d: kernel not decreasing with distance at %d: %g >= %g", n, d, h.At(0, d), h.At(0, d-1))
			}
		}
		t.Logf("C_%d heat kernel t=1, row 0: %.4f", n, h.Data[:min(n, 5)])
	}
	if d := lattice.CycleHeatKernel(5, 1e-9).MaxAbsDiff(lattice.IdentityMatrix(5)); d > 1e-8 {
		t.Errorf("t->0: kernel differs from I by %g", d)
	}
	// C2 kernel closed form: (1 + e^{-2t})/2 on the diagonal.
	if got, want := lattice.CycleHeatKernel(2, 0.7).At(0, 0), (1+math.Exp(-1.4))/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("C2 kernel: got %g want %g", got, want)
	}
}

// TestRotationalSmoothing checks Figure 4: with the rotation gate off (identity), the smoothed mask is
// the heat-kernel mixture Σ_k h_k M_{R^k} of the four rotation masks (translation, reflection and
// scaling at the identity), and with the gate on it is the same mixture shifted by one rotation.
func TestRotationalSmoothing(t *testing.T) {
	backend := testutil.Backend(t)
	e := DefaultExpert(4, 4)
	e.Translation, e.Reflection, e.Scaling = false, false, false
	dims := []int{4, 4}
	h := lattice.CycleHeatKernel(4, e.SmoothingTime)
	for _, rot := range []bool{false, true} {
		r := float32(-30)
		if rot {
			r = 30
		}
		m := MustExecOnce(backend, func(l *Node) *Node {
			return e.SmoothedMask(e.GatesFromLogits(l, false)).Dense()
		}, [][]float32{{r, -30}})
		got := tensors.MustCopyFlatData[float32](m)
		want := lattice.NewMatrix(16, 16)
		start := 0
		if rot {
			start = 1
		}
		for k := range 4 {
			rk, _ := lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: k}.Mask(dims)
			w := h.At(start, k)
			for i := range want.Data {
				want.Data[i] += w * rk.Data[i]
			}
		}
		maxErr := 0.0
		for i := range got {
			maxErr = max(maxErr, math.Abs(float64(got[i])-want.Data[i]))
		}
		t.Logf("rotation gate %v: max |smoothed - Σ h_k M_R^k| = %.2e (weights %.3f)", rot, maxErr, h.Data[4*start:4*start+4])
		if maxErr > 1e-5 {
			t.Errorf("rotation gate %v: smoothed mask differs by %g", rot, maxErr)
		}
	}
}

// TestTranslationalSmoothing checks that the smoothed translation mask is the Kronecker product of the
// per-axis heat kernels times the translation mask (Gaussian smoothing on the translation grid).
func TestTranslationalSmoothing(t *testing.T) {
	backend := testutil.Backend(t)
	e := DefaultExpert(5, 6)
	e.Reflection, e.Scaling, e.Rotation = false, false, false
	m := MustExecOnce(backend, func(l *Node) *Node {
		return e.SmoothedMask(e.GatesFromLogits(l, true)).Dense()
	}, [][]float32{e.LogitsFor(Element{Shift: [2]int{3, 2}}, 6)})
	got := tensors.MustCopyFlatData[float32](m)
	want := lattice.Kron(lattice.CycleHeatKernel(5, 1).MatMul(lattice.TranslationMask1D(5, 3)), lattice.CycleHeatKernel(6, 1).MatMul(lattice.TranslationMask1D(6, 2)))
	maxErr := 0.0
	for i := range got {
		maxErr = max(maxErr, math.Abs(float64(got[i])-want.Data[i]))
	}
	t.Logf("max |smoothed translation - (H_5 T_3) ⊗ (H_6 T_2)| = %.2e", maxErr)
	if maxErr > 1e-5 {
		t.Errorf("smoothed translation mask differs by %g", maxErr)
	}
}

// TestGateGradients checks that the loss gradient reaches every gate logit of a soft expert (the
// kernels are frozen constants, only gates learn).
func TestGateGradients(t *testing.T) {
	backend := testutil.Backend(t)
	e := DefaultExpert(5, 5)
	rng := rand.New(rand.NewPCG(11, 12))
	target := tensors.FromShape(shapes.Make(dtypes.Float32, 1, 25, 25))
	tensors.MustMutableFlatData[float32](target, func(f []float32) {
		for i := range f {
			f[i] = float32(rng.Float64())
		}
	})
	logits := make([]float32, e.NumGates())
	for i := range logits {
		logits[i] = float32(rng.NormFloat64())
	}
	grad := MustExecOnce(backend, func(l, tgt *Node) *Node {
		m := e.Mask(e.GatesFromLogits(l, false)).Dense()
		return Gradient(ReduceAllSum(Mul(m, tgt)), l)[0]
	}, [][]float32{logits}, target)
	zeros := 0
	for _, v := range tensors.MustCopyFlatData[float32](grad) {
		if v == 0 {
			zeros++
		}
	}
	if zeros > 0 {
		t.Errorf("%d of %d gate logits get a zero gradient", zeros, e.NumGates())
	}
}

// ExampleExpert builds the translation expert's mask with hard gates set to shift rows by 1 and
// columns by 2 on a 3x4 canvas, and reads the group element back from the gates.
func ExampleExpert() {
	backend, _ := compute.NewWithConfig("go:ops_sequential") // one graph node at a time
	e := DefaultExpert(3, 4)
	e.Rotation, e.Reflection, e.Scaling = false, false, false
	e.TranslationLayers = 2 // shifts 0..3 per axis
	logits := [][]float32{e.LogitsFor(Element{Shift: [2]int{1, 2}}, 5)}
	outs := MustExecOnceN(backend, func(l *Node) []*Node {
		gates := e.GatesFromLogits(l, true)
		return append([]*Node{e.Mask(gates).Dense()}, gates.GateTensors()...)
	}, logits)
	values, _ := e.DecodeGates(outs[1:])
	fmt.Println("learned action:", e.Action(values[0]))
	m := lattice.NewMatrix(12, 12)
	for i, v := range tensors.MustCopyFlatData[float32](outs[0]) {
		m.Data[i] = float64(v)
	}
	fmt.Print(m.ASCII())
	// Output:
	// learned action: translate(1,2)
	// ..........#.
	// ...........#
	// ........#...
	// .........#..
	// ..#.........
	// ...#........
	// #...........
	// .#..........
	// ......#.....
	// .......#....
	// ....#.......
	// .....#......
}

// TestEvaluateLogits checks the host helper against the exact masks: LogitsFor a configuration, hard
// gates, gives the mask of the action it reads back, which is the intended one.
func TestEvaluateLogits(t *testing.T) {
	backend := testutil.Backend(t)
	e := DefaultExpert(6, 6)
	logits := [][]float32{
		e.LogitsFor(Element{Shift: [2]int{1, 2}}, 6),
		e.LogitsFor(Element{Flip: [2]bool{true, false}, Quarter: 1, Scale: [2]int{2, 1}}, 6),
	}
	res, err := e.EvaluateLogits(backend, logits, true, false)
	if err != nil {
		t.Fatal(err)
	}
	wants := []lattice.Action{lattice.Translation{Deltas: []int{1, 2}}, lattice.Compose(lattice.Reflection{Axis: 0}, lattice.Upscale{Factors: []int{2, 1}}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1})}
	for i, want := range wants {
		m, _ := want.Mask([]int{6, 6})
		if !res.Masks[i].Equal(m, 0) {
			t.Errorf("config %d: mask differs from %v's (read back: %v)", i, want, res.Actions[i])
		}
		if got, _ := res.Actions[i].Mask([]int{6, 6}); !got.Equal(m, 0) {
			t.Errorf("config %d: read back %v, want %v", i, res.Actions[i], want)
		}
	}
	if _, err := e.EvaluateLogits(backend, [][]float32{{1, 2}}, true, false); err == nil {
		t.Errorf("want an error for a wrong number of logits")
	}
}

// TestExpertZeroFillHardGates checks the zero-fill translation gates (ParamZeroFill): with hard gates the
// expert's mask is exactly the mask of the element Action reads back, which is the element the gates
// were set to (zero-fill shifts forwards and backwards, circular shifts, one axis of each, with flips,
// rotations and scalings), on a square and a non-square canvas.
func TestExpertZeroFillHardGates(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(17, 18))
	for _, dims := range [][2]int{{6, 6}, {4, 5}} {
		e := DefaultExpert(dims[0], dims[1])
		e.ZeroFill = true
		var configs []Element
		for range 300 {
			el := randomConfig(rng, e)
			for a := range 2 {
				el.Shift[a] = rng.IntN(1<<e.TranslationLayers) * (1 - 2*rng.IntN(2))
				el.ZeroFill[a] = rng.IntN(3) > 0
				if !el.ZeroFill[a] {
					el.Shift[a] = mod(el.Shift[a], 1<<e.TranslationLayers)
				}
			}
			configs = append(configs, el)
		}
		masks, values := hardGateMasks(t, backend, e, configs)
		n := e.N()
		zeroRows := 0
		for i, c := range configs {
			if got, want := e.Action(values[i]).String(), e.ActionOf(c).String(); got != want {
				t.Fatalf("config %d: gates read back %s, set %s", i, got, want)
			}
			want, err := e.ActionOf(c).Mask([]int{e.Rows, e.Cols})
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range masks[i*n*n : (i+1)*n*n] {
				if float64(v) != want.Data[k] {
					t.Fatalf("%v canvas, %s: expert mask differs from the action's at %d", dims, e.ActionOf(c), k)
				}
			}
			for r := range n {
				empty := true
				for k := range n {
					empty = empty && want.At(r, k) == 0
				}
				if empty {
					zeroRows++
				}
			}
		}
		t.Logf("canvas %v: %d settings exact, %d all-zero mask rows in all (shifted-in cells)", dims, len(configs), zeroRows)
		if zeroRows == 0 {
			t.Error("no setting shifted a cell in: the zero-fill path was not exercised")
		}
	}
}

// TestLatticeMaskSliceBatch checks SliceBatch: the dense mask of examples 1..3 of a batch of 4 (with a
// grid-lattice expert, whose rotations carry per-example Flip tensors, and smoothing) is exactly rows 1..3
// of the whole batch's dense mask, and an empty or out-of-range slice panics.
func TestLatticeMaskSliceBatch(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(41, 42))
	e := DefaultExpert(4, 4)
	e.Lattice = Grid
	logits := testutil.NormalTensor(rng, 4, e.NumGates())
	extents := tensors.FromValue([][]int32{{3, 4}, {4, 4}, {2, 2}, {4, 1}})
	for _, smooth := range []bool{false, true} {
		d := MustExecOnce(backend, func(lg, ex *Node) *Node {
			gates := e.GatesFromLogits(MulScalar(lg, 3), false)
			gates.Extent = ex
			m := e.Mask(gates)
			if smooth {
				m = e.SmoothedMask(gates)
			}
			return ReduceAllMax(Abs(Sub(m.SliceBatch(1, 3).Dense(), Slice(m.Dense(), AxisRange(1, 3)))))
		}, logits, extents)
		if diff := tensors.ToScalar[float32](d); diff != 0 {
			t.Errorf("smooth=%v: SliceBatch(1, 3) differs from the whole batch's examples 1..3 by %g", smooth, diff)
		}
	}
	for _, r := range [][2]int{{2, 2}, {-1, 2}, {3, 5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SliceBatch(%d, %d) of a batch of 4 did not panic", r[0], r[1])
				}
			}()
			_ = MustExecOnce(backend, func(lg *Node) *Node {
				return e.Mask(e.GatesFromLogits(lg, false)).SliceBatch(r[0], r[1]).Dense()
			}, logits)
		}()
	}
}
