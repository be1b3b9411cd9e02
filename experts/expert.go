// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/gomlx/gomlx/support/exceptions"
	"github.com/latformer/latformer/internal/fastgraph"
	"github.com/latformer/latformer/lattice"
)

// Expert is the lattice mask expert of a LatFormer layer for a rows x cols canvas (Section 4.1,
// Appendix A). It is the product of a translation, a rotation, a reflection and a scaling expert, each
// a gated CNN applied to the identity with frozen kernels (Corollary 1). Only the gates are learned.
// A small FFN of the layer input computes them, one set per example.
//
// Per axis a (rows, then cols) the experts build l_a x l_a masks
//
//	T_a = Π_k (α_{a,k} C^{2^k} + (1-α_{a,k}) I)              translation (k < L)
//	    (or Σ_s π_{a,s} C^s, a softmax over the shifts, with ShiftSoftmax)
//	F_a = φ_a J + (1-φ_a) I,  G = ρ_2 J + (1-ρ_2) I          reflection, and rotation by 180° = flip of both axes
//	S_a = τ_a U_a^T + (1-τ_a) U_a,  U_a = Σ_h π_{a,h} M_S^(h)  scaling (softmax over h) and down-scaling gate τ
//	A_a = T_a F_a S_a G                                       composition by the mask product (Appendix A)
//
// with C = lattice.TranslationMask1D(l_a, 1), the one-step shift. The full mask is
// M = (A_rows ⊗ A_cols)(ρ_1 R + (1-ρ_1) I), with R the 90° rotation (Theorem 2). The products are
// taken on the per-axis l x l matrices, so no n x n product is formed.
//
// With hard gates, M is exactly the binary mask of the group element that Expert.Action reads back:
// rotation first, then scaling, flips and translation. With soft gates, the 180° gate G acts on each
// axis separately. That relaxes the C4 mixture and is exact at hard gates; SmoothedMask mixes the four
// rotations exactly.
type Expert struct {
	Rows, Cols                                 int
	Translation, Rotation, Reflection, Scaling bool
	TranslationLayers, MaxScale, GateHidden    int
	SmoothingTime                              float64
	// FlipGateInit and TranslationGateInit are the initial logits of the reflection and rotation gates
	// and of the translation gates.
	FlipGateInit, TranslationGateInit float64
	// ZeroFill adds the zero-fill gates to the translation expert (ParamZeroFill), starting at
	// sigmoid(ZeroFillGateInit).
	ZeroFill         bool
	ZeroFillGateInit float64
	// ShiftSoftmax holds each axis's translation as a softmax over shifts (ParamTranslationGates).
	ShiftSoftmax bool
	// Lattice is what the actions act on (ParamLattice): the canvas, each grid, or a box per input.
	Lattice Lattice
	// FrameCandidates is the number K of candidate frames per input of an Anchored expert. A softmax
	// gate mixes their K anchored masks. 0 means one given frame per input.
	FrameCandidates int
}

// N returns the number of cells Rows*Cols, the size of the masks.
func (e Expert) N() int { return e.Rows * e.Cols }

// GateLogits computes the gate logits [batch, NumGates()] from the layer input x [batch, n, d] and an
// optional conditioning vector cond [batch, dc]. It is a 2-layer ReLU FFN on the mean of x over the
// cells, concatenated with cond. Its variables live under scope.
func (e Expert) GateLogits(scope *model.Scope, x, cond *Node) *Node {
	if x.Rank() != 3 || x.Shape().Dimensions[1] != e.N() {
		exceptions.Panicf("Expert.GateLogits: x must be [batch, %d, d] for a %dx%d canvas, got %s", e.N(), e.Rows,
			e.Cols, x.Shape())
	}
	pooled := ReduceMean(x, 1)
	if cond != nil {
		if cond.Rank() != 2 || cond.Shape().Dimensions[0] != x.Shape().Dimensions[0] {
			exceptions.Panicf("Expert.GateLogits: cond must be [batch, dc], got %s", cond.Shape())
		}
		pooled = Concatenate([]*Node{pooled, ConvertDType(cond, x.DType())}, -1)
	}
	hidden := activation.Relu(fastgraph.Dense(scope.In(GateHiddenScope), pooled, true, e.GateHidden))
	out := scope.In(GateLogitsScope)
	w := out.VariableWithShape(GateLogitsWeights, shapes.Make(x.DType(), e.GateHidden, e.NumGates())).
		NodeValue(x.Graph())
	// The bias starts at the gates' initial logits. A constant initializer gives it back when a restart
	// re-initializes the variables.
	initialBias := tensors.FromValue(e.initialGateBias())
	bias := out.WithInitializer(initializer.BroadcastTensorToShape(initialBias)).
		VariableWithShape(GateLogitsBiases, shapes.Make(dtypes.Float32, e.NumGates())).NodeValue(x.Graph())
	logits := Add(MatMul(hidden, w), ExpandAxes(ConvertDType(bias, x.DType()), 0))
	// The free-gate mask (FreeGates) is a non-trainable variable, all ones unless a restart restricts the
	// experts. A gate that is not free is held at its identity setting.
	free := out.WithInitializer(initializer.BroadcastTensorToShape(tensors.FromValue(e.FreeGatesAll()))).
		VariableWithShape(FreeGatesVariable, shapes.Make(dtypes.Float32, e.NumGates())).
		SetTrainable(false).NodeValue(x.Graph())
	free = ExpandAxes(ConvertDType(free, x.DType()), 0)
	off := ExpandAxes(ConvertDType(Const(x.Graph(), e.offGateLogits()), x.DType()), 0)
	return Add(Mul(free, logits), Mul(OneMinus(free), off))
}

