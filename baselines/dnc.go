// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package baselines

import (
	"maps"
	"math/rand/v2"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/hparams"
	"github.com/latformer/latformer/latformer"
)

// Hyperparameter keys of the Differentiable Neural Computer (model.Store keys, settable with --set); its
// controller's hidden size and token embedding are baseline_dim (ParamDim). Defaults in brackets.
const (
	// ParamDNCCellsPerStep is the number of cells the DNC reads (and emits) at each step of its sequence,
	// consecutive in row-major order; 0 is one row of the canvas [0].
	ParamDNCCellsPerStep = "dnc_cells_per_step"
	// ParamDNCSlots is N, the number of memory locations [16].
	ParamDNCSlots = "dnc_memory_slots"
	// ParamDNCWidth is W, the width of a memory location [32].
	ParamDNCWidth = "dnc_memory_width"
	// ParamDNCReadHeads is R, the number of read heads [2].
	ParamDNCReadHeads = "dnc_read_heads"
	// ParamDNCSpectral is λ, the weight of the spectral regularization added to the training loss:
	// λ·(σ(W_x) + σ(W_h)), the largest singular values of the controller's input and recurrent kernels
	// (spectralNorm); 0 turns it off [0.01].
	ParamDNCSpectral = "dnc_spectral"
)

// dncTable declares the DNC's own hyperparameters, with their defaults and the values they accept, the one
// place they are written; dncParams holds the defaults.
var (
	dncTable = hparams.NewTable(
		hparams.Def(ParamDNCCellsPerStep, 0).AtLeast(0),
		hparams.Def(ParamDNCSlots, 16).AtLeast(1),
		hparams.Def(ParamDNCWidth, 32).AtLeast(1),
		hparams.Def(ParamDNCReadHeads, 2).AtLeast(1),
		hparams.Def(ParamDNCSpectral, 0.01).AtLeast(0),
	)
	dncParams = dncTable.Defaults()
)

// dncPowerIterations is the number of power-method iterations of the spectral regularization's estimate
// of each kernel's largest singular value, started from the same fixed vector at every step.
const dncPowerIterations = 20

// dncEpsilon keeps the cosine similarity of an all-zero memory row (the start) at 0 with finite gradients,
// and the usages away from 0 before their product in the allocation weighting, as DeepMind's and ixaxaar's
// implementations do (1e-6 in both).
const dncEpsilon = 1e-6

// DNC is the Differentiable Neural Computer of Graves et al. 2016 ("Hybrid computing using a neural
// network with dynamic external memory", Nature 538; equations of its Methods section) with the spectral
// regularization of Kolev et al. (the Neural Abstract Reasoner, 2020): an LSTM controller (hidden size
// baseline_dim [32]) with an external memory of dnc_memory_slots [16] locations of dnc_memory_width [32],
// one write head and dnc_read_heads [2] read heads (memoryStep).
//
// The canvas is a sequence read twice: its cells in row-major order, dnc_cells_per_step of them a step
// [0: one row; 1: one cell], each cell's token embedded (baseline_dim) and the step's embeddings
// concatenated. In the first pass the DNC only reads the input (its outputs are dropped); in the second it
// reads the same cells again, with a pass flag set, and emits the logits of the cells it reads: the second
// pass lets every output cell depend on the whole input (a single pass would give a cell only the cells
// before it, and no rotation or reflection could be learned), and reading a cell again at the step that
// emits it gives the output a position to align to without a second embedding table. The controller's
// input at each step is [embeddings; pass flag; the R read vectors of the step before], and the output of
// a step is y_t = W_y [h_t; r_t] + b (the paper's v_t + W_r r_t), the logits of the step's cells.
//
// The recurrence is unrolled in the graph (GoMLX's While has no gradient). One cell a step is 200 steps at
// canvas 10, whose training step costs seconds on the pure-Go backend (docs/arc.md); one row a step, the
// default, is 20.
func DNC() latformer.Architecture {
	p := params(1) // the shared keys; the DNC reads baseline_dim only
	maps.Copy(p, dncTable)
	return latformer.Architecture{
		Name:   "dnc",
		Params: p,
		Build: func(scope *model.Scope, rows, cols int, tokens, _ *Node) *latformer.Outputs {
			check("dnc", rows, cols, tokens.Shape().Dimensions)
			k := model.GetParamOr(scope, ParamDNCCellsPerStep, dncParams[ParamDNCCellsPerStep].(int))
			if k <= 0 {
				k = cols
			}
			if (rows*cols)%k != 0 {
				exceptions.Panicf("baselines.DNC: %s=%d does not divide the %d cells of a %dx%d canvas",
					ParamDNCCellsPerStep, k, rows*cols, rows, cols)
			}
			return buildDNC(scope, k, tokens)
		},
	}
}

