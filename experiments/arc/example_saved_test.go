// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package arc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend
	"github.com/latformer/latformer/arcsolver"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/arc"
)

// ExampleSolver_Save solves a task of a user's file (a tiny synthetic shift), saves the fitted solution
// with GoMLX's checkpoint package, loads it and predicts again without training: the same predictions.
func ExampleSolver_Save() {
	backend, _ := compute.NewWithConfig("go:ops_sequential")
	tasks, err := datasets.LoadTaskFiles([]string{"../../datasets/testdata/arcprize/task_shift.json"})
	if err != nil {
		panic(err)
	}
	task := tasks[0]
	settings, _ := arcsolver.ParseSettings("train_steps=100;augment_copies=2")
	solver, err := arc.NewSolver(backend, arc.Options{Settings: settings})
	if err != nil {
		panic(err)
	}
	solved, err := solver.Solve(task, nil, nil)
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "saved-")
	defer os.RemoveAll(dir)
	if err := solver.Save(filepath.Join(dir, task.ID)); err != nil { // the fitted learner, before the next Solve
		panic(err)
	}
	solver.Close()

	saved, err := arc.LoadSolution(backend, filepath.Join(dir, task.ID))
	if err != nil {
		panic(err)
	}
	defer saved.Close()
	again, err := saved.Solve(task) // nothing trained
	if err != nil {
		panic(err)
	}
	fmt.Println("solved:", solved.Solved, "element:", solved.Action, "by the", solved.Source)
	fmt.Println("loaded, the same predictions:", reflect.DeepEqual(solved.Predictions, again.Predictions))
	// Output:
	// solved: true element: translate(0,1) by the network
	// loaded, the same predictions: true
}
