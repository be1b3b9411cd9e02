// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package lattice

import "fmt"

// ExampleTranslation shows the circulant mask M_T^(1) of Section 3.2: output cell i reads input cell
// i-1 (mod 5), so the masked attention shifts a sequence one cell to the right.
func ExampleTranslation() {
	m, err := Translation{Deltas: []int{1}}.Mask([]int{5})
	if err != nil {
		panic(err)
	}
	fmt.Print(m.ASCII())
	y, _ := Translation{Deltas: []int{1}}.Apply([]int{5}, []float64{10, 11, 12, 13, 14}, 1)
	fmt.Println(y)
	// Output:
	// ....#
	// #....
	// .#...
	// ..#..
	// ...#.
	// [14 10 11 12 13]
}

// ExampleMaskFromFourierShift builds the reflection mask of a 4-cell lattice from its Fourier shift
// (Theorem 2, Table 1: o_1 = n-1, o_k = o_{k-1} - 2): row k of the identity is shifted by o_k.
func ExampleMaskFromFourierShift() {
	o, err := FourierShift(ShiftReflection, 4, 0)
	if err != nil {
		panic(err)
	}
	m, err := MaskFromFourierShift(o)
	if err != nil {
		panic(err)
	}
	fmt.Println("o =", o)
	fmt.Print(m.ASCII())
	fmt.Println("equals ReflectionMask1D(4):", m.Equal(ReflectionMask1D(4), 1e-9))
	// Output:
	// o = [3 1 -1 -3]
	// ...#
	// ..#.
	// .#..
	// #...
	// equals ReflectionMask1D(4): true
}
