// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"

	"github.com/latformer/latformer/backend"
)

// Example_trainSteps runs the README's model for five Adam steps on the default backend: the loss goes down.
func Example_trainSteps() {
	b, err := backend.New()
	if err != nil {
		panic(err)
	}
	losses, err := trainSteps(b, 5)
	if err != nil {
		panic(err)
	}
	fmt.Printf("5 steps, loss decreased: %v\n", losses[4] < losses[0])
	// Output: 5 steps, loss decreased: true
}
