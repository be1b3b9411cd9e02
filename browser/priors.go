// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"fmt"
	"sort"
	"strings"

	"github.com/latformer/latformer/datasets"
)

// Prior is one of the core knowledge priors a person can say a task needs.
type Prior struct {
	// Key is the stable name stored in the labels file, e.g. "reflection".
	Key string
	// Group is the family of priors of Chollet (2019): objectness, goal-directedness, numbers and
	// counting, basic geometry and topology.
	Group string
	// Name is the label shown on the page; Help a short description.
	Name, Help string
	// Category is the column of the paper's Table 2 this prior stands for (translate, rotate, reflect,
	// scale), or "" for the priors the lattice experts do not cover.
	Category datasets.Category
}

// Priors are the label choices: the core knowledge priors of ARC as listed by Chollet (2019, "On the
// Measure of Intelligence", Section III.1.2), the list the paper annotated ARC with ("we annotated the ARC
// tasks based on the knowledge priors they require, using the list of priors provided by Chollet (2019)
// as a reference", Section 5.2; the interface and the distribution of the priors are Figure 7, Appendix
// B.3). Chollet's geometry bullet "symmetries, rotations, translations" and "shape upscaling or
// downscaling, elastic distortions" are split here into one prior per lattice transformation, so that a
// label maps onto the four columns of Table 2 (PersonCategory); the other bullets are kept as Chollet
// wrote them. The order is the order of the page and of a label's Priors.
var Priors = []Prior{
	{"object-cohesion", groupObjectness, "Object cohesion",
		"parse the grid into objects by color continuity or spatial contiguity; zones, partitions", ""},
	{"object-persistence", groupObjectness, "Object persistence",
		"objects persist despite noise or occlusion by other objects", ""},
	{"object-contact", groupObjectness, "Object influence via contact",
		"objects move until they touch another, lines grow and rebound", ""},
	{"goal-directedness", groupGoal, "Goal-directedness",
		"a process from a start state to an end state, e.g. a path toward a target", ""},
	{"counting", groupNumbers, "Counting, sorting, comparing",
		"count or sort objects, the most or least frequent, the largest or smallest, repeat a pattern N times", ""},
	{"arithmetic", groupNumbers, "Addition and subtraction", "small numbers added or subtracted", ""},
	{"lines-shapes", groupGeometry, "Lines, rectangular shapes", "regular shapes more likely than complex ones", ""},
	{"translation", groupGeometry, "Translation", "move the grid or an object (Table 2: Translate)",
		datasets.CategoryTranslate},
	{"rotation", groupGeometry, "Rotation", "rotate by 90°, 180°, 270° (Table 2: Rotate + Translate)",
		datasets.CategoryRotate},
	{"reflection", groupGeometry, "Symmetry, reflection",
		"flip, transpose, symmetrize a picture (Table 2: Reflect + Translate)", datasets.CategoryReflect},
	{"scaling", groupGeometry, "Upscaling, downscaling",
		"scale a shape or the grid by an integer factor (Table 2: Scale + Translate)", datasets.CategoryScale},
	{"elastic-distortion", groupGeometry, "Elastic distortion", "stretch or bend a shape", ""},
	{"containment", groupGeometry, "Containing, inside, outside",
		"being contained, inside or outside of a perimeter", ""},
	{"drawing-lines", groupGeometry, "Drawing lines, projections",
		"draw lines, connect points, orthogonal projections", ""},
	{"copying", groupGeometry, "Copying, repeating objects", "copy or repeat an object", ""},
}

// The groups of Priors (Chollet 2019, Section III.1.2).
const (
	groupObjectness = "Objectness"
	groupGoal       = "Goal-directedness"
	groupNumbers    = "Numbers and counting"
	groupGeometry   = "Basic geometry and topology"
)

// PriorByKey returns the prior with the given key.
func PriorByKey(key string) (Prior, bool) {
	for _, p := range Priors {
		if p.Key == key {
			return p, true
		}
	}
	return Prior{}, false
}

// NormalizePriors checks that every key is one of Priors and returns them without duplicates, in the
// order of Priors. The error names the unknown key and lists the valid ones.
func NormalizePriors(keys []string) ([]string, error) {
	seen := map[string]bool{}
	for _, k := range keys {
		if _, ok := PriorByKey(k); !ok {
			valid := make([]string, len(Priors))
			for i, p := range Priors {
				valid[i] = p.Key
			}
			return nil, fmt.Errorf("unknown prior %q (valid: %s)", k, strings.Join(valid, ", "))
		}
		seen[k] = true
	}
	out := []string{}
	for _, p := range Priors {
		if seen[p.Key] {
			out = append(out, p.Key)
		}
	}
	return out, nil
}

// PersonCategory maps the priors of a label onto the categories of the definition (datasets.Category),
// the way the paper selected its ARC subset ("the tasks that require only knowledge priors corresponding
// to the basic geometrical transformations", Section 5.2): a task whose priors are translation alone is
// "translate"; translation or not plus exactly one of rotation, reflection, scaling is that category
// (Table 2's columns are "Rotate + Translate", ...); anything else is "none", and why says why (another
// prior, no geometric prior, or two transformations, which have no column in Table 2). priors must be
// valid keys (NormalizePriors).
func PersonCategory(priors []string) (cat datasets.Category, why string) {
	var transforms, others []string
	translate := false
	for _, k := range priors {
		p, _ := PriorByKey(k)
		switch p.Category {
		case "":
			others = append(others, p.Name)
		case datasets.CategoryTranslate:
			translate = true
		default:
			transforms = append(transforms, string(p.Category))
		}
	}
	switch {
	case len(priors) == 0:
		return datasets.CategoryNone, "no prior marked"
	case len(others) > 0:
		return datasets.CategoryNone, "needs more than lattice transformations: " + strings.Join(others, ", ")
	case len(transforms) == 0 && translate:
		return datasets.CategoryTranslate, ""
	case len(transforms) == 1:
		return datasets.Category(transforms[0]), ""
	}
	sort.Strings(transforms)
	return datasets.CategoryNone,
		"two transformations (" + strings.Join(transforms, " and ") + "): no column of Table 2"
}
