#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""List the tasks a lattice-search run leaves unsolved whose outputs are each a part of the input.

Usage: scripts/part_outputs.py DATA/arc/training RESULTS.csv

For every task of the split that RESULTS.csv (a `latformer arc` results file) marks unsolved, or does not
list, prints it where each training output is smaller than its input and appears in it, as it is or under
one of the eight turns and flips: the tasks a crop at some box would explain (docs/arc-search.md, the
windows, insides and rarest color). Plain Python, no packages.
"""
import csv
import json
import os
import sys


def d4(g):
    """The eight turns and flips of grid g (a list of rows), named."""
    out = []
    r = g
    for k in range(4):
        out.append(("rot%d" % k, r))
        out.append(("rot%d+flip" % k, [row[::-1] for row in r]))
        r = [list(row) for row in zip(*r)][::-1]  # a quarter turn counterclockwise
    return out


def places(x, y):
    """The (transform, row, column) where a turn or flip of y lies in x."""
    hits = []
    H, W = len(x), len(x[0])
    for name, t in d4(y):
        h, w = len(t), len(t[0])
        for r in range(H - h + 1):
            for c in range(W - w + 1):
                if all(x[r + i][c:c + w] == list(t[i]) for i in range(h)):
                    hits.append((name, r, c))
    return hits


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    split, results = sys.argv[1], sys.argv[2]
    solved = {r["id"] for r in csv.DictReader(open(results)) if r["solved"] == "true"}
    n = 0
    for f in sorted(os.listdir(split)):
        tid = f[:-5]
        if not f.endswith(".json") or tid in solved:
            continue
        pairs = json.load(open(os.path.join(split, f)))["train"]
        per = []
        for p in pairs:
            x, y = p["input"], p["output"]
            if len(y) * len(y[0]) >= len(x) * len(x[0]):
                break
            h = places(x, y)
            if not h:
                break
            per.append(h)
        if len(per) < len(pairs):
            continue
        common = set(n for n, _, _ in per[0])
        for h in per[1:]:
            common &= set(n for n, _, _ in h)
        n += 1
        print(tid, "transforms on every pair:", ",".join(sorted(common)) or "-",
              "places per pair:", [len(h) for h in per])
    print(n, "tasks")


if __name__ == "__main__":
    main()
