package datasets

// An objective, reproducible annotation of ARC tasks by the geometric prior they need, standing in for the
// hand annotation of the paper (Section 5.2, Table 2, Appendix B.2).

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/latformer/latformer/lattice"
)

// Category is the geometric prior an ARC task needs, as decided by Annotate. The first four are the
// columns of the paper's Table 2:
//
//	CategoryTranslate "translate": Translate
//	CategoryRotate    "rotate":    Rotate + Translate
//	CategoryReflect   "reflect":   Reflect + Translate
//	CategoryScale     "scale":     Scale + Translate
//	CategoryNone      "none":      none of them (not evaluated in Table 2)
type Category string

// The categories of Annotate (see Category for the mapping to the paper's Table 2).
const (
	CategoryTranslate Category = "translate"
	CategoryRotate    Category = "rotate"
	CategoryReflect   Category = "reflect"
	CategoryScale     Category = "scale"
	CategoryNone      Category = "none"
)

// Categories lists the geometric categories in order of precedence (the simplest group first):
// Annotate returns the first of them that fits a task.
var Categories = []Category{CategoryTranslate, CategoryRotate, CategoryReflect, CategoryScale}

// Annotation is the category Annotate gives a task, with the evidence.
type Annotation struct {
	// TaskID is the id of the task.
	TaskID string `json:"task_id"`
	// Category is the first category (in the order of Categories) whose definition the task fits, or
	// CategoryNone.
	Category Category `json:"category"`
	// Actions holds, for a geometric category, the group element g_i chosen for each pair i (the
	// lattice.Action String of T_δ ∘ B, e.g. "translate(0,27)∘rot90(0,1)x1", "transpose(0,1)",
	// "identity"), in the order of the train pairs followed by the test pairs that have an output. It is
	// empty for CategoryNone.
	Actions []string `json:"actions,omitempty"`
	// Note says why a task is "none" (e.g. "solvable with g = identity", or that the search cap was hit),
	// and is empty otherwise.
	Note string `json:"note,omitempty"`
}