// dncSizes are the DNC's sizes: the controller's hidden size H, N memory locations of width W, R read heads.
type dncSizes struct{ hidden, slots, width, heads int }

// dncSizesOf reads the sizes from scope's hyperparameters.
func dncSizesOf(scope *model.Scope) dncSizes {
	get := func(key string) int { return model.GetParamOr(scope, key, dncParams[key].(int)) }
	return dncSizes{hidden: dim(scope), slots: get(ParamDNCSlots), width: get(ParamDNCWidth),
		heads: get(ParamDNCReadHeads)}
}

// buildDNC runs the DNC twice over tokens [batch, n], k cells a step (DNC), and returns the logits of the
// second pass, [batch, n, 11]; in training it adds the spectral regularization to the graph's
// regularization loss (train.AddRegularizationLoss), which the learner adds to the cross-entropy.
func buildDNC(scope *model.Scope, k int, tokens *Node) *latformer.Outputs {
	g := tokens.Graph()
	batch, n, z := tokens.Shape().Dimensions[0], tokens.Shape().Dimensions[1], dncSizesOf(scope)
	d, steps, reads := z.hidden, n/k, z.heads*z.width
	x := Reshape(embed(scope.In("embed"), tokens, d), batch, steps, k*d)
	ctrl := newDNCController(scope.In("controller"), g, k*d+1+reads, z.hidden, x.DType())
	// The embeddings' share of every step's gate pre-activations, for all steps at once; the second pass
	// adds the pass flag's row of the kernel.
	tokenKernel := Slice(ctrl.kernel, AxisRange(0, k*d))
	flagRow := Slice(ctrl.kernel, AxisRange(k*d, k*d+1))                                           // [1, 4H]
	fromTokens := Add(Einsum("bsf,fk->bsk", x, tokenKernel), Reshape(ctrl.bias, 1, 1, 4*z.hidden)) // [batch, steps, 4H]
	// The read vectors' and the hidden state's rows of the kernels, one matrix for the step's product.
	stepKernel := Concatenate([]*Node{Slice(ctrl.kernel, AxisRange(k*d+1, k*d+1+reads)), ctrl.recurrent}, 0)
	// The interface's weights, one product a step (a layer called at every step would visit its scope again).
	size := dncInterfaceSize(z.heads, z.width)
	interfaceScope := scope.In("interface")
	interfaceWeights := interfaceScope.VariableWithShape("weights", shapes.Make(x.DType(), z.hidden, size)).NodeValue(g)
	interfaceBias := ExpandAxes(
		interfaceScope.VariableWithShape("biases", shapes.Make(x.DType(), size)).NodeValue(g), 0)

	state := newDNCState(g, x.DType(), batch, z)
	h := Zeros(g, shapes.Make(x.DType(), batch, z.hidden))
	cell := h
	outputs := make([]*Node, 0, steps)
	for t := range 2 * steps {
		pre := Reshape(Slice(fromTokens, AxisRange(), AxisElem(t%steps)), batch, 4*z.hidden)
		if t >= steps {
			pre = Add(pre, flagRow)
		}
		pre = Add(pre, Dot(Concatenate([]*Node{Reshape(state.readVectors, batch, reads), h}, -1), stepKernel).Product())
		h, cell = lstmCell(pre, cell)
		xi := Add(Dot(h, interfaceWeights).Product(), interfaceBias)
		state = memoryStep(state, parseInterface(xi, z.heads, z.width))
		if t >= steps {
			outputs = append(outputs, Concatenate([]*Node{h, Reshape(state.readVectors, batch, reads)}, -1))
		}
	}
	if lambda := model.GetParamOr(scope, ParamDNCSpectral, dncParams[ParamDNCSpectral].(float64)); lambda > 0 &&
		scope.IsTraining(g) {
		train.AddRegularizationLoss(MulScalar(Add(spectralNorm(ctrl.kernel, dncPowerIterations),
			spectralNorm(ctrl.recurrent, dncPowerIterations)), lambda))
	}
	logits := layers.Dense(scope.In("head"), Stack(outputs, 1), true, k, datasets.NumTokens) // [batch, steps, k, 11]
	return &latformer.Outputs{Logits: Reshape(logits, batch, n, datasets.NumTokens)}
}

