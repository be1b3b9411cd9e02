// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/lattice"
)

// Gates holds the gate values of an Expert for a batch, all in [0, 1]. Axis 0 is rows, axis 1 columns.
// A field is nil when its expert is disabled. The layout of each field is given by gateTable.
type Gates struct {
	Translation *Node // [batch, 2, L]: α, layer k shifts by 2^k.
	// Shift replaces Translation with Expert.ShiftSoftmax. It is [batch, 2, 2m-1]: per axis, the
	// probabilities of the shifts -(m-1)..m-1, m = max(Rows, Cols).
	Shift *Node
	// ZeroFill is [batch, 2, 2]: per axis, γ (fill with zeros, not wrap around) and δ (go backwards).
	// With Shift, whose shifts are signed, it is [batch, 2, 1], γ alone.
	ZeroFill   *Node
	Reflection *Node // [batch, 2]: φ, flip of each axis.
	Rotation   *Node // [batch, 2]: ρ_1 (90° counter-clockwise), ρ_2 (180°).
	Scale      *Node // [batch, 2, MaxScale]: π, probabilities of the up-scaling factors 1..MaxScale.
	Transpose  *Node // [batch, 2]: τ, down-scaling (transpose of the up-scaling mask) of each axis.
	// Extent is [batch, 2] int32, each input grid's rows and columns (GridExtents), for a Grid expert.
	// It is an input, not a gate.
	Extent *Node
	// Frames is [batch, FrameLen] int32, each example's frame (R0, C0, H, W, DR, DC, SR, SC: search.Frame).
	// An Anchored expert requires it. The H x W box at (R0, C0), moved to the top-left, is the grid the
	// expert acts on, and its result is shifted by (DR, DC) with zero fill. Where SR > 0, the up-scaling
	// factors are SR x SC instead of the scaling gates'. With Expert.FrameCandidates = K, it is
	// [batch, K, FrameLen]. It is an input, not a gate.
	Frames *Node
	// Frame is [batch, K], the probabilities of the K candidate frames (Expert.FrameCandidates).
	Frame *Node
}

// FrameLen is the length of an anchored expert's frame per example (Gates.Frames; search.Frame.Ints).
const FrameLen = 8

// Element is a group element in the expert's own parametrization, what a setting of hard gates
// selects. Fields of disabled experts are ignored.
type Element struct {
	Shift [2]int // translation per axis (rows, columns); circular: the gates hold it modulo 2^L
	// ZeroFill makes the axis's translation a zero-fill shift (lattice.Shift) by the signed Shift.
	ZeroFill [2]bool
	Flip     [2]bool // reflection of each axis
	Quarter  int     // counter-clockwise quarter turns, 0..3
	Scale    [2]int  // up- (or, with Down, down-) scaling factor per axis, 1..MaxScale (0 means 1)
	Down     [2]bool // the scaling of the axis is a down-scaling (the transpose of the up-scaling mask)
	// Frame is the candidate frame the element acts on (Expert.FrameCandidates); not part of the action.
	Frame int
}

// gateSegment describes one segment of an expert's gate logits: its place in Gates, its shape per
// example, how logits become gates, their initial bias, and how a hard setting encodes an Element.
// gateTable lists the segments in the order of the logits. Every function that knows the layout reads
// it, so a new kind of gate is one entry there plus the mask code that uses it.
type gateSegment struct {
	name    string               // key of the segment in GateValues
	family  byte                 // the expert it belongs to, as FreeGates names it: 't', 'r', 'f', 's' (or 'b', frames)
	field   func(*Gates) **Node  // where the gates go
	enabled func(e Expert) bool  // whether the expert has this segment
	dims    func(e Expert) []int // shape per example; a softmax runs over the last axis
	softmax bool                 // softmax over the last axis (hard: one-hot argmax); else sigmoids (hard: > 0)
	bias    func(e Expert, idx []int) float32
	// on says whether gate idx is set, or is the argmax, in the hard setting that selects el.
	on func(e Expert, el Element, idx []int) bool
	// set records in el what gate idx being set (or being the argmax) means.
	set func(e Expert, el *Element, idx []int)
}

