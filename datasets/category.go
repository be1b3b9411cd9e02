// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

// Category is the geometric prior an ARC task needs: a column of the paper's Table 2, or none. It is the
// label that the annotation (package datasets/annotate) gives a task and that results rows, LARC
// selections and a person's labels carry:
//
//	CategoryTranslate "translate": Translate
//	CategoryRotate    "rotate":    Rotate + Translate
//	CategoryReflect   "reflect":   Reflect + Translate
//	CategoryScale     "scale":     Scale + Translate
//	CategoryNone      "none":      none of them (not evaluated in Table 2)
type Category string

// The categories (see Category for the mapping to the paper's Table 2).
const (
	CategoryTranslate Category = "translate"
	CategoryRotate    Category = "rotate"
	CategoryReflect   Category = "reflect"
	CategoryScale     Category = "scale"
	CategoryNone      Category = "none"
)

// Categories lists the geometric categories in order of precedence (the simplest group first): the
// annotation gives a task the first of them that fits it.
var Categories = []Category{CategoryTranslate, CategoryRotate, CategoryReflect, CategoryScale}