// dncController holds the variables of the DNC's controller, one LSTM layer of hidden size H: kernel
// [F, 4H] for the input x_t (F features), recurrent [H, 4H] for h_{t-1}, bias [4H], the four gates in
// the order of GoMLX's lstm package (input, output, forget, cell). GoMLX's lstm.LSTM runs a whole sequence
// whose inputs are known beforehand, while the DNC's input at step t holds the read vectors of step t-1,
// so the step is lstmCell (TestDNCLSTMCell checks it against lstm.LSTM on one step).
type dncController struct{ kernel, recurrent, bias *Node }

// newDNCController creates (or reuses) the controller's variables under scope, for F features and hidden
// size H, and returns their values in graph g.
func newDNCController(scope *model.Scope, g *Graph, features, hidden int, dtype dtypes.DType) dncController {
	v := func(name string, dims ...int) *Node {
		return scope.VariableWithShape(name, shapes.Make(dtype, dims...)).NodeValue(g)
	}
	return dncController{kernel: v("kernel", features, 4*hidden), recurrent: v("recurrent", hidden, 4*hidden),
		bias: v("bias", 4*hidden)}
}

// lstmCell is one LSTM step from the gate pre-activations pre [batch, 4H] (x_t W_x + h_{t-1} W_h + b, gates
// in lstm's order: input, output, forget, cell) and the cell state c [batch, H]: c_t = f∘c + i∘tanh(g),
// h_t = o∘tanh(c_t). It returns h_t and c_t.
func lstmCell(pre, c *Node) (h, cNext *Node) {
	gates := Split(pre, -1, 4)
	i, o, f, cand := Sigmoid(gates[0]), Sigmoid(gates[1]), Sigmoid(gates[2]), Tanh(gates[3])
	cNext = Add(Mul(f, c), Mul(i, cand))
	return Mul(o, Tanh(cNext)), cNext
}

// dncState is the DNC's state between two steps (Graves et al. 2016, Methods), for a batch: the memory
// M [batch, N, W], the usage u [batch, N], the temporal link matrix L [batch, N, N], the precedence
// weighting p [batch, N], the write weighting w^w [batch, N], the R read weightings w^r [batch, R, N]
// and the read vectors r [batch, R, W].
type dncState struct {
	memory, usage, link, precedence, write, read, readVectors *Node
}

// newDNCState is the state at the start of a sequence: all zeros.
func newDNCState(g *Graph, dtype dtypes.DType, batch int, z dncSizes) dncState {
	zeros := func(dims ...int) *Node { return Zeros(g, shapes.Make(dtype, dims...)) }
	return dncState{memory: zeros(batch, z.slots, z.width), usage: zeros(batch, z.slots),
		link: zeros(batch, z.slots, z.slots), precedence: zeros(batch, z.slots), write: zeros(batch, z.slots),
		read: zeros(batch, z.heads, z.slots), readVectors: zeros(batch, z.heads, z.width)}
}