// gateTable is the layout of the gate logits, in order.
var gateTable = []gateSegment{
	{
		name: "translation", family: 't', field: func(g *Gates) **Node { return &g.Translation },
		enabled: func(e Expert) bool { return e.Translation && !e.ShiftSoftmax },
		dims:    func(e Expert) []int { return []int{2, e.TranslationLayers} },
		// With 0, every shift bit starts at 0.5 and the gradient chooses; a negative value starts near
		// the identity.
		bias: func(e Expert, _ []int) float32 { return float32(e.TranslationGateInit) },
		on: func(_ Expert, el Element, idx []int) bool {
			s := el.Shift[idx[0]]
			if el.ZeroFill[idx[0]] && s < 0 {
				s = -s
			}
			return s&(1<<idx[1]) != 0
		},
		set: func(_ Expert, el *Element, idx []int) { el.Shift[idx[0]] += 1 << idx[1] },
	},
	{
		// One softmax per axis over the signed shifts; entry k is the shift k-(m-1).
		name: "shift", family: 't', field: func(g *Gates) **Node { return &g.Shift },
		enabled: func(e Expert) bool { return e.Translation && e.ShiftSoftmax },
		dims:    func(e Expert) []int { return []int{2, 2*e.shiftSpan() - 1} },
		softmax: true,
		bias: func(e Expert, idx []int) float32 {
			if idx[1] == e.shiftSpan()-1 {
				return e.shiftIdentityLogit()
			}
			return 0
		},
		on:  func(e Expert, el Element, idx []int) bool { return idx[1] == e.shiftIndex(el, idx[0]) },
		set: func(e Expert, el *Element, idx []int) { el.Shift[idx[0]] = idx[1] - (e.shiftSpan() - 1) },
	},
	{
		// After the translation bits, so that δ can turn the shift read so far backwards.
		name: "zerofill", family: 't', field: func(g *Gates) **Node { return &g.ZeroFill },
		enabled: func(e Expert) bool { return e.Translation && e.ZeroFill },
		dims: func(e Expert) []int {
			if e.ShiftSoftmax {
				return []int{2, 1}
			}
			return []int{2, 2}
		},
		bias: func(e Expert, idx []int) float32 { return float32(e.ZeroFillGateInit) * float32(1-idx[1]) },
		on: func(_ Expert, el Element, idx []int) bool {
			if idx[1] == 0 {
				return el.ZeroFill[idx[0]]
			}
			return el.ZeroFill[idx[0]] && el.Shift[idx[0]] < 0
		},
		set: func(_ Expert, el *Element, idx []int) {
			switch {
			case idx[1] == 0:
				el.ZeroFill[idx[0]] = true
			case el.ZeroFill[idx[0]]:
				el.Shift[idx[0]] = -el.Shift[idx[0]]
			}
		},
	},
	{
		name: "reflection", family: 'f', field: func(g *Gates) **Node { return &g.Reflection },
		enabled: func(e Expert) bool { return e.Reflection },
		dims:    func(Expert) []int { return []int{2} },
		bias:    func(e Expert, _ []int) float32 { return float32(e.FlipGateInit) },
		on:      func(_ Expert, el Element, idx []int) bool { return el.Flip[idx[0]] },
		set:     func(_ Expert, el *Element, idx []int) { el.Flip[idx[0]] = true },
	},
	{
		name: "rotation", family: 'r', field: func(g *Gates) **Node { return &g.Rotation },
		enabled: func(e Expert) bool { return e.Rotation },
		dims:    func(Expert) []int { return []int{2} }, // ρ_1: 90°, ρ_2: 180°
		bias:    func(e Expert, _ []int) float32 { return float32(e.FlipGateInit) },
		on: func(_ Expert, el Element, idx []int) bool {
			q := mod(el.Quarter, 4)
			return (idx[0] == 0 && q%2 == 1) || (idx[0] == 1 && q >= 2)
		},
		set: func(_ Expert, el *Element, idx []int) { el.Quarter += 1 + idx[0] },
	},
	{
		name: "scale", family: 's', field: func(g *Gates) **Node { return &g.Scale },
		enabled: func(e Expert) bool { return e.Scaling },
		dims:    func(e Expert) []int { return []int{2, e.MaxScale} },
		softmax: true,
		// The softmax favours h = 1: the expert starts at the identity.
		bias: func(_ Expert, idx []int) float32 {
			if idx[1] == 0 {
				return 4
			}
			return 0
		},
		on:  func(_ Expert, el Element, idx []int) bool { return idx[1]+1 == max(1, el.Scale[idx[0]]) },
		set: func(_ Expert, el *Element, idx []int) { el.Scale[idx[0]] = idx[1] + 1 },
	},
	{
		name: "transpose", family: 's', field: func(g *Gates) **Node { return &g.Transpose },
		enabled: func(e Expert) bool { return e.Scaling },
		dims:    func(Expert) []int { return []int{2} },
		bias:    func(Expert, []int) float32 { return -4 },
		on:      func(_ Expert, el Element, idx []int) bool { return el.Down[idx[0]] },
		set:     func(_ Expert, el *Element, idx []int) { el.Down[idx[0]] = true },
	},
	{
		// Which candidate frame the element acts on: a softmax over the candidates, all equal at the start.
		name: "frame", family: 'b', field: func(g *Gates) **Node { return &g.Frame },
		enabled: func(e Expert) bool { return e.Lattice == Anchored && e.FrameCandidates > 0 },
		dims:    func(e Expert) []int { return []int{e.FrameCandidates} },
		softmax: true,
		bias:    func(Expert, []int) float32 { return 0 },
		on:      func(_ Expert, el Element, idx []int) bool { return idx[0] == el.Frame },
		set:     func(_ Expert, el *Element, idx []int) { el.Frame = idx[0] },
	},
}