// Annotate decides the geometric category of an ARC task by the following definition, in the setting of
// group-action learning (Section 2 of the paper: y = f(g·x, x), g = g(x) ∈ G).
//
// Canvas convention. Every grid (input and output) is placed at the top-left of a 30x30 canvas with the
// pad token (PadToken = 10) in all other cells (ToCanvas(grid, 30, 30)). Actions act on the whole canvas,
// i.e. as experts actions on the lattice dims {30, 30} (ApplyAction: lattice.Permutation where the action
// is a permutation, the first cell of each block for down-scaling, pad where nothing lands).
//
// Group-element sets. With T_δ the circular translation lattice.Translation{δ}, δ ∈ [0,30)^2:
//
//   - G_translate = { T_δ }.
//   - G_rotate    = { T_δ ∘ R^k : k ∈ {0,1,2,3} }, R = lattice.Rotation{0, 1, 1} (90° counter-clockwise).
//   - G_reflect   = { T_δ } ∪ { T_δ ∘ F : F ∈ {Reflection{0} (flip rows), Reflection{1} (flip columns),
//     DiagonalReflection{0,1} (transpose), DiagonalReflection{0,1,Anti} (anti-transpose)} }.
//   - G_scale     = { T_δ } ∪ { T_δ ∘ S : S scales axis 0 by h_r and axis 1 by h_c, h_r, h_c ∈ {1..5},
//     each axis up (lattice.Upscale) or down (lattice.Downscale), (h_r, h_c) ≠ (1, 1) }: 80 elements S,
//     mixed ones (up on one axis, down on the other) being Compose(Upscale, Downscale).
//
// The element B ≠ identity of T_δ ∘ B is the "non-translation" part; for G_translate, T_δ with δ ≠ 0 is
// non-trivial.
//
// Fitting. The pairs of a task are its train pairs and its test pairs that have an output. A task fits
// category c iff there exist an element g_i ∈ G_c for each pair i (the element may differ from pair to
// pair, as g = g(x) in the paper) and ONE per-cell function f: (token of g_i·x_i at the cell, token of
// x_i at the cell) -> output token, a lookup table over the 11x11 token pairs shared by all pairs of the
// task, such that the output canvas y_i equals f(g_i·x_i, x_i) at all 900 cells of every pair, pad cells
// included (so f also reproduces the pad region of the output, which encodes the output's size), and at
// least one g_i is non-trivial (a translation δ ≠ 0 for translate; a non-translation element — k ≠ 0, a
// reflection, a scaling ≠ (1,1) — for the other categories).
//
// Exclusion and precedence. A task that is solvable with g_i = identity for all pairs (f depends on x
// alone: a per-cell recoloring that keeps the size) needs no geometry and is "none" (Note says so).
// Otherwise the category is the first of Categories that the task fits (translate, then rotate, then
// reflect, then scale: the simplest group first), and "none" if it fits none.
//
// Search. For each pair and each candidate g ∈ G_c, the pair-local table of f is built by scanning the
// cells, with an early exit on the first conflict; candidates with equal tables are merged into one
// group. Candidates are ordered by base (the listed non-translation elements B in order, then the pure
// translations; for translate only the translations) and then by δ in row-major order (δ = 0 first).
// A candidate's agreement is the number of cells where the output equals g·x; a group is represented by
// its most agreeing candidate (ties: candidate order), and groups are tried most agreeing first (ties:
// candidate order). One group per pair is chosen by backtracking over the pairs (fewest groups first),
// merging tables, until all pairs agree and one chosen group holds a non-trivial element. The agreement
// order only decides which solution is reported, not whether one exists. Actions reports, per pair,
// the representative of the chosen group (for the first pair whose group holds a non-trivial element,
// the best non-trivial one, if no representative is non-trivial). The search is capped at 10^6 table
// merges per category; if the cap is hit, the task is "none" with a Note, without trying the later
// categories. Annotate is deterministic. Cells outside the pair's region (where x and y are both pad)
// are not scanned one by one: there the only constraint is f(a, pad) = pad for each token a that g·x
// has there, which follows from token counts.
func Annotate(task Task) Annotation {
	ann := Annotation{TaskID: task.ID, Category: CategoryNone}
	space := annotGetSpace()
	if space.err != nil {
		ann.Note = "internal error: " + space.err.Error()
		return ann
	}
	pairs, err := annotPairs(task)
	if err != nil {
		ann.Note = err.Error()
		return ann
	}
	if len(pairs) == 0 {
		ann.Note = "no pair with an output"
		return ann
	}

	// Exclusion: g = identity for all pairs.
	tables := make([]annotTable, len(pairs))
	identityOK := true
	for i, p := range pairs {
		if ok, _ := p.scan(&p.x, &p.xTotal, space.trans[0], &tables[i]); !ok {
			identityOK = false
			break
		}
	}
	if identityOK {
		cur := annotEmptyTable
		for i := range tables {
			if !annotMerge(&cur, &tables[i]) {
				identityOK = false
				break
			}
		}
	}
	if identityOK {
		ann.Note = "solvable with g = identity for all pairs (no geometry needed)"
		return ann
	}

	for _, cat := range Categories {
		actions, capped := annotSearchCategory(space, cat, pairs)
		if capped {
			ann.Note = fmt.Sprintf("search cap of %d table merges hit in category %q: undetermined", annotMaxMerges, cat)
			return ann
		}
		if actions != nil {
			ann.Category = cat
			ann.Actions = actions
			return ann
		}
	}
	ann.Note = "fits no geometric category"
	return ann
}

// annotPairs returns the train pairs and the test pairs with an output of a task on the canvas.
func annotPairs(task Task) ([]*annotPair, error) {
	var pairs []*annotPair
	for i, p := range task.Train {
		ap, err := newAnnotPair(p)
		if err != nil {
			return nil, fmt.Errorf("train pair %d: %w", i, err)
		}
		pairs = append(pairs, ap)
	}
	for i, p := range task.Test {
		if p.Output == nil {
			continue
		}
		ap, err := newAnnotPair(p)
		if err != nil {
			return nil, fmt.Errorf("test pair %d: %w", i, err)
		}
		pairs = append(pairs, ap)
	}
	return pairs, nil
}

// AnnotateAll annotates tasks with Annotate on the given number of goroutines (<= 0: GOMAXPROCS) and
// returns the annotations sorted by task id (ties in input order). The result does not depend on workers.
func AnnotateAll(tasks []Task, workers int) []Annotation {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	anns := make([]Annotation, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				anns[i] = Annotate(tasks[i])
			}
		}()
	}
	for i := range tasks {
		next <- i
	}
	close(next)
	wg.Wait()
	sort.SliceStable(anns, func(a, b int) bool { return anns[a].TaskID < anns[b].TaskID })
	return anns
}