// Gates computes the gates for input x [batch, n, d] and optional conditioning cond [batch, dc]. They
// are discretized when the graph parameter HardGatesGraphParam is true. With ParamStraightThrough, the
// forward pass discretizes them and the backward pass uses the soft ones.
func (e Expert) Gates(scope *model.Scope, x, cond *Node) *Gates {
	return e.GatesFor(scope, x, cond, nil)
}

// GatesFor is Gates with the extra input of a size-relative expert: a Grid expert's grid extents
// (Gates.Extent), or an Anchored expert's frames (Gates.Frames). It is nil for a Canvas expert. A
// candidate frame that reads no box on an example's input (H = 0) is never chosen there: its logit is
// pushed down before the softmax.
func (e Expert) GatesFor(scope *model.Scope, x, cond, extent *Node) *Gates {
	hard := model.GetGraphParamOr(scope, x.Graph(), HardGatesGraphParam, false)
	logits := e.GateLogits(scope, x, cond)
	if e.Lattice == Anchored && e.FrameCandidates > 0 && extent != nil {
		logits = e.withoutEmptyFrames(logits, extent)
	}
	var gates *Gates
	if hard || !Param[bool](scope, ParamStraightThrough) {
		gates = e.GatesFromLogits(logits, hard)
	} else {
		soft, discrete := e.GatesFromLogits(logits, false), e.GatesFromLogits(logits, true)
		for _, s := range gateTable {
			if sg := *s.field(soft); sg != nil {
				// soft + (hard - soft) forward, d/dsoft = identity backward.
				*s.field(soft) = Add(sg, StopGradient(Sub(*s.field(discrete), sg)))
			}
		}
		gates = soft
	}
	if e.Lattice == Anchored {
		gates.Frames = extent
	} else {
		gates.Extent = extent
	}
	return gates
}

// withoutEmptyFrames lowers by 1e4 the frame logits of candidates that read no box (H = 0), so that
// neither the softmax nor its argmax picks them.
func (e Expert) withoutEmptyFrames(logits, extent *Node) *Node {
	k := e.FrameCandidates
	if extent.Rank() != 3 || extent.Shape().Dimensions[1] != k || extent.Shape().Dimensions[2] != FrameLen {
		exceptions.Panicf("Expert: %d candidate frames need Gates.Frames [batch, %d, %d], got %s", k, k, FrameLen,
			extent.Shape())
	}
	empty := OneMinus(framesSet(extent, logits.DType()))
	off := 0
	for _, s := range e.segments() {
		if s.name == "frame" {
			break
		}
		off += s.size(e)
	}
	parts := []*Node{}
	if off > 0 {
		parts = append(parts, Slice(logits, AxisRange(), AxisRange(0, off)))
	}
	parts = append(parts, Sub(Slice(logits, AxisRange(), AxisRange(off, off+k)), MulScalar(empty, 1e4)))
	if rest := e.NumGates() - off - k; rest > 0 {
		parts = append(parts, Slice(logits, AxisRange(), AxisRange(off+k, off+k+rest)))
	}
	return Concatenate(parts, 1)
}

// LatticeMask is a soft attention mask on a rows x cols canvas kept in factored form, a weighted sum of
// Kronecker products of per-axis matrices, optionally followed by the 90° rotation R:
//
//	M = Σ_t w_t (Row_t ⊗ Col_t) R^{k_t},   k_t ∈ {0, 1}
//
// Dense materializes it as [batch, n, n]. Everything before works on l x l matrices.
type LatticeMask struct {
	Rows, Cols int
	Terms      []MaskTerm
	// Mixture, when K > 0, makes the mask a sum over K candidates per example (Expert.FrameCandidates).
	// Every term's tensors then hold K rows per example, row b·K+k for candidate k of example b, and the
	// mask is M_b = Σ_k Σ_t w_t[b·K+k] (Row_t ⊗ Col_t)[b·K+k] R^{k_t}.
	Mixture int
}

// Batch is the number of examples of the mask.
func (m *LatticeMask) Batch() int {
	return m.Terms[0].Row.Shape().Dimensions[0] / max(1, m.Mixture)
}

// MaskTerm is one term of a LatticeMask: Weight [batch] (nil means 1), Row [batch, rows, rows],
// Col [batch, cols, cols], and an optional 90° rotation, applied first.
type MaskTerm struct {
	Weight, Row, Col *Node
	Rotate           bool
	// Flip is the reversal J of the 90° rotation per example, [batch, rows, rows], or nil for the
	// canvas' reversal. A size-relative expert rotates each grid, so J reverses its first W cells.
	Flip *Node
}

// Dense returns the mask as a [batch, n, n] tensor with n = Rows*Cols (row-major cells).
//
// For a term without rotation, M[(i,j),(c,e)] = Row[i,c]·Col[j,e] (Kronecker product). With rotation,
// (Row ⊗ Col) R [(i,j),(a,b)] = (Row J)[i,b]·Col[j,a], with J the reversal. Both are outer products of
// two l x l matrices, so Dense is one batched matrix product of the Factors.
func (m *LatticeMask) Dense() *Node {
	if m.Mixture > 0 {
		return m.mixtureDense()
	}
	l, rT := m.Factors()
	batch := l.Shape().Dimensions[0]
	n := m.Rows * m.Cols
	// [b, i, j, c, T] x [b, i, j, T, e] -> [b, i, j, c, e]
	return Reshape(DotGeneral(l, []int{4}, []int{0, 1, 2}, rT, []int{3}, []int{0, 1, 2}), batch, n, n)
}

