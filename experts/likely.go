// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package experts

import (
	"container/heap"
	"math"
	"sort"
)

// ElementOf returns the group element the discretized gates select: the most probable choice of every
// gate. Ties pick the first scaling factor.
func (e Expert) ElementOf(v GateValues) Element {
	choices := e.gateChoices(v)
	return e.elementOfPicks(choices, make([]int, len(choices)))
}

// LikelyElements returns the k most probable group elements under soft gates v, most probable first. It
// reads the gates as independent choices: a sigmoid gate is set with its value as probability, and a
// softmax row picks a factor with its probability. The first is ElementOf(v), ties aside; the next ones
// set or clear the least certain gates. Settings that select the same element (ElementName) count once.
//
// Soft gates that mix elements keep probability on the gates the training pairs left undecided. The gate
// beam of Learner.Fit (ParamGateBeam) holds the gates at each of these elements in turn.
func (e Expert) LikelyElements(v GateValues, k int) []Element {
	choices := e.gateChoices(v)
	if len(choices) == 0 || k <= 0 {
		return nil
	}
	var out []Element
	seen := map[string]bool{}
	enumerateBest(choices, func(pick []int) bool {
		el := e.elementOfPicks(choices, pick)
		key := e.ElementName(el)
		if !seen[key] {
			seen[key] = true
			out = append(out, el)
		}
		return len(out) < k
	}, 64*k)
	return out
}

// gateChoice is one independent choice of the hard gates: a sigmoid gate or a softmax row. Its options
// are sorted by ascending cost, -log p.
type gateChoice struct {
	seg     gateSegment
	idx     [][]int   // per option, the gate index set (for a sigmoid gate: option "on" sets idx)
	on      []bool    // per option: whether the option sets its gate (sigmoid: off/on; softmax: always)
	cost    []float64 // per option, -log of its probability, ascending
	softmax bool
}

// gateChoices lists the choices of v's gates (the segments of e present in v).
func (e Expert) gateChoices(v GateValues) []gateChoice {
	const eps = 1e-9
	var out []gateChoice
	for _, s := range e.segments() {
		vals, ok := v[s.name]
		if !ok {
			continue
		}
		dims := s.dims(e)
		last := dims[len(dims)-1]
		k := 0
		var row *gateChoice
		s.indices(e, func(idx []int) {
			p := min(max(vals[k], eps), 1-eps)
			k++
			cp := append([]int(nil), idx...)
			if !s.softmax {
				c := gateChoice{seg: s, idx: [][]int{cp, cp}, on: []bool{false, true},
					cost: []float64{-math.Log(1 - p), -math.Log(p)}}
				if c.cost[1] < c.cost[0] {
					c.idx[0], c.idx[1] = c.idx[1], c.idx[0]
					c.on[0], c.on[1] = true, false
					c.cost[0], c.cost[1] = c.cost[1], c.cost[0]
				}
				out = append(out, c)
				return
			}
			if idx[len(idx)-1] == 0 {
				out = append(out, gateChoice{seg: s, softmax: true})
				row = &out[len(out)-1]
			}
			row.idx = append(row.idx, cp)
			row.on = append(row.on, true)
			row.cost = append(row.cost, -math.Log(p))
			if idx[len(idx)-1] == last-1 {
				sortOptions(row)
			}
		})
	}
	return out
}

// sortOptions orders a softmax row's options by ascending cost. Ties keep the first factor first, as
// ElementOf does.
func sortOptions(c *gateChoice) {
	order := make([]int, len(c.cost))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return c.cost[order[a]] < c.cost[order[b]] })
	idx, on, cost := make([][]int, len(order)), make([]bool, len(order)), make([]float64, len(order))
	for i, o := range order {
		idx[i], on[i], cost[i] = c.idx[o], c.on[o], c.cost[o]
	}
	c.idx, c.on, c.cost = idx, on, cost
}

// elementOfPicks is the element that option pick[i] of every choice i selects.
func (e Expert) elementOfPicks(choices []gateChoice, pick []int) Element {
	var el Element
	// A segment's set function reads what earlier ones set, so apply the choices in the logits' order.
	for i, c := range choices {
		if c.on[pick[i]] {
			c.seg.set(e, &el, c.idx[pick[i]])
		}
	}
	return el
}

// enumerateBest calls visit with the choices' option picks in order of increasing total cost, until
// visit returns false or limit settings were visited. A setting's successors advance one choice at or
// after the last one advanced, so each setting comes once.
func enumerateBest(choices []gateChoice, visit func(pick []int) bool, limit int) {
	start := bestNode{pick: make([]int, len(choices))}
	for _, c := range choices {
		start.cost += c.cost[0]
	}
	h := &bestHeap{start}
	for n := 0; h.Len() > 0 && n < limit; n++ {
		cur := heap.Pop(h).(bestNode)
		if !visit(cur.pick) {
			return
		}
		for i := cur.last; i < len(choices); i++ {
			p := cur.pick[i]
			if p+1 >= len(choices[i].cost) {
				continue
			}
			next := bestNode{pick: append([]int(nil), cur.pick...), last: i,
				cost: cur.cost - choices[i].cost[p] + choices[i].cost[p+1]}
			next.pick[i] = p + 1
			heap.Push(h, next)
		}
	}
}

// bestNode is a joint setting of enumerateBest.
type bestNode struct {
	pick []int
	last int
	cost float64
}

// bestHeap is a min-heap of settings by cost (container/heap).
type bestHeap []bestNode

func (h bestHeap) Len() int           { return len(h) }
func (h bestHeap) Less(i, j int) bool { return h[i].cost < h[j].cost }
func (h bestHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *bestHeap) Push(x any)        { *h = append(*h, x.(bestNode)) }
func (h *bestHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ShiftNeighbors returns the elements one translation step from el on one axis, in the order rows −1,
// rows +1, columns −1, columns +1. A circular shift moves modulo the axis's side. A zero-fill shift moves
// by one cell, and is dropped where it would pass MaxShift. Elements whose action equals el's or an
// earlier neighbor's are left out. It returns nil without a translation expert.
//
// The translation gates hold a shift in binary, so adjacent shifts can differ in every bit (7 = 0111,
// 8 = 1000). Soft gates one cell off the right shift are then a local minimum that flipping one gate
// does not leave, and LikelyElements does not reach the neighbor. The gate beam tries these too with
// train_gate_beam_neighbors.
func (e Expert) ShiftNeighbors(el Element) []Element {
	if !e.Translation {
		return nil
	}
	seen := map[string]bool{e.ActionOf(el).String(): true}
	var out []Element
	limit := e.MaxShift() + 1
	for a, side := range []int{e.Rows, e.Cols} {
		for _, d := range []int{-1, 1} {
			n := el
			if e.ZeroFill && el.ZeroFill[a] {
				n.Shift[a] += d
				if n.Shift[a] >= limit || -n.Shift[a] >= limit {
					continue
				}
			} else {
				n.Shift[a] = mod(el.Shift[a]+d, side)
			}
			key := e.ActionOf(n).String()
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, n)
		}
	}
	return out
}
