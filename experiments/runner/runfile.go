// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/latformer/latformer/internal/atomicfile"
	"github.com/latformer/latformer/internal/runmeta"
)

// Sharding asks Run to run one shard of a run and to describe it beside its results file (the run
// file, RunFilePath), so that `latformer merge` can check and join the shards.
type Sharding struct {
	Shard Shard
	Meta  runmeta.Meta
}

// RunFilePath is the run file beside the results file out: JSON lines, first the run (RunHeader), then
// the key of every row of out in the order of its rows.
func RunFilePath(out string) string { return out + ".run.jsonl" }

// RunUnit is a unit of a run and the shard it belongs to.
type RunUnit struct {
	Key   string `json:"key"`
	Shard int    `json:"shard"`
}

// RunHeader is the first line of a run file: the run, the shard the file holds and every unit of the
// run (all shards), in the run's order.
type RunHeader struct {
	runmeta.Meta
	Shard string    `json:"shard"` // Shard.String
	Units []RunUnit `json:"units"`
}

// runFile is a run file: its header, and the keys of the rows of its results file in order. A key may
// be written before its row: a run killed between the two leaves one key more than rows.
type runFile struct {
	RunHeader
	keys []string
}

// readRunFile reads the run file beside the results file out.
func readRunFile(out string) (runFile, error) {
	var rf runFile
	path := RunFilePath(out)
	data, err := os.ReadFile(path)
	if err != nil {
		return rf, err
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, line := range lines {
		if i == 0 {
			err = json.Unmarshal(line, &rf.RunHeader)
		} else {
			var k string
			if err = json.Unmarshal(line, &k); err != nil && i == len(lines)-1 {
				break // a cut last line: its row was not written either
			}
			rf.keys = append(rf.keys, k)
		}
		if err != nil {
			return rf, fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
	}
	if rf.Shard == "" {
		return rf, fmt.Errorf("%s: no run header", path)
	}
	return rf, nil
}

// writeRunFile replaces the run file beside out with h and the keys of the rows already in out.
func writeRunFile(out string, h RunHeader, keys []string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, k := range keys {
		if err := enc.Encode(k); err != nil {
			return err
		}
	}
	return atomicfile.Write(RunFilePath(out), buf.Bytes(), nil)
}

// appendKey appends one row's key to an open run file and syncs it, before the row itself is written.
func appendKey(f *os.File, key string) error {
	b, err := json.Marshal(key)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Sync()
}

// checkRunFile returns an error if the run file beside out (when there is one) is of another run or
// shard than h: a resumed shard must not mix rows of two runs.
func checkRunFile(out string, h RunHeader) error {
	rf, err := readRunFile(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if d := rf.Meta.Diff(h.Meta); d != "" {
		return fmt.Errorf("%s was written by another run (%s): write another file, or --force", out, d)
	}
	if rf.Shard != h.Shard {
		return fmt.Errorf("%s holds shard %s, this is shard %s: write another file, or --force", out, rf.Shard, h.Shard)
	}
	return nil
}