// Factors returns the mask as per-query-cell factors: for every query cell (i, j) its block over the key
// cells (c, e) is a sum of T outer products, one per term,
//
//	M[b, (i,j), (c,e)] = Σ_t L[b, i, j, c, t] · Rᵀ[b, i, j, t, e]
//
// with L [batch, Rows, Cols, Rows, T] and Rᵀ [batch, Rows, Cols, T, Cols]; the term weights are folded
// into L. A term without rotation has L = Row[b,i,c] and Rᵀ = Col[b,j,e]. A term with rotation has
// L = Col[b,j,c] and Rᵀ = (Row J)[b,i,e].
//
// The factors take n·(Rows+Cols)·T numbers instead of n². Batched matrix products over (batch, i, j)
// turn them into the dense mask and back, as layers.MaskedAttentionCoreFactored does. Rᵀ has the terms
// before the key axis, the [K, N] layout that GoMLX's Go backend multiplies fastest.
func (m *LatticeMask) Factors() (l, rT *Node) {
	if m.Mixture > 0 {
		return m.Unmixed().Factors() // K times the terms: the attention takes a mixture dense (Dense) instead
	}
	var lhs, rhs []*Node
	for _, t := range m.Terms {
		row, col := t.Row, t.Col
		batch := row.Shape().Dimensions[0]
		if t.Weight != nil {
			row = Mul(row, Reshape(t.Weight, batch, 1, 1))
		}
		// L is [b, i, j, key-axis, 1] and Rᵀ [b, i, j, 1, key-axis]. A row factor [b, i, ·] is the same
		// for every j, and a column factor [b, j, ·] for every i.
		byRow := func(x *Node, transposed bool) *Node {
			k := x.Shape().Dimensions[2]
			if transposed {
				return BroadcastToDims(Reshape(x, batch, m.Rows, 1, 1, k), batch, m.Rows, m.Cols, 1, k)
			}
			return BroadcastToDims(Reshape(x, batch, m.Rows, 1, k, 1), batch, m.Rows, m.Cols, k, 1)
		}
		byCol := func(x *Node, transposed bool) *Node {
			k := x.Shape().Dimensions[2]
			if transposed {
				return BroadcastToDims(Reshape(x, batch, 1, m.Cols, 1, k), batch, m.Rows, m.Cols, 1, k)
			}
			return BroadcastToDims(Reshape(x, batch, 1, m.Cols, k, 1), batch, m.Rows, m.Cols, k, 1)
		}
		if !t.Rotate {
			// M[b, i, j, c, e] += Row[b, i, c] · Col[b, j, e]
			lhs, rhs = append(lhs, byRow(row, false)), append(rhs, byCol(col, true))
		} else {
			// M[b, i, j, a, b'] += Col[b, j, a] · (Row J)[b, i, b']
			lhs, rhs = append(lhs, byCol(col, false)), append(rhs, byRow(m.rowTimesReversal(row, t.Flip), true))
		}
	}
	switch len(lhs) {
	case 0:
		exceptions.Panicf("LatticeMask: the mask has no terms")
	case 1:
		return lhs[0], rhs[0]
	}
	return Concatenate(lhs, 4), Concatenate(rhs, 3)
}

// mixtureDense is Dense of a Mixture mask, by one batched matrix product per example over the K·T
// candidate terms. These are far fewer and larger products than Factors' per-cell ones. The terms
// without rotation give M[b, (i, c), (j, e)] = Σ_{k,t} (w Row)[b, k, t, i, c] · Col[b, k, t, j, e]. Those
// with rotation give M[b, (i, e), (j, c)] = Σ (w Row J)[b, k, t, i, e] · Col[b, k, t, j, c], computed as
// [b, j, c, i, e]. Each result is transposed to [b, i, j, c, e] once.
func (m *LatticeMask) mixtureDense() *Node {
	k, batch := m.Mixture, m.Batch()
	perCandidate := func(x *Node) *Node {
		d := x.Shape().Dimensions
		return Reshape(x, batch, k, d[1], d[2])
	}
	var plainL, plainR, rotL, rotR []*Node
	for _, t := range m.Terms {
		row := Mul(t.Row, Reshape(t.Weight, batch*k, 1, 1))
		if !t.Rotate {
			plainL, plainR = append(plainL, perCandidate(row)), append(plainR, perCandidate(t.Col))
		} else {
			rotL, rotR = append(rotL, perCandidate(m.rowTimesReversal(row, t.Flip))), append(rotR, perCandidate(t.Col))
		}
	}
	product := func(ls, rs []*Node) *Node { // [b, x, y, z, w]: ls' free axes x, y, then rs' z, w
		l, r := ls[0], rs[0]
		if len(ls) > 1 {
			l, r = Concatenate(ls, 1), Concatenate(rs, 1)
		}
		return DotGeneral(l, []int{1}, []int{0}, r, []int{1}, []int{0})
	}
	// Each transpose swaps two middle blocks, [B, X, Y, Z] -> [B, Y, X, Z], for which the Go backend has a
	// fast path (a copy per trailing row); a general 5-axis permutation takes it about 3 times longer.
	n := m.Rows * m.Cols
	swap := func(x *Node, dims ...int) *Node {
		return Reshape(TransposeAllDims(Reshape(x, dims...), 0, 2, 1, 3), batch, n, n)
	}
	var dense *Node
	if len(plainL) > 0 { // [b, i, c, j, e] as [b·i, c, j, e] -> [b·i, j, c, e]
		p := product(plainL, plainR)
		d := p.Shape().Dimensions
		dense = swap(p, d[0]*d[1], d[2], d[3], d[4])
	}
	if len(rotL) > 0 { // [b, j, c, i, e] (Col's free axes first) as [b, j·c, i, e] -> [b, i, j·c, e]
		p := product(rotR, rotL)
		d := p.Shape().Dimensions
		rot := swap(p, d[0], d[1]*d[2], d[3], d[4])
		if dense == nil {
			dense = rot
		} else {
			dense = Add(dense, rot)
		}
	}
	return dense
}