// dncInterface is the layout of the interface vector ξ_t that the controller emits at each step (Graves
// et al. 2016, Methods, "Interface parameters"), in the paper's order: each segment's name and its size for
// R read heads and memory width W. parseInterface reads ξ_t with it, dncInterfaceSize sums it, and
// scripts/dnc_fixture.py writes the same order.
var dncInterface = []struct {
	name string
	size func(r, w int) int
}{
	{"read_keys", func(r, w int) int { return r * w }},  // k^{r,i}
	{"read_strengths", func(r, _ int) int { return r }}, // β̂^{r,i}
	{"write_key", func(_, w int) int { return w }},      // k^w
	{"write_strength", func(_, _ int) int { return 1 }}, // β̂^w
	{"erase", func(_, w int) int { return w }},          // ê
	{"write_vector", func(_, w int) int { return w }},   // v
	{"free_gates", func(r, _ int) int { return r }},     // f̂^i
	{"allocation_gate", func(_, _ int) int { return 1 }},
	{"write_gate", func(_, _ int) int { return 1 }},
	{"read_modes", func(r, _ int) int { return 3 * r }}, // π̂^i: backward, content, forward
}

// dncInterfaceSize is the size of the interface vector, W·R + 3W + 5R + 3.
func dncInterfaceSize(r, w int) int {
	size := 0
	for _, s := range dncInterface {
		size += s.size(r, w)
	}
	return size
}

// dncInterfaceValues are the interface parameters of one step, for a batch: the read keys [batch, R, W]
// and strengths β^{r,i} = oneplus(β̂) [batch, R], the write key [batch, W] and strength [batch, 1], the
// erase vector e = σ(ê) [batch, W], the write vector [batch, W], the free gates σ(f̂) [batch, R], the
// allocation and write gates σ(ĝ) [batch, 1], and each read head's modes softmax(π̂) [batch, R, 3] (over
// backward, content, forward).
type dncInterfaceValues struct {
	readKeys, readStrengths, writeKey, writeStrength, erase, writeVector *Node
	freeGates, allocationGate, writeGate, readModes                      *Node
}

// oneplus(x) = 1 + log(1 + eˣ), the strengths' range [1, ∞).
func oneplus(x *Node) *Node { return OnePlus(Softplus(x)) }

// parseInterface splits the interface vector xi [batch, size] along dncInterface and maps each segment
// to its range.
func parseInterface(xi *Node, r, w int) dncInterfaceValues {
	batch := xi.Shape().Dimensions[0]
	seg := make(map[string]*Node, len(dncInterface))
	at := 0
	for _, s := range dncInterface {
		seg[s.name] = Slice(xi, AxisRange(), AxisRange(at, at+s.size(r, w)))
		at += s.size(r, w)
	}
	return dncInterfaceValues{
		readKeys:       Reshape(seg["read_keys"], batch, r, w),
		readStrengths:  oneplus(seg["read_strengths"]),
		writeKey:       seg["write_key"],
		writeStrength:  oneplus(seg["write_strength"]),
		erase:          Sigmoid(seg["erase"]),
		writeVector:    seg["write_vector"],
		freeGates:      Sigmoid(seg["free_gates"]),
		allocationGate: Sigmoid(seg["allocation_gate"]),
		writeGate:      Sigmoid(seg["write_gate"]),
		readModes:      Softmax(Reshape(seg["read_modes"], batch, r, 3), -1),
	}
}

