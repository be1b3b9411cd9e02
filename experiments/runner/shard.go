// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package runner

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Shard is one part of a run split into Count parts (`--shard Index/Count`, Index from 0): several
// processes, on one machine or on a cluster's nodes, each run the units of their shard into a results
// file of their own, and `latformer merge` joins the files into the file of the whole run.
type Shard struct {
	Index, Count int
}

// ParseShard parses "I/N" (0 <= I < N).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	sh := Shard{}
	var err1, err2 error
	sh.Index, err1 = strconv.Atoi(strings.TrimSpace(i))
	sh.Count, err2 = strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 0 <= I < N, e.g. 0/3", s)
	}
	return sh, nil
}

// String is the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// keyHash is the 64-bit FNV-1a hash of a unit's key: where a unit goes depends on its key, never on its
// position in the run's list.
func keyHash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// costClass is the class of a unit of cost c in Partition: a factor of two in cost per class, all the
// units of cost <= 0 (or unknown) in one.
func costClass(c float64) int {
	if c <= 0 || math.IsNaN(c) || math.IsInf(c, 0) {
		return math.MinInt
	}
	return int(math.Floor(math.Log2(c)))
}

// Partition assigns each of the units (their keys, and their costs or nil) to one of n shards and returns
// the shard of each. The assignment depends on the set of units, not on their order.
//
// Without costs a unit's shard is the FNV-1a hash of its key modulo n: adding or removing a unit moves
// no other. With costs the units are grouped in classes of a factor of two in cost; within a class they
// are ordered by the hash of their key and dealt out in turn, the first to shard hash(class) mod n, so a
// class of k units puts ⌊k/n⌋ or ⌈k/n⌉ on every shard and the shards' costs differ by at most about one
// unit per class instead of by the spread of a random draw. Adding a unit then moves only units of its
// own class (those after it in hash order) and none of another class.
func Partition(keys []string, costs []float64, n int) []int {
	shard := make([]int, len(keys))
	if n <= 1 {
		return shard
	}
	if costs == nil {
		for i, k := range keys {
			shard[i] = int(keyHash(k) % uint64(n))
		}
		return shard
	}
	classes := map[int][]int{} // class -> indices of its units
	for i := range keys {
		c := costClass(costs[i])
		classes[c] = append(classes[c], i)
	}
	for c, members := range classes {
		slices.SortFunc(members, func(a, b int) int {
			return cmp.Or(cmp.Compare(keyHash(keys[a]), keyHash(keys[b])), strings.Compare(keys[a], keys[b]))
		})
		start := int(keyHash(strconv.Itoa(c)) % uint64(n))
		for j, i := range members {
			shard[i] = (start + j) % n
		}
	}
	return shard
}
