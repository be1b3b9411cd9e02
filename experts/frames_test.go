// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/internal/testutil"
)

// frameExperts returns an anchored expert on an l x l canvas with k candidate frames, and the same with one
// frame given.
func frameExperts(l, k int) (withCandidates, single Expert) {
	single = DefaultExpert(l, l)
	single.Lattice = Anchored
	withCandidates = single
	withCandidates.FrameCandidates = k
	return withCandidates, single
}

// randomFrame returns a frame (R0, C0, H, W, DR, DC, SR, SC) whose box and placed result fit an l x l canvas.
func randomFrame(rng *rand.Rand, l int) []int32 {
	h, w := 1+rng.IntN(l/2), 1+rng.IntN(l/2)
	r0, c0 := rng.IntN(l-h+1), rng.IntN(l-w+1)
	dr, dc := rng.IntN(l-h+1), rng.IntN(l-w+1)
	return []int32{int32(r0), int32(c0), int32(h), int32(w), int32(dr), int32(dc), 0, 0}
}

// TestFrameCandidatesHard checks the expert with candidate frames at hard gates: its mask is exactly the
// anchored mask of the chosen candidate's frame, for every element of a sample and every candidate, and a
// candidate that reads no box (H = 0) gets no weight.
func TestFrameCandidatesHard(t *testing.T) {
	backend := testutil.Backend(t)
	const l, k = 7, 3
	e, single := frameExperts(l, k)
	rng := rand.New(rand.NewPCG(7, 8))
	configs := allConfigs(rng, single, 40)[:60]
	var logits, singleLogits [][]float32
	var frames [][][]int32
	var chosen [][]int32
	for i, c := range configs {
		cands := [][]int32{randomFrame(rng, l), randomFrame(rng, l), randomFrame(rng, l)}
		c.Frame = i % k
		if i%2 == 0 { // an empty candidate next to the chosen one
			cands[(c.Frame+1)%k] = make([]int32, FrameLen)
		}
		logits, singleLogits = append(logits, e.LogitsFor(c, 6)), append(singleLogits, single.LogitsFor(c, 6))
		frames, chosen = append(frames, cands), append(chosen, cands[c.Frame])
	}
	masks := MustExecOnceN(backend, func(lg, slg, fr, one *Node) []*Node {
		gates := e.GatesFromLogits(lg, true)
		gates.Frames = fr
		sg := single.GatesFromLogits(slg, true)
		sg.Frames = one
		return []*Node{e.Mask(gates).Dense(), single.Mask(sg).Dense()}
	}, logits, singleLogits, frames, chosen)
	got, want := tensors.MustCopyFlatData[float32](masks[0]), tensors.MustCopyFlatData[float32](masks[1])
	n := l * l
	if len(got) != len(configs)*n*n {
		t.Fatalf("%d mask values, want %d", len(got), len(configs)*n*n)
	}
	ones := 0
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("config %d: mask entry %d is %v, want %v (the chosen candidate's anchored mask)", i/(n*n),
				i%(n*n), got[i], want[i])
		}
		if want[i] == 1 {
			ones++
		}
	}
	if ones == 0 {
		t.Fatal("every mask is empty: nothing compared")
	}
	t.Logf("%d elements x their chosen candidate: exact (%d set entries)", len(configs), ones)
}

