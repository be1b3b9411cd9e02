// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"encoding/json"
	"testing"
)

// FuzzParseTask checks that ParseTask never panics and that any task it returns has train pairs, valid
// grids everywhere (test outputs may be nil), the given id, and survives a JSON round trip unchanged.
func FuzzParseTask(f *testing.F) {
	for _, seed := range []string{
		arcTestValidTask,
		`{"train": [{"input": [[1]], "output": [[2]]}], "test": [{"input": [[3]]}]}`,
		`{"train": [{"input": [[1]], "output": [[2]]}], "test": [{"input": [[3]], "output": null}]}`,
		`{"name": "x", "train": [{"input": [[2.0, 1e0]], "output": [[2]]}], "test": []}`,
		`{"train": [`,
		`hello`,
		``,
		`null`,
		`[1, 2]`,
		`{"test": [{"input": [[1]]}]}`,
		`{"train": [], "test": []}`,
		`{"train": null, "test": null}`,
		`{"train": [{"output": [[1]]}], "test": []}`,
		`{"train": [{"input": [[1]]}], "test": []}`,
		arcTestTaskJSON(`[[1, 2], [3]]`),
		arcTestTaskJSON(`[[1, 10]]`),
		arcTestTaskJSON(`[[-1]]`),
		arcTestTaskJSON(`[[1.5]]`),
		arcTestTaskJSON(`[["1"]]`),
		arcTestTaskJSON(`[[1e400]]`),
		arcTestTaskJSON(`[]`),
		arcTestTaskJSON(`[[]]`),
		arcTestTaskJSON(arcTestGridJSON(31, 2)),
		arcTestTaskJSON(arcTestGridJSON(30, 30)),
	} {
		f.Add(seed)
	}
	type jsonPair struct {
		Input  Grid `json:"input"`
		Output Grid `json:"output,omitempty"`
	}
	type jsonTask struct {
		Train []jsonPair `json:"train"`
		Test  []jsonPair `json:"test"`
	}
	toJSON := func(pairs []Pair) []jsonPair {
		out := make([]jsonPair, len(pairs))
		for i, p := range pairs {
			out[i] = jsonPair{p.Input, p.Output}
		}
		return out
	}
	f.Fuzz(func(t *testing.T, data string) {
		task, err := ParseTask("fuzz", []byte(data))
		if err != nil {
			return
		}
		if task.ID != "fuzz" || len(task.Train) == 0 {
			t.Fatalf("id %q, %d train pairs: want fuzz and at least one", task.ID, len(task.Train))
		}
		for i, p := range task.Train {
			if err := p.Input.Validate(); err != nil {
				t.Fatalf("train pair %d input: %v", i, err)
			}
			if err := p.Output.Validate(); err != nil {
				t.Fatalf("train pair %d output: %v", i, err)
			}
		}
		for i, p := range task.Test {
			if err := p.Input.Validate(); err != nil {
				t.Fatalf("test pair %d input: %v", i, err)
			}
			if p.Output != nil {
				if err := p.Output.Validate(); err != nil {
					t.Fatalf("test pair %d output: %v", i, err)
				}
			}
		}
		encoded, err := json.Marshal(jsonTask{toJSON(task.Train), toJSON(task.Test)})
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseTask("fuzz", encoded)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", encoded, err)
		}
		if len(again.Train) != len(task.Train) || len(again.Test) != len(task.Test) {
			t.Fatalf("round trip changed the pair counts")
		}
		for i := range task.Train {
			if !again.Train[i].Input.Equal(task.Train[i].Input) || !again.Train[i].Output.Equal(task.Train[i].Output) {
				t.Fatalf("round trip changed train pair %d", i)
			}
		}
		for i := range task.Test {
			if !again.Test[i].Input.Equal(task.Test[i].Input) || !again.Test[i].Output.Equal(task.Test[i].Output) ||
				(again.Test[i].Output == nil) != (task.Test[i].Output == nil) {
				t.Fatalf("round trip changed test pair %d", i)
			}
		}
	})
}