// Unmixed returns a Mixture mask as a plain one with K times the terms. A plain mask stays as it is.
func (m *LatticeMask) Unmixed() *LatticeMask {
	if m.Mixture == 0 {
		return m
	}
	k, batch := m.Mixture, m.Batch()
	pick := func(x *Node, c int) *Node { // row c of each example's K rows
		if x == nil {
			return nil
		}
		dims := x.Shape().Dimensions
		y := Slice(Reshape(x, append([]int{batch, k}, dims[1:]...)...), AxisRange(), AxisElem(c))
		return Reshape(y, append([]int{batch}, dims[1:]...)...)
	}
	out := &LatticeMask{Rows: m.Rows, Cols: m.Cols}
	for c := range k {
		for _, t := range m.Terms {
			out.Terms = append(out.Terms, MaskTerm{Weight: pick(t.Weight, c), Row: pick(t.Row, c), Col: pick(t.Col, c),
				Rotate: t.Rotate, Flip: pick(t.Flip, c)})
		}
	}
	return out
}

// SliceBatch returns the mask of examples lo, ..., hi-1 of the batch. It slices every term's
// per-example tensors along their batch axis. The masked attention uses it to compute the batch in
// slices (layers.MaskedAttentionCoreFactored).
func (m *LatticeMask) SliceBatch(lo, hi int) *LatticeMask {
	per := max(1, m.Mixture)
	cut := func(x *Node) *Node {
		if x == nil {
			return nil
		}
		if batch := x.Shape().Dimensions[0] / per; lo < 0 || hi > batch || lo >= hi {
			exceptions.Panicf("LatticeMask.SliceBatch(%d, %d) of a batch of %d", lo, hi, batch)
		}
		return Slice(x, AxisRange(lo*per, hi*per))
	}
	out := &LatticeMask{Rows: m.Rows, Cols: m.Cols, Terms: make([]MaskTerm, len(m.Terms)), Mixture: m.Mixture}
	for i, t := range m.Terms {
		out.Terms[i] = MaskTerm{
			Weight: cut(t.Weight), Row: cut(t.Row), Col: cut(t.Col), Rotate: t.Rotate, Flip: cut(t.Flip),
		}
	}
	return out
}

// RowTimesReversal returns Row J [batch, rows, rows] of a rotation term: the row factor times the
// rotation's reversal J. The term is then (Row J ⊗ Col) applied to the grid with its axes swapped.
func (m *LatticeMask) RowTimesReversal(t MaskTerm) *Node { return m.rowTimesReversal(t.Row, t.Flip) }

// rowTimesReversal computes (Row J)[i, b] = Row[i, l-1-b] as a product with the reversal J, since
// GoMLX's Reverse has no gradient. The l x l product is cheap next to the n x n terms.
func (m *LatticeMask) rowTimesReversal(row, flip *Node) *Node {
	if flip != nil {
		return fastgraph.BatchMatMul(row, flip)
	}
	return Einsum("bij,jk->bik", row, constMatrix(row.Graph(), row.DType(), lattice.ReflectionMask1D(m.Rows)))
}

// constMatrix returns m as a float constant of the given dtype in graph g.
func constMatrix(g *Graph, dtype dtypes.DType, m *lattice.Matrix) *Node {
	return ConvertDType(ConstTensor(g, MatrixTensor(m)), dtype)
}

// GridExtents returns the rows and columns, at least 1, of the grid in each canvas of tokens
// [batch, rows*cols], as [batch, 2] int32. The grid is the top-left part holding non-pad tokens. It is
// the Gates.Extent of a Grid expert.
func GridExtents(tokens *Node, rows, cols int, pad int) *Node {
	batch := tokens.Shape().Dimensions[0]
	nonPad := ConvertDType(NotEqual(tokens, Scalar(tokens.Graph(), tokens.DType(), pad)), dtypes.Int32)
	nonPad = Reshape(nonPad, batch, rows, cols)
	h := ReduceSum(ReduceMax(nonPad, 2), 1) // rows with a non-pad token
	w := ReduceSum(ReduceMax(nonPad, 1), 1) // columns with a non-pad token
	return MaxScalar(Stack([]*Node{h, w}, 1), 1)
}

// perExampleKernel returns [batch, l, l]: build(e) for each example's extent e (ext [batch] int32, 1..l).
func perExampleKernel(g *Graph, dtype dtypes.DType, ext *Node, l int, build func(e int) *lattice.Matrix) *Node {
	table := make([]*Node, l)
	for e := 1; e <= l; e++ {
		table[e-1] = Reshape(constMatrix(g, dtype, build(e)), 1, l, l)
	}
	idx := MinScalar(MaxScalar(AddScalar(ext, -1), 0), l-1)
	return Einsum("be,eij->bij", OneHot(idx, l, dtype), Concatenate(table, 0))
}