// memoryStep is one step of the DNC's memory (Graves et al. 2016, Methods), from the state of step t-1
// and the interface parameters of step t, in the paper's order:
//
//	ψ_t = ∏_i (1 - f^i w^{r,i}_{t-1})                            retention
//	u_t = (u_{t-1} + w^w_{t-1} - u_{t-1}∘w^w_{t-1})∘ψ_t           usage
//	a_t[φ_j] = (1 - u_t[φ_j]) ∏_{i<j} u_t[φ_i]                     allocation (φ: locations by usage, ascending)
//	w^w_t = g^w (g^a a_t + (1 - g^a) C(M_{t-1}, k^w, β^w))       write weighting
//	M_t = M_{t-1}∘(1 - w^w_t eᵀ) + w^w_t vᵀ                       erase and write
//	L_t[i,j] = (1 - w^w_t[i] - w^w_t[j]) L_{t-1}[i,j] + w^w_t[i] p_{t-1}[j],  L_t[i,i] = 0
//	p_t = (1 - Σ_i w^w_t[i]) p_{t-1} + w^w_t                      precedence
//	w^{r,i}_t = π^i[1] L_tᵀ w^{r,i}_{t-1} + π^i[2] C(M_t, k^{r,i}, β^{r,i}) + π^i[3] L_t w^{r,i}_{t-1}
//	r^i_t = M_tᵀ w^{r,i}_t                                        read vectors
//
// The allocation needs no sort: a location's product runs over the locations of lower usage (ties broken by
// index), a mask of pairwise comparisons, and the product is exp of a sum of logs, with the usages first
// moved to ε + (1-ε)u as DeepMind's implementation does. No gradient flows through the order, as through
// the paper's sort. TestDNCMemoryStep checks a step against goldens from the paper's equations and
// ixaxaar's PyTorch DNC (baselines/testdata/dnc_memory_step.json).
func memoryStep(s dncState, in dncInterfaceValues) dncState {
	g := s.memory.Graph()
	dt := s.memory.DType()
	batch, n := s.usage.Shape().Dimensions[0], s.usage.Shape().Dimensions[1]
	heads := s.read.Shape().Dimensions[1]
	// Retention and usage.
	psi := OnesLike(s.usage)
	for i := range heads {
		f := Slice(in.freeGates, AxisRange(), AxisElem(i))                            // [batch, 1]
		wr := Reshape(Slice(s.read, AxisRange(), AxisElem(i), AxisRange()), batch, n) // [batch, N]
		psi = Mul(psi, OneMinus(Mul(f, wr)))
	}
	usage := Mul(Sub(Add(s.usage, s.write), Mul(s.usage, s.write)), psi)
	// Allocation: a_j = (1 - u_j) ∏_{i before j} u_i, "i before j" when u_i < u_j or (u_i = u_j and i < j).
	u := AddScalar(MulScalar(usage, 1-dncEpsilon), dncEpsilon)
	ui, uj := ExpandAxes(u, 1), ExpandAxes(u, 2) // [batch, 1, N(i)], [batch, N(j), 1]
	index := Iota(g, shapes.Make(dtypes.Int32, n, n), 1)
	lowerIndex := ExpandAxes(LessThan(index, Iota(g, shapes.Make(dtypes.Int32, n, n), 0)), 0) // [1, N(j), N(i)]: i < j
	before := LogicalOr(LessThan(ui, uj), LogicalAnd(Equal(ui, uj), lowerIndex))
	logProduct := ReduceSum(Mul(ConvertDType(before, dt), Log(ui)), -1) // [batch, N(j)]
	allocation := Mul(OneMinus(u), Exp(logProduct))
	// Write weighting, erase and write.
	writeContent := Reshape(contentWeighting(s.memory, ExpandAxes(in.writeKey, 1), in.writeStrength), batch, n)
	write := Mul(in.writeGate, Add(Mul(in.allocationGate, allocation), Mul(OneMinus(in.allocationGate), writeContent)))
	ww := ExpandAxes(write, -1) // [batch, N, 1]
	memory := Add(Mul(s.memory, OneMinus(Mul(ww, ExpandAxes(in.erase, 1)))), Mul(ww, ExpandAxes(in.writeVector, 1)))
	// Temporal links and precedence.
	wj := ExpandAxes(write, 1) // [batch, 1, N]
	link := Add(Mul(Sub(OneMinus(ww), wj), s.link), Mul(ww, ExpandAxes(s.precedence, 1)))
	offDiagonal := ExpandAxes(ConvertDType(LogicalNot(Diagonal(g, n)), dt), 0)
	link = Mul(link, offDiagonal)
	precedence := Add(Mul(OneMinus(ReduceAndKeep(write, ReduceSum, -1)), s.precedence), write)
	// Read weightings and vectors.
	forward := Einsum("bij,brj->bri", link, s.read)  // L w^r
	backward := Einsum("bij,bri->brj", link, s.read) // Lᵀ w^r
	content := contentWeighting(memory, in.readKeys, in.readStrengths)
	mode := func(k int) *Node { return Slice(in.readModes, AxisRange(), AxisRange(), AxisElem(k)) } // [batch, R, 1]
	read := Add(Add(Mul(mode(0), backward), Mul(mode(1), content)), Mul(mode(2), forward))
	return dncState{memory: memory, usage: usage, link: link, precedence: precedence, write: write, read: read,
		readVectors: Einsum("brn,bnw->brw", read, memory)}
}

