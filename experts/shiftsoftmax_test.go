// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/internal/testutil"
)

// shiftSoftmaxConfigs returns random elements of e whose shifts cover -(m-1)..m-1 (zero fill on some axes
// where e has it; circular shifts kept in 0..side-1).
func shiftSoftmaxConfigs(rng *rand.Rand, e Expert, n int) []Element {
	span := e.shiftSpan()
	var out []Element
	for range n {
		el := randomConfig(rng, e)
		for a, side := range []int{e.Rows, e.Cols} {
			el.Shift[a] = rng.IntN(2*span-1) - (span - 1)
			el.ZeroFill[a] = e.ZeroFill && rng.IntN(3) > 0
			if !el.ZeroFill[a] {
				el.Shift[a] = mod(el.Shift[a], side)
			}
		}
		out = append(out, el)
	}
	return out
}

// TestShiftSoftmaxHardGates: with ShiftSoftmax, hard gates give exactly the mask of the element they are
// set to, and read it back, for every signed shift (zero fill and circular) with the other experts at
// random, on a square and a non-square canvas.
func TestShiftSoftmaxHardGates(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(21, 22))
	ran, shifts := 0, map[[2]int]bool{}
	for _, dims := range [][2]int{{6, 6}, {4, 5}} {
		for _, zeroFill := range []bool{false, true} {
			e := DefaultExpert(dims[0], dims[1])
			e.ShiftSoftmax, e.ZeroFill = true, zeroFill
			configs := shiftSoftmaxConfigs(rng, e, 300)
			masks, values := hardGateMasks(t, backend, e, configs)
			n := e.N()
			for i, c := range configs {
				if got, want := e.Action(values[i]).String(), e.ActionOf(c).String(); got != want {
					t.Fatalf("%v zero fill %v, config %d: gates read back %s, set %s", dims, zeroFill, i, got, want)
				}
				want, err := e.ActionOf(c).Mask([]int{e.Rows, e.Cols})
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range masks[i*n*n : (i+1)*n*n] {
					if float64(v) != want.Data[k] {
						t.Fatalf("%v zero fill %v: expert mask differs from %s's at %d", dims, zeroFill, e.ActionOf(c), k)
					}
				}
				ran++
				if zeroFill && c.ZeroFill[0] {
					shifts[[2]int{0, c.Shift[0]}] = true
				}
			}
		}
	}
	// 300 settings on each of 4 experts; the zero-fill rows shifts reach both signs up to ±5.
	if ran != 1200 || !shifts[[2]int{0, -5}] || !shifts[[2]int{0, 5}] {
		t.Errorf("%d settings checked, zero-fill row shifts seen %v: want 1200 and ±5", ran, shifts)
	}
}

// TestShiftSoftmaxGrid: a size-relative expert with ShiftSoftmax shifts each grid circularly by every shift
// -(m-1)..m-1 (with flips and rotations at random), exactly as gridRef does on the host.
func TestShiftSoftmaxGrid(t *testing.T) {
	backend := testutil.Backend(t)
	const l, pad = 6, 10.0
	e := DefaultExpert(l, l)
	e.Lattice, e.ShiftSoftmax, e.ZeroFill, e.Scaling = Grid, true, false, false
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for _, ext := range [][2]int{{3, 5}, {6, 6}, {2, 4}} {
		H, W := ext[0], ext[1]
		grid, canvas := randomGridCanvas(rng, H, W, l, pad)
		var configs []Element
		for s := -(l - 1); s < l; s++ {
			el := randomConfig(rng, e)
			el.Shift = [2]int{mod(s, l), mod(-s, l)}
			el.Scale, el.Down = [2]int{1, 1}, [2]bool{}
			configs = append(configs, el)
		}
		logits, extents := make([][]float32, len(configs)), make([][]int32, len(configs))
		for i, c := range configs {
			logits[i], extents[i] = e.LogitsFor(c, 6), []int32{int32(H), int32(W)}
		}
		out := MustExecOnce(backend, func(lg, ex, x *Node) *Node {
			gates := e.GatesFromLogits(lg, true)
			gates.Extent = ex
			return Einsum("bij,j->bi", e.Mask(gates).Dense(), ConvertDType(x, dtypes.Float32))
		}, logits, extents, canvas)
		got := tensors.MustCopyFlatData[float32](out)
		for i, c := range configs {
			for k, want := range gridRef(c, grid, l, pad) {
				if float64(got[i*l*l+k]) != want {
					t.Fatalf("grid %dx%d, %+v: cell %d is %v, want %v", H, W, c, k, got[i*l*l+k], want)
				}
			}
			checked++
		}
	}
	if checked != 3*(2*l-1) {
		t.Errorf("%d settings checked, want %d", checked, 3*(2*l-1))
	}
}

