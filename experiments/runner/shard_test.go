// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/latformer/latformer/internal/runmeta"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"0/3": {0, 3}, "2/3": {2, 3}, " 0 / 1 ": {0, 1}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"3/3", "-1/3", "1/0", "1", "a/b", ""} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) accepted", in)
		}
	}
}

// testUnits are 200 keys with costs spread over 6 factors of two.
func testUnits() ([]string, []float64) {
	keys := make([]string, 200)
	costs := make([]float64, 200)
	for i := range keys {
		keys[i] = fmt.Sprintf("task%03d", i)
		costs[i] = math.Pow(2, float64(i%6)) * (1 + float64(i%7)/10)
	}
	return keys, costs
}

// TestPartitionStable: the shard of a unit depends on the set of units, not their order; without costs
// adding a unit moves no other; with costs it moves only units of its own cost class.
func TestPartitionStable(t *testing.T) {
	keys, costs := testUnits()
	for _, n := range []int{2, 3, 8} {
		for _, c := range [][]float64{nil, costs} {
			base := Partition(keys, c, n)
			// Reversed order: the same shard per key.
			rk, rc := slices.Clone(keys), slices.Clone(c)
			slices.Reverse(rk)
			slices.Reverse(rc)
			rev := Partition(rk, rc, n)
			for i := range keys {
				if rev[len(keys)-1-i] != base[i] {
					t.Fatalf("n=%d costs=%v: unit %s in shard %d, reversed order %d", n, c != nil, keys[i], base[i], rev[len(keys)-1-i])
				}
			}
			// One unit more, in the class of cost 4.
			k2, c2 := append(slices.Clone(keys), "extra"), c
			if c != nil {
				c2 = append(slices.Clone(c), 4.5)
			}
			more := Partition(k2, c2, n)
			for i := range keys {
				if more[i] == base[i] {
					continue
				}
				if c == nil || costClass(c[i]) != costClass(4.5) {
					t.Errorf("n=%d costs=%v: adding a unit moved %s (cost %v) from shard %d to %d", n, c != nil, keys[i], costs[i], base[i], more[i])
				}
			}
		}
	}
}

// TestPartitionBalance: with costs every shard gets ⌊k/n⌋ or ⌈k/n⌉ units of each cost class, so its
// cost is within one unit per class of the mean.
func TestPartitionBalance(t *testing.T) {
	keys, costs := testUnits()
	for _, n := range []int{2, 3, 8} {
		shard := Partition(keys, costs, n)
		count := map[[2]int]int{} // (class, shard) -> units
		classSize := map[int]int{}
		for i, s := range shard {
			if s < 0 || s >= n {
				t.Fatalf("shard %d out of [0,%d)", s, n)
			}
			count[[2]int{costClass(costs[i]), s}]++
			classSize[costClass(costs[i])]++
		}
		for c, k := range classSize {
			for s := range n {
				if got := count[[2]int{c, s}]; got != k/n && got != (k+n-1)/n {
					t.Errorf("n=%d: shard %d has %d of the %d units of class %d, want %d or %d", n, s, got, k, c, k/n, (k+n-1)/n)
				}
			}
		}
	}
}

var testMeta = runmeta.Meta{Command: "test", Settings: []string{"steps=3"}, Code: "code-a", Data: "data-a"}

// runShards runs units 0..n-1 as `shards` shards into dir/s<i>.csv and returns the paths.
func runShards(t *testing.T, dir string, n, shards int, meta runmeta.Meta) []string {
	t.Helper()
	var paths []string
	for i := range shards {
		h := newHarness(t)
		h.out = filepath.Join(dir, fmt.Sprintf("s%d.csv", i))
		s := h.spec(n, 1)
		s.Cost = func(u int) float64 { return float64(1 + u%5) }
		s.Sharding = &Sharding{Shard{i, shards}, meta}
		if _, err := Run(s); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, h.out)
	}
	return paths
}

// sortedRows is the rows of a results CSV (header aside), sorted.
func sortedRows(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	slices.Sort(lines)
	return lines
}

// TestShardsMerge: 3 shards of 30 units each run their own units only and merge into the rows of the
// unsharded run; the merged file can be resumed as shard 0/1 with nothing left to run.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t)
	if _, err := Run(h.spec(30, 2)); err != nil {
		t.Fatal(err)
	}
	paths := runShards(t, dir, 30, 3, testMeta)
	total := 0
	for _, p := range paths {
		n := len(sortedRows(t, p))
		if n == 0 || n == 30 {
			t.Errorf("%s has %d of the 30 rows", p, n)
		}
		total += n
	}
	if total != 30 {
		t.Errorf("the shards have %d rows in all, want 30", total)
	}
	out := filepath.Join(dir, "merged.csv")
	m, err := Merge(out, paths, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 30 || m.Duplicates != 0 || len(m.Missing) != 0 {
		t.Errorf("merge: %+v", m)
	}
	if got, want := sortedRows(t, out), sortedRows(t, h.out); !slices.Equal(got, want) {
		t.Errorf("merged rows %v, unsharded %v", got, want)
	}
	// The merged file resumes as one shard: nothing to run.
	h2 := newHarness(t)
	h2.out = out
	s := h2.spec(30, 1)
	s.Resume, s.Sharding = true, &Sharding{Shard{0, 1}, testMeta}
	s.Cost = func(u int) float64 { return float64(1 + u%5) }
	if _, err := Run(s); err != nil || len(h2.ran) != 0 {
		t.Errorf("resuming the merged file ran %v (err %v), want nothing", h2.ran, err)
	}
}