// shiftSpan is m = max(Rows, Cols): the softmax translation gates hold the shifts -(m-1)..m-1.
func (e Expert) shiftSpan() int { return max(e.Rows, e.Cols) }

// MaxShift is the largest shift magnitude the translation gates hold: 2^L - 1 in binary, m - 1 with
// ShiftSoftmax.
func (e Expert) MaxShift() int {
	if e.ShiftSoftmax {
		return e.shiftSpan() - 1
	}
	return 1<<e.TranslationLayers - 1
}

// shiftIndex is the entry of axis a's softmax translation gates that holds el's shift: signed on a
// zero-fill axis, else modulo the side.
func (e Expert) shiftIndex(el Element, a int) int {
	s := el.Shift[a]
	if !e.ZeroFill || !el.ZeroFill[a] {
		s = mod(s, []int{e.Rows, e.Cols}[a])
	}
	return s + e.shiftSpan() - 1
}

// shiftIdentityLogit is the initial logit of shift 0 in the softmax translation gates; the others
// start at 0. It gives the identity the probability the binary gates start it at, (1-σ(init))^L.
func (e Expert) shiftIdentityLogit() float32 {
	layers := bits.Len(uint(e.shiftSpan() - 1))
	p := math.Pow(1-1/(1+math.Exp(-e.TranslationGateInit)), float64(max(1, layers)))
	others := float64(2*e.shiftSpan() - 2)
	if others == 0 {
		return 0
	}
	return float32(math.Log(p * others / (1 - p)))
}

// segments returns the enabled segments of e, in the order of the logits.
func (e Expert) segments() []gateSegment {
	var out []gateSegment
	for _, s := range gateTable {
		if s.enabled(e) {
			out = append(out, s)
		}
	}
	return out
}

// size returns the number of gates of a segment per example.
func (s gateSegment) size(e Expert) int {
	n := 1
	for _, d := range s.dims(e) {
		n *= d
	}
	return n
}