// TestShiftSoftmaxSoftRows: soft masks with ShiftSoftmax stay convex combinations (rows sum to 1 with
// circular shifts, at most 1 with zero fill).
func TestShiftSoftmaxSoftRows(t *testing.T) {
	backend := testutil.Backend(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, zeroFill := range []bool{false, true} {
		e := DefaultExpert(5, 5)
		e.Scaling, e.ZeroFill, e.ShiftSoftmax = false, zeroFill, true
		checkSoftMaskRows(t, backend, rng, e)
	}
}

// TestShiftSoftmaxStart: the softmax gates start the identity at the probability the binary gates give it,
// (1-σ(init))^L, with the rest spread evenly; the zero-fill start mixes every shift evenly; the gates held
// off select the identity.
func TestShiftSoftmaxStart(t *testing.T) {
	for _, side := range []int{6, 9, 30} {
		e := DefaultExpert(side, side)
		e.ShiftSoftmax = true
		bits := DefaultExpert(side, side)
		wantIdentity := math.Pow(1-1/(1+math.Exp(-bits.TranslationGateInit)), float64(bits.TranslationLayers))
		row := func(bias []float32) []float64 { // the softmax of the rows' shift logits
			size := 2*side - 1
			exp, sum := make([]float64, size), 0.0
			for k := range size {
				exp[k] = math.Exp(float64(bias[k]))
				sum += exp[k]
			}
			for k := range exp {
				exp[k] /= sum
			}
			return exp
		}
		p := row(e.initialGateBias())
		if math.Abs(p[side-1]-wantIdentity) > 1e-6 || math.Abs(p[0]-(1-wantIdentity)/float64(2*side-2)) > 1e-6 {
			t.Errorf("side %d: identity starts at %.4f (want %.4f), shift -%d at %.4f", side, p[side-1], wantIdentity,
				side-1, p[0])
		}
		u := row(e.ZeroFillStart())
		if math.Abs(u[0]-u[side-1]) > 1e-9 {
			t.Errorf("side %d: the zero-fill start is not uniform: %v", side, u)
		}
		if got := e.Action(softmaxValues(e, e.offGateLogits())).String(); got != e.ActionOf(Element{}).String() {
			t.Errorf("side %d: the gates held off select %s, want the identity", side, got)
		}
	}
}

// softmaxValues turns logits into the gate values GatesFromLogits would give (host side).
func softmaxValues(e Expert, logits []float32) GateValues {
	v, k := GateValues{}, 0
	for _, s := range e.segments() {
		size := s.size(e)
		dims := s.dims(e)
		last := dims[len(dims)-1]
		vals := make([]float64, size)
		for i := range size {
			x := float64(logits[k+i])
			if !s.softmax {
				vals[i] = 1 / (1 + math.Exp(-x))
				continue
			}
			if i%last == 0 {
				sum := 0.0
				for j := range last {
					sum += math.Exp(float64(logits[k+i+j]))
				}
				for j := range last {
					vals[i+j] = math.Exp(float64(logits[k+i+j])) / sum
				}
			}
		}
		k += size
		v[s.name] = vals
	}
	return v
}

// TestShiftSoftmaxLikely: LikelyElements ranks the shifts of a softmax row by probability, so two adjacent
// shifts that share the mass are the first two elements (the binary gates would put 7 and 8 at opposite
// corners), and ShiftNeighbors reaches the largest shift the softmax holds.
func TestShiftSoftmaxLikely(t *testing.T) {
	e := DefaultExpert(10, 10)
	e.ShiftSoftmax, e.Rotation, e.Reflection, e.Scaling = true, false, false, false
	logits := e.LogitsFor(Element{Shift: [2]int{7, 0}}, 4)
	logits[8+9] = 3.9 // rows: shift 8 (entry 8 + m - 1) just below shift 7
	v := softmaxValues(e, logits)
	got := e.LikelyElements(v, 2)
	if len(got) != 2 || got[0].Shift != [2]int{7, 0} || got[1].Shift != [2]int{8, 0} {
		t.Errorf("LikelyElements = %+v, want shifts (7,0) then (8,0)", got)
	}
	if e.MaxShift() != 9 {
		t.Errorf("MaxShift = %d, want 9", e.MaxShift())
	}
	n := e.ShiftNeighbors(Element{Shift: [2]int{-8, 0}, ZeroFill: [2]bool{true, false}})
	if len(n) == 0 || n[0].Shift != [2]int{-9, 0} {
		t.Errorf("ShiftNeighbors of zero-fill shift -8: %+v, want -9 first", n)
	}
}