// TestMergeErrors: a shard of another run, a unit with two different results, missing units and an
// existing output; on each error the output file is left as it was.
func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	paths := runShards(t, dir, 12, 3, testMeta)
	out := filepath.Join(dir, "merged.csv")
	const before = "unchanged\n"
	if err := os.WriteFile(out, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	other := testMeta
	other.Code = "code-b"
	otherDir := filepath.Join(dir, "other")
	otherPaths := runShards(t, otherDir, 12, 3, other)
	settingsPaths := runShards(t, filepath.Join(dir, "settings"), 12, 3, runmeta.Meta{Command: "test", Settings: []string{"steps=4"}, Code: "code-a", Data: "data-a"})
	fourPaths := runShards(t, filepath.Join(dir, "four"), 12, 4, testMeta)

	// A conflicting row: shard 1's first row copied into shard 0 with another value.
	conflict := filepath.Join(dir, "conflict.csv")
	rows1 := sortedRows(t, paths[1])
	key, _, _ := strings.Cut(rows1[0], ",")
	copyShard(t, paths[0], conflict, key+",999")

	cases := []struct {
		name  string
		ins   []string
		force bool
		want  []string // in the error
	}{
		{"existing output", paths, false, []string{out, "already exists"}},
		{"other code", []string{paths[0], otherPaths[1], paths[2]}, true, []string{paths[0], otherPaths[1], "code version code-a vs code-b"}},
		{"other settings", []string{paths[0], settingsPaths[1]}, true, []string{"settings", "steps=3", "steps=4"}},
		{"other shard count", []string{paths[0], fourPaths[1]}, true, []string{"shard 0/3 vs 1/4"}},
		{"conflicting unit", []string{conflict, paths[1], paths[2]}, true, []string{"unit " + key, conflict, paths[1], "column value"}},
		{"missing shard", []string{paths[0], paths[2]}, true, []string{"have no row", "of shard 1"}},
		{"no run file", []string{paths[0], filepath.Join(dir, "none.csv")}, true, []string{"none.csv has no run file"}},
	}
	for _, c := range cases {
		_, err := Merge(out, c.ins, c.force, false)
		if err == nil {
			t.Errorf("%s: merged", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %q", c.name, err, w)
			}
		}
		if b, _ := os.ReadFile(out); string(b) != before {
			t.Errorf("%s: output changed to %q", c.name, b)
		}
	}
	// Missing units allowed: written, and reported.
	m, err := Merge(out, []string{paths[0], paths[2]}, true, true)
	if err != nil || len(m.Missing) != len(sortedRows(t, paths[1])) || m.Rows+len(m.Missing) != 12 {
		t.Errorf("allow-missing: %+v, %v", m, err)
	}
	// The same shard twice: identical rows, counted as duplicates.
	m, err = Merge(out, append(slices.Clone(paths), paths[0]), true, false)
	if err != nil || m.Rows != 12 || m.Duplicates != len(sortedRows(t, paths[0])) {
		t.Errorf("a shard given twice: %+v, %v", m, err)
	}
}

// copyShard copies a shard's results and run file to dst, with one more row (and its key) appended.
func copyShard(t *testing.T, src, dst, row string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := os.ReadFile(RunFilePath(src))
	if err != nil {
		t.Fatal(err)
	}
	key, _, _ := strings.Cut(row, ",")
	if err := os.WriteFile(dst, append(b, row+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(RunFilePath(dst), append(rf, strconv.Quote(key)+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardResume: a killed shard resumes its own units only, and refuses a file of another run.
func TestShardResume(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t)
	h.out = filepath.Join(dir, "s.csv")
	h.fail = map[int]bool{}
	s := h.spec(20, 1)
	s.Sharding = &Sharding{Shard{1, 2}, testMeta}
	Run(s) // complete
	want := sortedRows(t, h.out)
	// Cut the file after its first row, with a key too many (killed between key and row).
	lines := strings.SplitAfter(string(must(os.ReadFile(h.out))), "\n")
	os.WriteFile(h.out, []byte(lines[0]+lines[1]), 0o644)
	s = h.spec(20, 1)
	s.Resume, s.Sharding = true, &Sharding{Shard{1, 2}, testMeta}
	if _, err := Run(s); err != nil {
		t.Fatal(err)
	}
	if len(h.ran) != len(want)-1 {
		t.Errorf("resume ran %d units, want %d", len(h.ran), len(want)-1)
	}
	if got := sortedRows(t, h.out); !slices.Equal(got, want) {
		t.Errorf("resumed shard rows %v, want %v", got, want)
	}
	if _, err := Merge(filepath.Join(dir, "m.csv"), []string{h.out}, false, true); err != nil {
		t.Errorf("merging the resumed shard: %v", err)
	}
	other := testMeta
	other.Data = "data-b"
	s.Sharding = &Sharding{Shard{1, 2}, other}
	if _, err := Run(s); err == nil || !strings.Contains(err.Error(), "data fingerprint data-a vs data-b") {
		t.Errorf("resume with another run's file: %v", err)
	}
	s.Sharding = &Sharding{Shard{0, 2}, testMeta}
	if _, err := Run(s); err == nil || !strings.Contains(err.Error(), "holds shard 1/2") {
		t.Errorf("resume as another shard: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