// gridKernels are the per-example kernels [batch, l, l] of a size-relative expert along one axis: the
// reversal of the grid's first cells and their circular shifts by 2^k. All masks of an extent share
// them.
type gridKernels struct {
	flip   *Node
	shifts []*Node
	extent *Node // [batch] int32, the grid's extent along the axis
}

func (e Expert) newGridKernels(g *Graph, dtype dtypes.DType, ext *Node, l int) *gridKernels {
	k := &gridKernels{flip: perExampleKernel(g, dtype, ext, l,
		func(n int) *lattice.Matrix { return lattice.GridReflectionMask1D(l, n) }), extent: ext}
	if e.Translation && !e.ShiftSoftmax {
		for j := range e.TranslationLayers {
			k.shifts = append(k.shifts, perExampleKernel(g, dtype, ext, l,
				func(n int) *lattice.Matrix { return lattice.GridTranslationMask1D(l, n, 1<<j) }))
		}
	}
	return k
}

// axisMask returns the per-axis mask A_a = T_a F_a S_a G ([batch, l, l]) for axis a (0 rows, 1 cols).
// With smooth > 0, the diffusion time, the translation and reflection parts are smoothed and G is left
// out; the caller then mixes the rotations over C4 by mask. grid holds the kernels of the grid's extent
// along this axis for a size-relative expert, nil for the canvas. With a grid, A_a = S_a T_a F_a G, and
// F, G and T act on the grid's first cells.
func (e Expert) axisMask(
	g *Graph, dtype dtypes.DType, gates *Gates, batch, axis int, smooth float64, grid *gridKernels,
) *Node {
	l := e.Rows
	if axis == 1 {
		l = e.Cols
	}
	eye := BroadcastToDims(Reshape(constMatrix(g, dtype, lattice.IdentityMatrix(l)), 1, l, l), batch, l, l)
	apply := func(kernel, m *Node) *Node { // kernel @ m, kernel [l, l] or per example [batch, l, l]
		if kernel.Rank() == 3 {
			return fastgraph.BatchMatMul(kernel, m)
		}
		return Einsum("ij,bjk->bik", kernel, m)
	}
	mix := func(gate, kernel, m *Node) *Node { // gate*kernel@m + (1-gate)*m, gate [batch]
		gate = Reshape(gate, batch, 1, 1)
		return Add(Mul(gate, apply(kernel, m)), Mul(OneMinus(gate), m))
	}
	axisGate := func(x *Node, i int) *Node { return Reshape(Slice(x, AxisRange(), AxisElem(i)), batch) }
	result := eye
	flip := constMatrix(g, dtype, lattice.ReflectionMask1D(l))
	shift := func(k int) *Node { return constMatrix(g, dtype, lattice.TranslationMask1D(l, 1<<k)) }
	if grid != nil {
		flip = grid.flip
		shift = func(k int) *Node { return grid.shifts[k] }
	}
	// Rightmost factor first: the 180° rotation (skipped when smoothing mixes C4 as a whole), then
	// scaling, flips and translation. On the grid lattice: flips, translation, then scaling.
	if gates.Rotation != nil && smooth <= 0 {
		result = mix(axisGate(gates.Rotation, 1), flip, result)
	}
	if grid == nil {
		result = e.scaleAxis(g, dtype, gates, batch, axis, l, result)
	}
	if gates.Reflection != nil {
		result = mix(axisGate(gates.Reflection, axis), flip, result)
		if smooth > 0 {
			// Heat diffusion on the 2-element group of flips of this axis (C2): w0 I + w1 J.
			w := lattice.CycleHeatKernel(2, smooth)
			result = Add(MulScalar(result, w.At(0, 0)), MulScalar(apply(flip, result), w.At(0, 1)))
		}
	}
	switch {
	case gates.Shift != nil:
		result = apply(e.shiftMixture(g, dtype, gates, batch, axis, l, grid), result)
	case gates.Translation != nil:
		if gates.ZeroFill != nil {
			// Layer k's kernel: γ (δ Z^{-2^k} + (1-δ) Z^{+2^k}) + (1-γ) C^{2^k}. At hard gates the product
			// over the layers is one zero-fill shift by ±s (same-sign shifts add up) or one circular shift.
			gamma := Reshape(Slice(gates.ZeroFill, AxisRange(), AxisElem(axis), AxisElem(0)), batch, 1, 1)
			delta := Reshape(Slice(gates.ZeroFill, AxisRange(), AxisElem(axis), AxisElem(1)), batch, 1, 1)
			circular := shift
			lift := func(m *Node) *Node { // [l, l] -> [1, l, l]; per-example kernels stay [batch, l, l]
				if m.Rank() == 2 {
					return Reshape(m, 1, l, l)
				}
				return m
			}
			shift = func(k int) *Node {
				fwd := lift(constMatrix(g, dtype, lattice.ShiftMask1D(l, 1<<k)))
				back := lift(constMatrix(g, dtype, lattice.ShiftMask1D(l, -(1<<k))))
				zero := Add(Mul(delta, back), Mul(OneMinus(delta), fwd))
				return Add(Mul(gamma, zero), Mul(OneMinus(gamma), lift(circular(k))))
			}
		}
		for k := range e.TranslationLayers {
			alpha := Reshape(Slice(gates.Translation, AxisRange(), AxisElem(axis), AxisElem(k)), batch)
			result = mix(alpha, shift(k), result)
		}
	}
	if smooth > 0 && (gates.Shift != nil || gates.Translation != nil) {
		// Heat diffusion on this axis's cycle of translations; the heat kernel of the product of cycles
		// is the Kronecker product. On the grid lattice, the canvas' cycle approximates the grid's.
		result = Einsum("ij,bjk->bik", constMatrix(g, dtype, lattice.CycleHeatKernel(l, smooth)), result)
	}
	if grid != nil {
		result = e.scaleAxis(g, dtype, gates, batch, axis, l, result)
	}
	return result
}