// indices calls fn with the multi-index of every gate of the segment, in row-major (logit) order.
func (s gateSegment) indices(e Expert, fn func(idx []int)) {
	dims := s.dims(e)
	idx := make([]int, len(dims))
	for range s.size(e) {
		fn(idx)
		for a := len(dims) - 1; a >= 0; a-- {
			if idx[a]++; idx[a] < dims[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// NumGates returns the number of gate logits the gating FFN outputs.
func (e Expert) NumGates() int {
	n := 0
	for _, s := range e.segments() {
		n += s.size(e)
	}
	return n
}

// initialGateBias is the initial bias of the gate logits, segment by segment (gateTable). Translation
// gates start at sigmoid(TranslationGateInit), reflection and rotation gates at sigmoid(FlipGateInit),
// transpose gates at sigmoid(-4), and the scaling softmax favours h = 1. The experts start near the
// identity, but not so near that they cannot open (docs/hyperparameters.md says how each was chosen).
func (e Expert) initialGateBias() []float32 {
	bias := make([]float32, 0, e.NumGates())
	for _, s := range e.segments() {
		s.indices(e, func(idx []int) { bias = append(bias, s.bias(e, idx)) })
	}
	return bias
}

// GatesFromLogits turns logits [batch, NumGates()] into Gates: sigmoids, and a softmax over the scaling
// factors. With hard, it discretizes them, so the mask is the binary mask of one group element
// (Section 4.1).
func (e Expert) GatesFromLogits(logits *Node, hard bool) *Gates {
	batch := logits.Shape().Dimensions[0]
	g := &Gates{}
	off := 0
	for _, s := range e.segments() {
		size := s.size(e)
		x := Reshape(Slice(logits, AxisRange(), AxisRange(off, off+size)), append([]int{batch}, s.dims(e)...)...)
		off += size
		switch {
		case s.softmax && hard:
			dims := s.dims(e)
			x = OneHot(ArgMax(x, -1), dims[len(dims)-1], x.DType())
		case s.softmax:
			x = flushTiny(Softmax(x, -1))
		case hard:
			x = ConvertDType(GreaterThan(x, ZerosLike(x)), x.DType())
		default:
			x = flushTiny(Sigmoid(x))
		}
		*s.field(g) = x
	}
	return g
}

// TinyGate is the value below which a soft gate is exactly 0. A gate held off (FreeGates) has logit -30,
// sigmoid 9e-14; products of such gates in the masks fall into subnormal floats, which x86 multiplies
// many times slower (the frames fit's steps with held gates took 2.7x as long). A free gate below it
// (logit < -23) is 0 too: a mask row that only such gates reach is then empty, not renormalized leakage.
const TinyGate = 1e-10

// flushTiny sets the gates below TinyGate to 0.
func flushTiny(x *Node) *Node {
	return Where(LessThan(x, Scalar(x.Graph(), x.DType(), TinyGate)), ZerosLike(x), x)
}

// GateValues are the gates of one example, read back on the host to show or discretize what a model
// learned. They map each enabled segment's name ("translation", "scale", ...) to its gates, flattened
// row-major without the batch axis.
type GateValues map[string][]float64

// GateTensors lists the gate nodes of the enabled segments in order, for a graph to return and
// DecodeGates to decode.
func (g *Gates) GateTensors() []*Node {
	var out []*Node
	for _, s := range gateTable {
		if n := *s.field(g); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// DecodeGates converts the tensors returned for Gates.GateTensors into one GateValues per example.
func (e Expert) DecodeGates(ts []*tensors.Tensor) ([]GateValues, error) {
	segs := e.segments()
	if len(ts) != len(segs) {
		return nil, fmt.Errorf("DecodeGates: want %d gate tensors for this expert, got %d", len(segs), len(ts))
	}
	if len(ts) == 0 {
		return nil, nil
	}
	batch := ts[0].Shape().Dimensions[0]
	vals := make([]GateValues, batch)
	for b := range vals {
		vals[b] = GateValues{}
	}
	for i, s := range segs {
		var flat []float64
		switch ts[i].DType() {
		case dtypes.Float32:
			for _, v := range tensors.MustCopyFlatData[float32](ts[i]) {
				flat = append(flat, float64(v))
			}
		case dtypes.Float64:
			flat = tensors.MustCopyFlatData[float64](ts[i])
		default:
			return nil, fmt.Errorf("DecodeGates: %s gates have dtype %s, want a float", s.name, ts[i].DType())
		}
		size := s.size(e)
		if len(flat) != batch*size {
			return nil, fmt.Errorf("DecodeGates: %s gates have %d values, want %d x %d", s.name, len(flat), batch, size)
		}
		for b := range batch {
			vals[b][s.name] = flat[b*size : (b+1)*size]
		}
	}
	return vals, nil
}

// LogitsFor returns gate logits (±sharpness) that select el with hard gates. A small sharpness gives
// soft gates.
func (e Expert) LogitsFor(el Element, sharpness float32) []float32 {
	out := make([]float32, 0, e.NumGates())
	for _, s := range e.segments() {
		s.indices(e, func(idx []int) {
			if s.on(e, el, idx) {
				out = append(out, sharpness)
			} else {
				out = append(out, -sharpness)
			}
		})
	}
	return out
}

// Action returns the group element the discretized gates select, as a lattice.Action (ActionOf). Its
// Mask equals the expert's mask with hard gates.
func (e Expert) Action(v GateValues) lattice.Action { return e.ActionOf(e.ElementOf(v)) }

// ActionOf returns el as a lattice.Action on the rows x cols lattice: Compose(translation, reflections,
// scaling, rotation by 0, 90, 180 or 270°). The rotation applies first. The translation is a
// lattice.Translation on its circular axes and a lattice.Shift on its zero-fill axes. For a
// size-relative expert, the element acts on the input grid and the scaling comes last:
// Compose(scaling, translation, reflections, rotation). Its translations are circular on the grid, with
// the deltas shown modulo the canvas side. Parts of disabled experts are left out.
func (e Expert) ActionOf(el Element) lattice.Action {
	var trans, refl, scale, rot []lattice.Action
	if e.Translation {
		var circular, zero [2]int
		for a, l := range []int{e.Rows, e.Cols} {
			if e.ZeroFill && el.ZeroFill[a] {
				zero[a] = el.Shift[a]
			} else {
				circular[a] = mod(el.Shift[a], l)
			}
		}
		if circular != [2]int{} {
			trans = append(trans, lattice.Translation{Deltas: circular[:]})
		}
		if zero != [2]int{} {
			trans = append(trans, lattice.Shift{Deltas: zero[:]})
		}
	}
	if e.Reflection {
		for a := range 2 {
			if el.Flip[a] {
				refl = append(refl, lattice.Reflection{Axis: a})
			}
		}
	}
	if e.Scaling {
		up, down := []int{1, 1}, []int{1, 1}
		for a := range 2 {
			if el.Down[a] {
				down[a] = max(1, el.Scale[a])
			} else {
				up[a] = max(1, el.Scale[a])
			}
		}
		if up[0] != 1 || up[1] != 1 {
			scale = append(scale, lattice.Upscale{Factors: up})
		}
		if down[0] != 1 || down[1] != 1 {
			scale = append(scale, lattice.Downscale{Factors: down})
		}
	}
	if e.Rotation {
		if q := mod(el.Quarter, 4); q > 0 {
			rot = append(rot, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: q})
		}
	}
	parts := append(append(append(trans, refl...), scale...), rot...)
	if e.Lattice.SizeRelative() {
		parts = append(append(append(scale, trans...), refl...), rot...)
	}
	switch len(parts) {
	case 0:
		return lattice.IdentityAction{}
	case 1:
		return parts[0]
	}
	return lattice.Compose(parts...)
}

// ElementName names el by its action (ActionOf). With candidate frames, "frame(k)∘" comes first, since
// the same action on another frame is another element.
func (e Expert) ElementName(el Element) string {
	if e.FrameCandidates > 0 {
		return fmt.Sprintf("frame(%d)∘%s", el.Frame, e.ActionOf(el))
	}
	return e.ActionOf(el).String()
}

// FreeGatesVariable names the non-trainable variable that holds an expert's free-gate mask (FreeGates).
const FreeGatesVariable = "free"

// FreeGatesAll returns the free-gate mask with every gate free (the variable's initial value).
func (e Expert) FreeGatesAll() []float32 {
	free := make([]float32, e.NumGates())
	for i := range free {
		free[i] = 1
	}
	return free
}

// FreeGates returns the free-gate mask [NumGates()] that leaves only the named experts' gates free to
// learn. The other gates are held at their identity setting, so that training searches only the named
// experts' actions. families is "all" or letters, such as "t" or "tfr", of:
//   - t: translation, with its zero-fill gates;
//   - z: the same gates as t, started by ZeroFillStart;
//   - v, h: z on the rows' axis (vertical shifts) or the columns' (horizontal), the other axis held at
//     no shift;
//   - r: rotation; f: reflection; s: scaling, with the down-scaling gate.
//
// Letters of disabled experts are accepted; they have no gates. The frame gates (FrameCandidates) are
// always free, since the frame is what the other experts act on.
func (e Expert) FreeGates(families string) ([]float32, error) {
	if err := CheckFamilies(families); err != nil {
		return nil, err
	}
	if families == "all" {
		return e.FreeGatesAll(), nil
	}
	// The translation axes the letters free: both for t and z, rows for v, columns for h.
	axes := [2]bool{strings.ContainsAny(families, "tzv"), strings.ContainsAny(families, "tzh")}
	free := make([]float32, 0, e.NumGates())
	for _, s := range e.segments() {
		s.indices(e, func(idx []int) {
			on := strings.IndexByte(families, s.family) >= 0
			switch s.family {
			case 't':
				on = axes[idx[0]] // translation and zero-fill gates: axis first
			case 'b':
				on = true // the frame is what the other experts act on: always learned
			}
			v := float32(0)
			if on {
				v = 1
			}
			free = append(free, v)
		})
	}
	return free, nil
}

// familyExpert is the expert each letter of FreeGates frees.
var familyExpert = map[rune]string{'t': "translation", 'z': "translation", 'v': "translation", 'h': "translation",
	'r': "rotation", 'f': "reflection", 's': "scaling"}

// FreedExperts returns the ParamExperts value of the experts of list (a ParamExperts value) whose gates
// some entry of a restart schedule frees (FreeGates' families): t, z, v and h free the translation, r the
// rotation, f the reflection, s the scaling, "all" every expert. An expert that no restart frees stays at
// its identity in every restart, so a learner may leave it out of its graph. It is "" when the schedule
// frees none of list's experts.
func FreedExperts(list string, schedule []string) (string, error) {
	on, err := expertsOf(list)
	if err != nil {
		return "", err
	}
	freed := map[string]bool{}
	for _, entry := range schedule {
		entry = strings.TrimSpace(entry)
		if err := CheckFamilies(entry); err != nil {
			return "", err
		}
		if entry == "all" {
			entry = "trfs"
		}
		for _, c := range entry {
			freed[familyExpert[c]] = true
		}
	}
	var names []string
	for _, n := range expertNames {
		if on[n] && freed[n] {
			names = append(names, n)
		}
	}
	return strings.Join(names, ","), nil
}

// CheckFamilies returns an error unless FreeGates accepts families.
func CheckFamilies(families string) error {
	if families == "all" {
		return nil
	}
	if families == "" {
		return fmt.Errorf("expert families: empty (want \"all\" or letters of t, z, v, h, r, f, s)")
	}
	for _, c := range families {
		if !strings.ContainsRune("trfszvh", c) {
			return fmt.Errorf("expert families %q: want \"all\" or letters of t, z, v, h, r, f, s", families)
		}
	}
	return nil
}

// ZeroFillFamily says whether a restart's entry of experts (FreeGates' letters) starts at ZeroFillStart:
// it has z, v or h.
func ZeroFillFamily(families string) bool { return strings.ContainsAny(families, "zvh") }

// ZeroFillStart returns the initial gate-logit biases of a restart that searches the zero-fill
// translations (the letter z of FreeGates). Every shift bit starts at 0.5 (with ShiftSoftmax, every
// shift's logit at 0), so all shifts of both directions mix evenly and the gradient chooses. The
// zero-fill gate γ of each axis starts at sigmoid(2), the direction δ at 0.5. The other gates keep their
// initial biases. Overlays of two halves of a grid are such shifts: from the paper's initialization,
// three or four gates would have to open together. It is nil without the zero-fill translation gates.
func (e Expert) ZeroFillStart() []float32 {
	if !e.Translation || !e.ZeroFill {
		return nil
	}
	bias := make([]float32, 0, e.NumGates())
	for _, s := range e.segments() {
		s.indices(e, func(idx []int) {
			switch s.name {
			case "translation", "shift":
				bias = append(bias, 0)
			case "zerofill":
				bias = append(bias, float32(2*(1-idx[1])))
			default:
				bias = append(bias, s.bias(e, idx))
			}
		})
	}
	return bias
}

// offGateLogits hold each gate at its identity setting where the free-gate mask is 0.
func (e Expert) offGateLogits() []float32 { return e.LogitsFor(Element{}, 30) }