// contentWeighting is the content-based addressing C(M, k, β) of Graves et al. 2016 for K keys at once: a
// softmax over the N locations of β times the cosine similarity D(k, M[i]) = k·M[i] / (|k||M[i]|), for
// memory [batch, N, W], keys [batch, K, W] and strengths [batch, K]; [batch, K, N]. The norms are
// √(|x|² + ε²) and the denominator gets + ε (dncEpsilon), so that an all-zero row has similarity 0 and
// finite gradients.
func contentWeighting(memory, keys, strengths *Node) *Node {
	batch, n := memory.Shape().Dimensions[0], memory.Shape().Dimensions[1]
	norm := func(x *Node) *Node { return Sqrt(AddScalar(L2NormSquare(x, -1), dncEpsilon*dncEpsilon)) }
	dots := Einsum("bkw,bnw->bkn", keys, memory)
	den := AddScalar(Mul(norm(keys), Reshape(norm(memory), batch, 1, n)), dncEpsilon)
	return Softmax(Mul(Div(dots, den), ExpandAxes(strengths, -1)), -1)
}

// spectralNorm is the largest singular value σ(w) of the matrix w [m, n], by iterations of the power
// method on wᵀw from a fixed start vector: v ← wᵀw v / |wᵀw v|, then u = w v / |w v| and σ = uᵀ w v. The
// vectors are constants for the gradient (StopGradient), which makes it u vᵀ, the gradient of the largest
// singular value (Yoshida and Miyato 2017, "Spectral norm regularization for improving the
// generalizability of deep learning"). TestSpectralNorm checks it against numpy's SVD.
func spectralNorm(w *Node, iterations int) *Node {
	n := w.Shape().Dimensions[1]
	rng := rand.New(rand.NewPCG(7, 11)) // a fixed start, the same at every step
	start := make([]float32, n)
	for i := range start {
		start[i] = float32(rng.NormFloat64())
	}
	wc := StopGradient(w)
	v := ConvertDType(Const(w.Graph(), start), w.DType()) // [n]
	for range iterations {
		v = Einsum("mn,m->n", wc, Einsum("mn,n->m", wc, v))
		v = Div(v, Sqrt(AddScalar(L2NormSquare(v), 1e-30)))
	}
	u := Einsum("mn,n->m", wc, v)
	u = StopGradient(Div(u, Sqrt(AddScalar(L2NormSquare(u), 1e-30))))
	v = StopGradient(v)
	return Einsum("m,m->", u, Einsum("mn,n->m", w, v))
}