// shiftMixture is the translation factor of axis a with ShiftSoftmax, [batch, l, l]. It is Σ_s π_s K(s)
// over the shifts s = -(m-1)..m-1. K(s) = γ Z^s + (1-γ) C^s mixes the zero-fill and the circular shift by
// s with the zero-fill gate γ; without zero fill, K(s) = C^s. On the grid lattice, C^s is each grid's
// circular shift.
func (e Expert) shiftMixture(g *Graph, dtype dtypes.DType, gates *Gates, batch, axis, l int, grid *gridKernels) *Node {
	span := e.shiftSpan()
	probs := Reshape(Slice(gates.Shift, AxisRange(), AxisElem(axis), AxisRange()), batch, 2*span-1)
	stack := func(build func(s int) *lattice.Matrix) *Node { // [2m-1, l, l]
		ms := make([]*Node, 2*span-1)
		for k := range ms {
			ms[k] = Reshape(constMatrix(g, dtype, build(k-(span-1))), 1, l, l)
		}
		return Concatenate(ms, 0)
	}
	var circular *Node
	if grid == nil {
		shifts := stack(func(s int) *lattice.Matrix { return lattice.TranslationMask1D(l, s) })
		circular = Einsum("bs,sij->bij", probs, shifts)
	} else {
		// Per extent n = 1..l the grid's shifts, [l, 2m-1, l, l], picked per example by its extent.
		table := make([]*Node, l)
		for n := 1; n <= l; n++ {
			table[n-1] = Reshape(stack(func(s int) *lattice.Matrix { return lattice.GridTranslationMask1D(l, n, s) }),
				1, 2*span-1, l, l)
		}
		idx := MinScalar(MaxScalar(AddScalar(grid.extent, -1), 0), l-1)
		perExample := Einsum("be,esij->bsij", OneHot(idx, l, dtype), Concatenate(table, 0))
		circular = Einsum("bs,bsij->bij", probs, perExample)
	}
	if gates.ZeroFill == nil {
		return circular
	}
	zero := Einsum("bs,sij->bij", probs, stack(func(s int) *lattice.Matrix { return lattice.ShiftMask1D(l, s) }))
	gamma := Reshape(Slice(gates.ZeroFill, AxisRange(), AxisElem(axis), AxisElem(0)), batch, 1, 1)
	return Add(Mul(gamma, zero), Mul(OneMinus(gamma), circular))
}

// scaleAxis returns S_a @ result for the scaling expert (result unchanged when it is disabled).
func (e Expert) scaleAxis(g *Graph, dtype dtypes.DType, gates *Gates, batch, axis, l int, result *Node) *Node {
	if gates.Scale != nil {
		probs := Reshape(Slice(gates.Scale, AxisRange(), AxisElem(axis), AxisRange()), batch, e.MaxScale)
		var fromFrame *Node // [batch, 1, 1]: 1 where the example's frame sets the scaling (SR > 0)
		if e.Lattice == Anchored && gates.Frames != nil {
			// An up-scaling read off the input (SR, SC): a one-hot over the factors, no down-scaling.
			factor := Reshape(Slice(gates.Frames, AxisRange(), AxisElem(6+axis)), batch)
			set := ConvertDType(GreaterThan(factor, ScalarZero(g, factor.DType())), dtype)
			onehot := OneHot(MinScalar(MaxScalar(AddScalar(factor, -1), 0), e.MaxScale-1), e.MaxScale, dtype)
			probs = Add(Mul(Reshape(set, batch, 1), onehot), Mul(Reshape(OneMinus(set), batch, 1), probs))
			fromFrame = Reshape(set, batch, 1, 1)
		}
		ups := make([]*Node, e.MaxScale)
		for h := 1; h <= e.MaxScale; h++ {
			ups[h-1] = Reshape(constMatrix(g, dtype, lattice.UpscaleMask1D(l, h)), 1, l, l)
		}
		up := Einsum("bh,hij->bij", probs, Concatenate(ups, 0))
		tau := Reshape(Slice(gates.Transpose, AxisRange(), AxisElem(axis)), batch, 1, 1)
		if fromFrame != nil {
			tau = Mul(tau, OneMinus(fromFrame))
		}
		scaled := Add(Mul(tau, TransposeAllDims(up, 0, 2, 1)), Mul(OneMinus(tau), up))
		result = fastgraph.BatchMatMul(scaled, result)
	}
	return result
}

// Mask builds the LatticeMask for the given gates. See Expert for the formula.
func (e Expert) Mask(gates *Gates) *LatticeMask {
	return e.mask(gates, 0)
}

// SmoothedMask builds the smoothed mask of Section 4.2 from the same gates. Each expert's mask is
// diffused by the heat kernel exp(-t L) of its group graph, with t = SmoothingTime. The graphs are the
// translation cycles, the 2-element flip groups and the C4 cycle of rotations.
func (e Expert) SmoothedMask(gates *Gates) *LatticeMask {
	t := e.SmoothingTime
	if t <= 0 {
		t = 1
	}
	return e.mask(gates, t)
}