// TestFrameCandidatesSoft checks the mixture at soft gates: the mask is Σ_k p_k M_k over the candidates
// that read a box, p the frame gates renormalized over them, M_k the anchored mask on candidate k; and the
// same mask by LatticeMask.Unmixed and by SliceBatch in two slices.
func TestFrameCandidatesSoft(t *testing.T) {
	backend := testutil.Backend(t)
	const l, k = 6, 4
	e, single := frameExperts(l, k)
	rng := rand.New(rand.NewPCG(9, 10))
	const batch = 5
	logits := make([][]float32, batch)
	frames := make([][][]int32, batch)
	for b := range batch {
		logits[b] = make([]float32, e.NumGates())
		for i := range logits[b] {
			logits[b][i] = float32(rng.NormFloat64())
		}
		frames[b] = make([][]int32, k)
		for c := range k {
			frames[b][c] = randomFrame(rng, l)
		}
		frames[b][b%k] = make([]int32, FrameLen) // one candidate reads no box
	}
	out := MustExecOnceN(backend, func(lg, fr *Node) []*Node {
		gates := e.GatesFromLogits(lg, false)
		gates.Frames = fr
		lm := e.Mask(gates)
		mix := lm.Dense()
		// The reference: the single-frame expert on each candidate, with the same gates, weighted by hand.
		sg := *gates
		sg.Frame = nil
		var sum *Node
		h := ConvertDType(GreaterThan(Slice(fr, AxisRange(), AxisRange(), AxisElem(2)), ZerosLike(
			Slice(fr, AxisRange(), AxisRange(), AxisElem(2)))), gates.Frame.DType())
		p := Mul(gates.Frame, Reshape(h, batch, k))
		p = Div(p, ReduceAndKeep(p, ReduceSum, -1))
		for c := range k {
			sg.Frames = Reshape(Slice(fr, AxisRange(), AxisElem(c)), batch, FrameLen)
			term := Mul(single.Mask(&sg).Dense(), Reshape(Slice(p, AxisRange(), AxisElem(c)), batch, 1, 1))
			if sum == nil {
				sum = term
			} else {
				sum = Add(sum, term)
			}
		}
		sliced := Concatenate([]*Node{lm.SliceBatch(0, 2).Dense(), lm.SliceBatch(2, batch).Dense()}, 0)
		return []*Node{mix, sum, lm.Unmixed().Dense(), sliced}
	}, logits, frames)
	got, want := tensors.MustCopyFlatData[float32](out[0]), tensors.MustCopyFlatData[float32](out[1])
	others := [][]float32{tensors.MustCopyFlatData[float32](out[2]), tensors.MustCopyFlatData[float32](out[3])}
	for i, other := range others {
		for j := range got {
			if math.Abs(float64(got[j]-other[j])) > 1e-6 {
				t.Fatalf("entry %d: mixture %v, %s %v", j, got[j], []string{"Unmixed", "SliceBatch"}[i], other[j])
			}
		}
	}
	total := 0.0
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("entry %d: mixture %v, Σ p_k M_k %v", i, got[i], want[i])
		}
		total += float64(want[i])
	}
	if total < 1 {
		t.Fatalf("the masks sum to %v: nothing compared", total)
	}
	t.Logf("%d examples x %d candidates, %d entries: equal (mask mass %.1f)", batch, k, len(got), total)
}

// TestFrameCandidatesNeverEmpty checks that the gates never choose a candidate that reads no box, however
// strongly its logit is set (GatesFor's withoutEmptyFrames), and that they choose a set one as the logits say.
func TestFrameCandidatesNeverEmpty(t *testing.T) {
	backend := testutil.Backend(t)
	const l, k = 5, 4
	e, _ := frameExperts(l, k)
	rng := rand.New(rand.NewPCG(11, 12))
	var logits [][]float32
	var frames [][][]int32
	var wantFrame []int
	for i := range 2 * k {
		el := Element{Frame: i % k}
		cands := make([][]int32, k)
		for c := range k {
			cands[c] = randomFrame(rng, l)
		}
		want := el.Frame
		if i < k { // the favoured candidate is empty: the next one (favoured second by the logits) is chosen
			cands[el.Frame] = make([]int32, FrameLen)
			want = (el.Frame + 1) % k
		}
		lg := e.LogitsFor(el, 10)
		lg[e.NumGates()-k+want] = 5
		logits, frames, wantFrame = append(logits, lg), append(frames, cands), append(wantFrame, want)
	}
	out := MustExecOnce(backend, func(lg, fr *Node) *Node {
		return e.GatesFromLogits(e.withoutEmptyFrames(lg, fr), true).Frame
	}, logits, frames)
	got := tensors.MustCopyFlatData[float32](out)
	for i, want := range wantFrame {
		for c := range k {
			if v, on := got[i*k+c], c == want; (v == 1) != on {
				t.Fatalf("case %d: frame gate %d is %v, want candidate %d chosen", i, c, v, want)
			}
		}
	}
	t.Logf("%d cases, %d with the favoured candidate empty: chosen as wanted", len(wantFrame), k)
}
