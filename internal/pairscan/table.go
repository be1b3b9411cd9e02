// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package pairscan

// The lookup tables of f with one or two actions, and their merge.

import "github.com/latformer/latformer/datasets"

// Keys1 and Keys2 are the numbers of keys of a table with one and with two actions.
const (
	Keys1 = datasets.NumTokens * datasets.NumTokens // keys of f(g·x, x)
	Keys2 = Keys1 * datasets.NumTokens              // keys of f(g₁·x, g₂·x, x)
)

// Table1 is f of one action over the keys (token of g·x)·11 + (token of x); -1 is unset.
type Table1 [Keys1]int8

// Table2 is f of two actions over the keys ((token of g₁·x)·11 + token of g₂·x)·11 + token of x.
type Table2 [Keys2]int8

// Table is a lookup table of f with one or two actions.
type Table interface{ Table1 | Table2 }

// EmptyTable returns a table with every key unset.
func EmptyTable[T Table]() T {
	var t T
	for k := range len(t) {
		t[k] = -1
	}
	return t
}

// EmptyTable1 and EmptyTable2 are the tables with every key unset.
var (
	EmptyTable1 = EmptyTable[Table1]()
	EmptyTable2 = EmptyTable[Table2]()
)

// Merge merges table b into table a; it returns false (leaving a partially merged) on a conflict.
func Merge[T Table](a, b *T) bool {
	for k := range len(*b) {
		v := (*b)[k]
		if v < 0 {
			continue
		}
		if w := (*a)[k]; w < 0 {
			(*a)[k] = v
		} else if w != v {
			return false
		}
	}
	return true
}