func (e Expert) mask(gates *Gates, smooth float64) (lm *LatticeMask) {
	if e.Lattice == Anchored && e.FrameCandidates > 0 {
		return e.frameMixture(gates, smooth)
	}
	var any *Node
	for _, n := range []*Node{gates.Translation, gates.Shift, gates.Reflection, gates.Rotation, gates.Scale} {
		if n != nil {
			any = n
			break
		}
	}
	if any == nil {
		exceptions.Panicf("Expert.Mask: all experts are disabled")
	}
	g, dtype, batch := any.Graph(), any.DType(), any.Shape().Dimensions[0]
	// The grid's extents along rows and columns (Lattice.SizeRelative); after a 90° rotation they swap.
	var gridRows, gridCols *gridKernels
	if e.Lattice.SizeRelative() {
		extent, extRows, extCols := gates.Extent, 0, 1
		switch {
		case e.Lattice == Grid && extent == nil:
			exceptions.Panicf("Expert.Mask: a Grid expert needs Gates.Extent " +
				"(experts.GridExtents of the input tokens; layers.LatFormerBuilder.WithExtents)")
		case e.Lattice == Anchored:
			extent, extRows, extCols = gates.Frames, 2, 3 // the box's H and W
			if extent == nil || extent.Rank() != 2 || extent.Shape().Dimensions[1] != FrameLen {
				exceptions.Panicf("Expert.Mask: an Anchored expert needs Gates.Frames [batch, %d] "+
					"(the frames R0, C0, H, W, DR, DC, SR, SC), got %v", FrameLen, shapeOf(extent))
			}
			defer func() { lm = e.anchor(lm, gates.Frames) }()
		}
		gridRows = e.newGridKernels(g, dtype, Reshape(Slice(extent, AxisRange(), AxisElem(extRows)), batch), e.Rows)
		gridCols = e.newGridKernels(g, dtype, Reshape(Slice(extent, AxisRange(), AxisElem(extCols)), batch), e.Cols)
	}
	row := e.axisMask(g, dtype, gates, batch, 0, smooth, gridRows)
	col := e.axisMask(g, dtype, gates, batch, 1, smooth, gridCols)
	lm = &LatticeMask{Rows: e.Rows, Cols: e.Cols}
	if gates.Rotation == nil {
		lm.Terms = []MaskTerm{{Row: row, Col: col}}
		return lm
	}
	if e.Rows != e.Cols {
		exceptions.Panicf("Expert: the rotation expert needs a square canvas, got %dx%d", e.Rows, e.Cols)
	}
	// With a 90° rotation, the per-axis masks act on the rotated grid, and R reverses its columns.
	rowR, colR := row, col
	var flipCols, flipRows *Node  // per-example reversals of the grid's columns and rows (Lattice.SizeRelative)
	if e.Lattice.SizeRelative() { // square canvas here, so the kernels of either extent fit either axis
		rowR = e.axisMask(g, dtype, gates, batch, 0, smooth, gridCols)
		colR = e.axisMask(g, dtype, gates, batch, 1, smooth, gridRows)
		flipCols, flipRows = gridCols.flip, gridRows.flip
	}
	r90 := Reshape(Slice(gates.Rotation, AxisRange(), AxisElem(0)), batch)
	if smooth <= 0 {
		lm.Terms = []MaskTerm{{Weight: OneMinus(r90), Row: row, Col: col},
			{Weight: r90, Row: rowR, Col: colR, Rotate: true, Flip: flipCols}}
		return lm
	}
	// Heat diffusion over C4 of the rotation distribution q_k = P(R^k), k = ρ1-bit + 2·ρ2-bit:
	// q'_k = Σ_m q_m h_{k-m}; the mask is Σ_k q'_k (A_rows ⊗ A_cols) R^k with R^2 = J ⊗ J per axis and
	// R^3 = R^2 R, so it stays a sum of four Kronecker terms.
	r180 := Reshape(Slice(gates.Rotation, AxisRange(), AxisElem(1)), batch)
	q := []*Node{Mul(OneMinus(r90), OneMinus(r180)), Mul(r90, OneMinus(r180)), Mul(OneMinus(r90), r180), Mul(r90, r180)}
	h := lattice.CycleHeatKernel(4, smooth)
	weight := func(k int) *Node {
		var w *Node
		for m := range 4 {
			term := MulScalar(q[m], h.At(m, k))
			if w == nil {
				w = term
			} else {
				w = Add(w, term)
			}
		}
		return w
	}
	// times(a, J) = a J: by the canvas reversal, or per example by the reversal of the grid's first cells.
	times := func(a, perExample *Node) *Node {
		if perExample != nil {
			return fastgraph.BatchMatMul(a, perExample)
		}
		return Einsum("bij,jk->bik", a, constMatrix(g, dtype, lattice.ReflectionMask1D(e.Rows)))
	}
	// R^2 of the unrotated grid flips its rows and columns; after R the grid is W x H, so R^2 R flips
	// its W rows and H columns.
	lm.Terms = []MaskTerm{
		{Weight: weight(0), Row: row, Col: col},
		{Weight: weight(1), Row: rowR, Col: colR, Rotate: true, Flip: flipCols},
		{Weight: weight(2), Row: times(row, flipRows), Col: times(col, flipCols)},
		{Weight: weight(3), Row: times(rowR, flipCols), Col: times(colR, flipRows), Rotate: true, Flip: flipCols},
	}
	return lm
}

