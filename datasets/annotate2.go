package datasets

// Two-action annotation: the tasks that y = f(g₁·x, g₂·x, x) expresses and y = f(g·x, x) does not
// (mirror tilings, symmetry completion, overlays of two moved copies), next to Annotate's definition.

import (
	"fmt"
	"sort"
)

// AnnotateTwoActionsTopK is the number of candidates per pair and category that AnnotateTwoActions
// combines into pairs (g₁, g₂).
const AnnotateTwoActionsTopK = 12

// AnnotateTwoActions extends Annotate to two actions, in the setting of a LatFormer layer with two
// experts (layers.ParamActions = 2): y = f(g₁·x, g₂·x, x), g₁, g₂ ∈ G_c. It returns Annotate's annotation
// for a task that Annotate places in a category or excludes; for a task that fits no category of Annotate
// it tries the categories again with two actions:
//
// A task fits category c with two actions iff there exist, for each pair i (train pairs and test pairs
// with an output), two elements g₁ᵢ ≠ g₂ᵢ of G_c (Annotate's sets, on the same 30x30 canvas) and ONE
// per-cell function f: (token of g₁ᵢ·xᵢ, token of g₂ᵢ·xᵢ, token of xᵢ) -> output token, a lookup table
// over 11³ keys shared by all pairs, that reproduces all 900 output cells of every pair, with at least
// one non-trivial element among them (Annotate's sense). The categories are tried in Annotate's order;
// Actions holds "g₁ + g₂" per pair.
//
// Search (a heuristic, so the count of such tasks is a lower bound): per pair and category the elements
// of G_c are ranked by how many output cells they explain that x does not (cells where the output equals
// g·x and differs from x; ties: Annotate's candidate order), the best AnnotateTwoActionsTopK with at
// least one such cell are combined into unordered pairs, each pair's pair-local table is built over all
// 900 cells, and one pair of elements per task pair is chosen by backtracking as in Annotate, with the
// same cap on table merges (a capped category counts as not fitting). Deterministic.
func AnnotateTwoActions(task Task) Annotation {
	ann := Annotate(task)
	if ann.Category != CategoryNone || ann.Note != "fits no geometric category" {
		return ann
	}
	space := annotGetSpace()
	pairs, err := annotPairs(task)
	if err != nil { // Annotate has said so in a Note already
		return ann
	}
	for _, cat := range Categories {
		if actions := annot2SearchCategory(space, cat, pairs); actions != nil {
			return Annotation{TaskID: task.ID, Category: cat, Actions: actions, Note: "two actions"}
		}
	}
	ann.Note = "fits no geometric category, with one or two actions"
	return ann
}

// annot2Key is the key of the two-action table: (g₁·x, g₂·x, x) tokens.
const annot2Keys = NumTokens * NumTokens * NumTokens

type annot2Table [annot2Keys]int8

var annot2EmptyTable = func() annot2Table {
	var t annot2Table
	annotUnset(t[:])
	return t
}()

func annot2Merge(a, b *annot2Table) bool { return annotMergeSlices(a[:], b[:]) }

// apply returns g·x for the candidate c of category cat (gather of its base, then translation).
func (p *annotPair) apply(s *annotSpace, cat Category, c annotCand, out *[annotN]int32) {
	var gather []int32
	if c.base >= 0 {
		gather = s.bases[cat][c.base].gather
	}
	tp := s.trans[c.delta]
	for i := range annotN {
		src := tp[i]
		if gather != nil {
			src = gather[src]
		}
		if src < 0 {
			out[i] = PadToken
		} else {
			out[i] = p.x[src]
		}
	}
}

// annot2Group is a distinct pair-local table of two candidates.
type annot2Group struct {
	table      annot2Table
	g1, g2     annotCand
	nontrivial bool
}

// twoActionGroups returns the pair-local tables of the pairs of top candidates of category cat.
func (p *annotPair) twoActionGroups(s *annotSpace, cat Category) []annot2Group {
	type ranked struct {
		c      annotCand
		useful int
		gx     *[annotN]int32
	}
	var top []ranked
	scratch := new([annotN]int32) // g·x of the candidate at hand; copied only if it enters top
	consider := func(c annotCand) {
		p.apply(s, cat, c, scratch)
		useful := 0
		for _, i := range p.region {
			if o := int32(p.out[i]); o == scratch[i] && o != p.x[i] {
				useful++
			}
		}
		if useful == 0 {
			return
		}
		if len(top) == AnnotateTwoActionsTopK && useful <= top[len(top)-1].useful {
			return
		}
		gx := new([annotN]int32)
		*gx = *scratch
		r := ranked{c: c, useful: useful, gx: gx}
		at := sort.Search(len(top), func(k int) bool { return top[k].useful < useful })
		top = append(top, ranked{})
		copy(top[at+1:], top[at:])
		top[at] = r
		if len(top) > AnnotateTwoActionsTopK {
			top = top[:AnnotateTwoActionsTopK]
		}
	}
	for bi := range s.bases[cat] {
		for d := range annotN {
			consider(annotCand{base: int16(bi), delta: int16(d)})
		}
	}
	for d := range annotN {
		consider(annotCand{base: -1, delta: int16(d)})
	}
	var groups []annot2Group
	index := map[annot2Table]int{}
	for a := range top {
		for b := a + 1; b < len(top); b++ {
			t := annot2EmptyTable
			ok := true
			for i := range annotN {
				k := (top[a].gx[i]*NumTokens+top[b].gx[i])*NumTokens + p.x[i]
				o := p.out[i]
				if v := t[k]; v < 0 {
					t[k] = o
				} else if v != o {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			nt := annotNontrivial(cat, top[a].c) || annotNontrivial(cat, top[b].c)
			if gi, seen := index[t]; seen {
				if nt && !groups[gi].nontrivial {
					groups[gi] = annot2Group{table: t, g1: top[a].c, g2: top[b].c, nontrivial: true}
				}
				continue
			}
			index[t] = len(groups)
			groups = append(groups, annot2Group{table: t, g1: top[a].c, g2: top[b].c, nontrivial: nt})
		}
	}
	return groups
}

// annot2SearchCategory returns the actions ("g₁ + g₂" per pair) of a two-action solution of category
// cat, or nil.
func annot2SearchCategory(s *annotSpace, cat Category, pairs []*annotPair) []string {
	groups := make([][]annot2Group, len(pairs))
	for i, p := range pairs {
		if groups[i] = p.twoActionGroups(s, cat); len(groups[i]) == 0 {
			return nil
		}
	}
	order := make([]int, len(pairs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(groups[order[a]]) < len(groups[order[b]]) })
	choice := make([]int, len(pairs))
	merges := 0
	var rec func(k int, cur *annot2Table, nt bool) bool
	rec = func(k int, cur *annot2Table, nt bool) bool {
		if k == len(order) {
			return nt
		}
		p := order[k]
		for gi := range groups[p] {
			if merges++; merges > annotMaxMerges {
				return false
			}
			next := *cur
			if !annot2Merge(&next, &groups[p][gi].table) {
				continue
			}
			choice[p] = gi
			if rec(k+1, &next, nt || groups[p][gi].nontrivial) {
				return true
			}
		}
		return false
	}
	start := annot2EmptyTable
	if !rec(0, &start, false) {
		return nil
	}
	actions := make([]string, len(pairs))
	for i := range pairs {
		g := groups[i][choice[i]]
		actions[i] = fmt.Sprintf("%s + %s", s.candAction(cat, g.g1), s.candAction(cat, g.g2))
	}
	return actions
}