// annotFileEntry is the value of one task id in an annotations file.
type annotFileEntry struct {
	Category Category `json:"category"`
	Actions  []string `json:"actions,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// SaveAnnotations writes anns to path as an indented JSON object from task id to {"category",
// "actions", "note"}, keys sorted (a stable, diff-friendly order). It returns an error for an empty or
// duplicate task id.
func SaveAnnotations(path string, anns []Annotation) error {
	m := make(map[string]annotFileEntry, len(anns))
	for _, a := range anns {
		if a.TaskID == "" {
			return fmt.Errorf("saving annotations to %s: annotation with an empty task id", path)
		}
		if _, dup := m[a.TaskID]; dup {
			return fmt.Errorf("saving annotations to %s: duplicate task id %q", path, a.TaskID)
		}
		m[a.TaskID] = annotFileEntry{Category: a.Category, Actions: a.Actions, Note: a.Note}
	}
	data, err := json.MarshalIndent(m, "", "  ") // Maps are encoded with sorted keys.
	if err != nil {
		return fmt.Errorf("saving annotations to %s: %w", path, err)
	}
	data = append(data, '\n')
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("saving annotations: %w", err)
	}
	return nil
}

// LoadAnnotations reads a file written by SaveAnnotations into a map from task id to annotation.
func LoadAnnotations(path string) (map[string]Annotation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading annotations: %w", err)
	}
	anns, err := parseAnnotations(data)
	if err != nil {
		return nil, fmt.Errorf("loading annotations from %s: %w", path, err)
	}
	return anns, nil
}

func parseAnnotations(data []byte) (map[string]Annotation, error) {
	var m map[string]annotFileEntry
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	valid := map[Category]bool{CategoryNone: true}
	for _, c := range Categories {
		valid[c] = true
	}
	anns := make(map[string]Annotation, len(m))
	for id, e := range m {
		if !valid[e.Category] {
			return nil, fmt.Errorf("task %q: unknown category %q", id, e.Category)
		}
		anns[id] = Annotation{TaskID: id, Category: e.Category, Actions: e.Actions, Note: e.Note}
	}
	return anns, nil
}

//go:embed annotations/arc_training.json
var annotDefaultJSON []byte

// DefaultAnnotations returns the annotations of the 400 ARC training tasks by Annotate, embedded from
// datasets/annotations/arc_training.json (generated by TestGenerateAnnotations with
// LATFORMER_WRITE_ANNOTATIONS=1; see datasets/annotations/README.md).
func DefaultAnnotations() (map[string]Annotation, error) {
	anns, err := parseAnnotations(annotDefaultJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded annotations/arc_training.json: %w", err)
	}
	return anns, nil
}

//go:embed annotations/arc_training_two_actions.json
var annotTwoActionsJSON []byte

// TwoActionAnnotations returns the annotations of the 400 ARC training tasks by AnnotateTwoActions
// (DefaultAnnotations' categories, plus the tasks that fit with two actions, Note "two actions"), embedded
// from datasets/annotations/arc_training_two_actions.json (TestGenerateTwoActionAnnotations).
func TwoActionAnnotations() (map[string]Annotation, error) {
	anns, err := parseAnnotations(annotTwoActionsJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded annotations/arc_training_two_actions.json: %w", err)
	}
	return anns, nil
}

// CategoryCounts counts the annotations per category (CategoryNone included).
func CategoryCounts(anns []Annotation) map[Category]int {
	counts := make(map[Category]int)
	for _, a := range anns {
		counts[a.Category]++
	}
	return counts
}

// ---------------------------------------------------------------------------------------------------
// Implementation.

const (
	annotSide      = MaxGridSide
	annotN         = annotSide * annotSide
	annotKeys      = NumTokens * NumTokens
	annotMaxMerges = 1_000_000
)

// annotTable is a lookup table f over the keys (token of g·x)*11 + (token of x); -1 is unset.
type annotTable [annotKeys]int8

var annotEmptyTable = func() annotTable {
	var t annotTable
	annotUnset(t[:])
	return t
}()

// annotUnset marks every key of a table unset (-1).
func annotUnset(t []int8) {
	for i := range t {
		t[i] = -1
	}
}

// annotMerge merges b into a; it returns false (leaving a partially merged) on a conflict.
func annotMerge(a, b *annotTable) bool { return annotMergeSlices(a[:], b[:]) }

// annotMergeSlices merges table b into table a of the same length (-1: unset); it returns false
// (leaving a partially merged) on a conflict.
func annotMergeSlices(a, b []int8) bool {
	for k, v := range b {
		if v < 0 {
			continue
		}
		if a[k] < 0 {
			a[k] = v
		} else if a[k] != v {
			return false
		}
	}
	return true
}

// annotBase is a non-translation element B of a category, with its gather index on the 30x30 canvas:
// (B·x)[i] = x[gather[i]], or pad where gather[i] < 0.
type annotBase struct {
	action lattice.Action
	gather []int32
}

type annotSpace struct {
	trans     [annotN][]int32 // trans[dr*30+dc][i]: the cell T_(dr,dc) moves onto i.
	transActs [annotN]lattice.Action
	bases     map[Category][]annotBase // non-translation elements per category (none for translate)
	err       error
}

var (
	annotSpaceOnce sync.Once
	annotSpaceVal  *annotSpace
)

func annotGetSpace() *annotSpace {
	annotSpaceOnce.Do(func() { annotSpaceVal = newAnnotSpace() })
	return annotSpaceVal
}

// annotGather returns the gather index of action on the 30x30 canvas, computed by ApplyAction on a canvas
// whose cell i holds the token i + NumTokens (so that pad, 10, marks cells where nothing lands).
func annotGather(action lattice.Action) ([]int32, error) {
	c := Canvas{Rows: annotSide, Cols: annotSide, Cells: make([]int32, annotN)}
	for i := range c.Cells {
		c.Cells[i] = int32(i + NumTokens)
	}
	out, err := ApplyAction(action, c)
	if err != nil {
		return nil, err
	}
	g := make([]int32, annotN)
	for i, v := range out.Cells {
		if v == PadToken {
			g[i] = -1
		} else {
			g[i] = v - NumTokens
		}
	}
	return g, nil
}

// annotScaleActions returns the 80 scalings of G_scale: per axis, up by 1..5 or down by 2..5, not both
// identity; all-up first, then all-down, then mixed, each in lexicographic order of the factors.
func annotScaleActions() []lattice.Action {
	var ups, downs, mixed []lattice.Action
	for hr := 1; hr <= 5; hr++ {
		for hc := 1; hc <= 5; hc++ {
			if hr == 1 && hc == 1 {
				continue
			}
			ups = append(ups, lattice.Upscale{Factors: []int{hr, hc}})
			downs = append(downs, lattice.Downscale{Factors: []int{hr, hc}})
		}
	}
	for hr := 2; hr <= 5; hr++ {
		for hc := 2; hc <= 5; hc++ {
			mixed = append(mixed,
				lattice.Compose(lattice.Upscale{Factors: []int{hr, 1}}, lattice.Downscale{Factors: []int{1, hc}}),
				lattice.Compose(lattice.Downscale{Factors: []int{hr, 1}}, lattice.Upscale{Factors: []int{1, hc}}))
		}
	}
	return append(append(ups, downs...), mixed...)
}

func newAnnotSpace() *annotSpace {
	s := &annotSpace{bases: map[Category][]annotBase{}}
	var rows, cols [annotSide][]int32
	for d := range annotSide {
		var err error
		if rows[d], err = annotGather(lattice.Translation{Deltas: []int{d, 0}}); err != nil {
			s.err = err
			return s
		}
		if cols[d], err = annotGather(lattice.Translation{Deltas: []int{0, d}}); err != nil {
			s.err = err
			return s
		}
	}
	// T_(dr,dc) = T_(dr,0) ∘ T_(0,dc): output i reads cell rows[dr][i] of T_(0,dc)·x, which reads
	// cols[dc][rows[dr][i]] of x.
	for dr := range annotSide {
		for dc := range annotSide {
			t := make([]int32, annotN)
			for i := range t {
				t[i] = cols[dc][rows[dr][i]]
			}
			s.trans[dr*annotSide+dc] = t
			s.transActs[dr*annotSide+dc] = lattice.Translation{Deltas: []int{dr, dc}}
		}
	}
	add := func(cat Category, actions ...lattice.Action) {
		for _, a := range actions {
			g, err := annotGather(a)
			if err != nil && s.err == nil {
				s.err = err
			}
			s.bases[cat] = append(s.bases[cat], annotBase{action: a, gather: g})
		}
	}
	add(CategoryRotate, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 1}, lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 2},
		lattice.Rotation{AxisA: 0, AxisB: 1, Quarter: 3})
	add(CategoryReflect, lattice.Reflection{Axis: 0}, lattice.Reflection{Axis: 1},
		lattice.DiagonalReflection{AxisA: 0, AxisB: 1}, lattice.DiagonalReflection{AxisA: 0, AxisB: 1, Anti: true})
	add(CategoryScale, annotScaleActions()...)
	return s
}

// annotPair is one pair on the canvas: x and the output y, the region of cells where x or y is not pad
// (row-major) and the token counts of x.
type annotPair struct {
	x      [annotN]int32
	out    [annotN]int8
	region []int32
	xTotal [NumTokens]int32

	transCands []annotCand // translation-only candidates (base -1), computed once.
	transDone  bool
	transTabs  []annotTable
}

func newAnnotPair(p Pair) (*annotPair, error) {
	x, err := ToCanvas(p.Input, annotSide, annotSide)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	y, err := ToCanvas(p.Output, annotSide, annotSide)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	ap := &annotPair{}
	for i := range annotN {
		ap.x[i] = x.Cells[i]
		ap.out[i] = int8(y.Cells[i])
		ap.xTotal[x.Cells[i]]++
		if x.Cells[i] != PadToken || y.Cells[i] != PadToken {
			ap.region = append(ap.region, int32(i))
		}
	}
	return ap, nil
}

// scan builds into t the pair-local table of f for g = T ∘ B, where bx = B·x and total its token counts,
// and tp the gather index of T. It returns false on the first conflict. Outside the region x and y are
// both pad, so there the only constraint is f(a, pad) = pad for every token a of g·x there; its
// occurrences are the total minus those met in the region. It also returns the agreement of g: the
// number of the 900 cells where the output equals g·x.
func (p *annotPair) scan(bx *[annotN]int32, total *[NumTokens]int32, tp []int32, t *annotTable) (bool, int) {
	*t = annotEmptyTable
	var cnt [NumTokens]int32
	agree := 0
	tp = tp[:annotN]
	for _, c := range p.region {
		g := bx[tp[c]]
		cnt[g]++
		k := g*NumTokens + p.x[c]
		o := p.out[c]
		if int32(o) == g {
			agree++
		}
		if v := t[k]; v < 0 {
			t[k] = o
		} else if v != o {
			return false, 0
		}
	}
	for a := range NumTokens {
		if total[a] > cnt[a] {
			k := a*NumTokens + PadToken
			if v := t[k]; v < 0 {
				t[k] = PadToken
			} else if v != PadToken {
				return false, 0
			}
		}
	}
	return true, agree + int(total[PadToken]-cnt[PadToken])
}

// annotCand is a candidate g = T_delta ∘ bases[base] (base -1: identity), with its agreement (cells
// where the output equals g·x).
type annotCand struct {
	base  int16
	delta int16
	agree int16
}

func (s *annotSpace) candAction(cat Category, c annotCand) lattice.Action {
	t := s.transActs[c.delta]
	if c.base < 0 {
		if c.delta == 0 {
			return lattice.IdentityAction{}
		}
		return t
	}
	b := s.bases[cat][c.base].action
	if c.delta == 0 {
		return b
	}
	return lattice.Compose(t, b)
}

// candidates returns the candidates of the base (gather nil: identity) that have a pair-local table.
func (p *annotPair) candidates(s *annotSpace, base int16, gather []int32) ([]annotCand, []annotTable) {
	bx, total := &p.x, &p.xTotal
	if gather != nil {
		var b [annotN]int32
		var tot [NumTokens]int32
		for i, src := range gather {
			if src < 0 {
				b[i] = PadToken
			} else {
				b[i] = p.x[src]
			}
			tot[b[i]]++
		}
		bx, total = &b, &tot
	}
	var cands []annotCand
	var tabs []annotTable
	var t annotTable
	for d := range annotN {
		if ok, agree := p.scan(bx, total, s.trans[d], &t); ok {
			cands = append(cands, annotCand{base: base, delta: int16(d), agree: int16(agree)})
			tabs = append(tabs, t)
		}
	}
	return cands, tabs
}

// annotGroup is a distinct pair-local table with its best candidate and best non-trivial candidate
// (highest agreement, then candidate order).
type annotGroup struct {
	table         annotTable
	first         annotCand
	nontrivial    annotCand
	hasNontrivial bool
}

func annotNontrivial(cat Category, c annotCand) bool {
	if cat == CategoryTranslate {
		return c.base < 0 && c.delta != 0
	}
	return c.base >= 0
}

// groups returns the distinct pair-local tables of the candidates of category cat for pair p.
func (p *annotPair) groups(s *annotSpace, cat Category) []annotGroup {
	if !p.transDone {
		p.transCands, p.transTabs = p.candidates(s, -1, nil)
		p.transDone = true
	}
	var groups []annotGroup
	index := map[annotTable]int{}
	addAll := func(cands []annotCand, tabs []annotTable) {
		for i, c := range cands {
			nt := annotNontrivial(cat, c)
			gi, ok := index[tabs[i]]
			if !ok {
				gi = len(groups)
				index[tabs[i]] = gi
				groups = append(groups, annotGroup{table: tabs[i], first: c})
			} else if c.agree > groups[gi].first.agree {
				groups[gi].first = c
			}
			if nt && (!groups[gi].hasNontrivial || c.agree > groups[gi].nontrivial.agree) {
				groups[gi].hasNontrivial = true
				groups[gi].nontrivial = c
			}
		}
	}
	for bi, b := range s.bases[cat] {
		addAll(p.candidates(s, int16(bi), b.gather))
	}
	addAll(p.transCands, p.transTabs)
	// Most agreeing groups first (stable: candidate order breaks ties).
	sort.SliceStable(groups, func(a, b int) bool { return groups[a].first.agree > groups[b].first.agree })
	return groups
}

// annotSearchCategory returns the actions of a solution of category cat (nil if none), and whether the
// merge cap was hit.
func annotSearchCategory(s *annotSpace, cat Category, pairs []*annotPair) ([]string, bool) {
	groups := make([][]annotGroup, len(pairs))
	for i, p := range pairs {
		groups[i] = p.groups(s, cat)
		if len(groups[i]) == 0 {
			return nil, false
		}
	}
	order := make([]int, len(pairs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(groups[order[a]]) < len(groups[order[b]]) })
	// nontrivialAfter[k]: some pair order[k:] has a group with a non-trivial candidate.
	nontrivialAfter := make([]bool, len(order)+1)
	for k := len(order) - 1; k >= 0; k-- {
		nontrivialAfter[k] = nontrivialAfter[k+1]
		for _, g := range groups[order[k]] {
			if g.hasNontrivial {
				nontrivialAfter[k] = true
				break
			}
		}
	}
	choice := make([]int, len(pairs))
	merges := 0
	capped := false
	var rec func(k int, cur annotTable, nt bool) bool
	rec = func(k int, cur annotTable, nt bool) bool {
		if k == len(order) {
			return nt
		}
		if !nt && !nontrivialAfter[k] {
			return false
		}
		p := order[k]
		for gi := range groups[p] {
			g := &groups[p][gi]
			merges++
			if merges > annotMaxMerges {
				capped = true
				return false
			}
			next := cur
			if !annotMerge(&next, &g.table) {
				continue
			}
			choice[p] = gi
			if rec(k+1, next, nt || g.hasNontrivial) {
				return true
			}
			if capped {
				return false
			}
		}
		return false
	}
	if !rec(0, annotEmptyTable, false) {
		return nil, capped
	}
	cands := make([]annotCand, len(pairs))
	anyNontrivial := false
	for i := range pairs {
		cands[i] = groups[i][choice[i]].first
		anyNontrivial = anyNontrivial || annotNontrivial(cat, cands[i])
	}
	if !anyNontrivial {
		for i := range pairs {
			if g := &groups[i][choice[i]]; g.hasNontrivial {
				cands[i] = g.nontrivial
				break
			}
		}
	}
	actions := make([]string, len(pairs))
	for i, c := range cands {
		actions[i] = s.candAction(cat, c).String()
	}
	return actions, false
}