// anchor makes the grid-lattice mask lm anchor-relative with each example's frame. frames is
// [batch, FrameLen] int32 (R0, C0, H, W, DR, DC, SR, SC), an Anchored expert's Gates.Frames; scaleAxis
// applies the scaling SR x SC. The result is M' = (D_r ⊗ D_c) M (P_r ⊗ P_c):
//   - P crops the box: P_r[a', a] = 1 iff a = a' + R0 and a' < H.
//   - D places the result with zero fill: D_r[i, i'] = 1 iff i = i' + DR.
//
// In a term's factors this is Row' = D_r Row P_r and Col' = D_c Col P_c. A term with the 90° rotation
// reads the input's rows through Col and its columns through Row·Flip, so there Col' = D_c Col P_r and
// Flip' = Flip P_c. All are l x l products.
func (e Expert) anchor(lm *LatticeMask, frames *Node) *LatticeMask {
	g := frames.Graph()
	batch := frames.Shape().Dimensions[0]
	dtype := lm.Terms[0].Row.DType()
	at := func(k int) *Node { return Reshape(Slice(frames, AxisRange(), AxisElem(k)), batch, 1, 1) }
	crop := func(start, size *Node, l int) *Node { // [batch, l, l]: P[a', a] = (a == a' + start) && a' < size
		i := Iota(g, shapes.Make(dtypes.Int32, 1, l, l), 1)
		j := Iota(g, shapes.Make(dtypes.Int32, 1, l, l), 2)
		on := And(Equal(j, Add(i, start)), LessThan(i, size))
		return ConvertDType(on, dtype)
	}
	place := func(shift *Node, l int) *Node { // [batch, l, l]: D[i, i'] = (i == i' + shift)
		i := Iota(g, shapes.Make(dtypes.Int32, 1, l, l), 1)
		j := Iota(g, shapes.Make(dtypes.Int32, 1, l, l), 2)
		return ConvertDType(Equal(i, Add(j, shift)), dtype)
	}
	pr, pc := crop(at(0), at(2), e.Rows), crop(at(1), at(3), e.Cols)
	dr, dc := place(at(4), e.Rows), place(at(5), e.Cols)
	mm := fastgraph.BatchMatMul
	out := &LatticeMask{Rows: lm.Rows, Cols: lm.Cols, Terms: make([]MaskTerm, len(lm.Terms))}
	for k, t := range lm.Terms {
		t2 := t
		if !t.Rotate {
			t2.Row, t2.Col = mm(dr, mm(t.Row, pr)), mm(dc, mm(t.Col, pc))
		} else {
			flip := t.Flip
			if flip == nil {
				exceptions.Panicf("Expert.anchor: a rotation term without its per-example reversal")
			}
			t2.Row, t2.Col, t2.Flip = mm(dr, t.Row), mm(dc, mm(t.Col, pr)), mm(flip, pc)
		}
		out.Terms[k] = t2
	}
	return out
}

// frameMixture is the mask of an expert with candidate frames: Σ_k p_k M_k. M_k is the anchored mask on
// each example's candidate k (Gates.Frames [batch, K, FrameLen]). p are the frame gates, renormalized
// without the empty candidates. The K masks are one anchored mask on a batch of batch·K, each example's
// gates repeated per candidate, kept as a Mixture of K rows per example.
func (e Expert) frameMixture(gates *Gates, smooth float64) *LatticeMask {
	k := e.FrameCandidates
	frames := gates.Frames
	if gates.Frame == nil || frames == nil || frames.Rank() != 3 || frames.Shape().Dimensions[1] != k ||
		frames.Shape().Dimensions[2] != FrameLen {
		exceptions.Panicf("Expert.Mask: %d candidate frames need Gates.Frame [batch, %d] and Gates.Frames "+
			"[batch, %d, %d]", k, k, k, FrameLen)
	}
	batch := frames.Shape().Dimensions[0]
	dtype := gates.Frame.DType()
	repeat := func(x *Node) *Node { // [batch, ...] -> [batch·K, ...], row b·K+c = row b
		dims := x.Shape().Dimensions
		expanded := BroadcastToDims(InsertAxes(x, 1), append([]int{batch, k}, dims[1:]...)...)
		return Reshape(expanded, append([]int{batch * k}, dims[1:]...)...)
	}
	one := e
	one.FrameCandidates = 0
	rep := &Gates{Frames: Reshape(frames, batch*k, FrameLen)}
	for _, s := range gateTable {
		if s.name == "frame" {
			continue
		}
		if x := *s.field(gates); x != nil {
			*s.field(rep) = repeat(x)
		}
	}
	all := one.mask(rep, smooth)
	p := Mul(gates.Frame, framesSet(frames, dtype))
	p = Reshape(Div(p, MaxScalar(ReduceAndKeep(p, ReduceSum, -1), 1e-9)), batch*k)
	out := &LatticeMask{Rows: all.Rows, Cols: all.Cols, Mixture: k}
	for _, t := range all.Terms {
		w := p
		if t.Weight != nil {
			w = Mul(p, t.Weight)
		}
		t.Weight = w
		out.Terms = append(out.Terms, t)
	}
	return out
}

// framesSet is [batch, K] of dtype: 1 where candidate frame k reads a box on the input (H > 0), else 0.
func framesSet(frames *Node, dtype dtypes.DType) *Node {
	dims := frames.Shape().Dimensions
	h := Reshape(Slice(frames, AxisRange(), AxisRange(), AxisElem(2)), dims[0], dims[1])
	return ConvertDType(GreaterThan(h, ScalarZero(h.Graph(), h.DType())), dtype)
}

// shapeOf is x's shape, or "nil" for none (for messages).
func shapeOf(x *Node) any {
	if x == nil {
		return "nil"
	}
	return x.Shape()
}
