#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""List the tasks whose every output is one of the input's panels, singled out by a rule.

Usage: scripts/odd_panels.py DATA/arc/training [RESULTS.csv]

Panels are the rectangles between the full rows and columns of one color ("sep"), or the tiles of the
output's size that make up the grid ("tile"). The rules (docs/arc-search.md, the fourth selection round):
the panel unique by its cells ("unique"), by its shape ("unique_shape"), by its set of colors
("unique_colors"), the one with the most or fewest non-background cells or colors, the lone symmetric or
asymmetric one. Prints each task where a rule picks the output on every training pair, the rules that do,
and those that also pick the test output; "(solved)" where RESULTS.csv (a `latformer arc` results file) says
so. Plain Python, no packages.
"""
import json, os, sys, csv
from collections import Counter

def bg(x):
    c = Counter(v for r in x for v in r); return c.most_common(1)[0][0]

def sep_panels(x):
    H, W = len(x), len(x[0])
    out = []
    for c in set(v for r in x for v in r):
        rows = [i for i in range(H) if all(v == c for v in x[i])]
        cols = [j for j in range(W) if all(x[i][j] == c for i in range(H))]
        if not rows and not cols: continue
        if len(rows) == H or len(cols) == W: continue
        def spans(lines, n):
            s, prev = [], -1
            for l in lines + [n]:
                if l - prev > 1: s.append((prev + 1, l - prev - 1))
                prev = l
            return s
        rs, cs = spans(rows, H), spans(cols, W)
        ps = [(r0, h, c0, w) for r0, h in rs for c0, w in cs]
        if len(ps) >= 2: out.append(ps)
    return out

def tile_panels(x, h, w):
    H, W = len(x), len(x[0])
    if H % h or W % w or (H == h and W == w): return None
    return [(r, h, c, w) for r in range(0, H, h) for c in range(0, W, w)]

def sub(x, p):
    r0, h, c0, w = p
    return tuple(tuple(x[r][c0:c0 + w]) for r in range(r0, r0 + h))

def mask(g, b):
    return tuple(tuple(v != b for v in r) for r in g)

def rules(x, panels):
    b = bg(x)
    gs = [sub(x, p) for p in panels]
    res = {}
    def uniq(keyf, name):
        ks = [keyf(g) for g in gs]
        cnt = Counter(ks)
        u = [i for i, k in enumerate(ks) if cnt[k] == 1]
        if len(u) == 1 and len(gs) >= 3: res[name] = u[0]
    uniq(lambda g: g, "unique")
    uniq(lambda g: mask(g, b), "unique_shape")
    uniq(lambda g: frozenset(v for r in g for v in r) , "unique_colors")
    def ext(keyf, name):
        ks = [keyf(g) for g in gs]
        for nm, f in ((name + "_max", max), (name + "_min", min)):
            m = f(ks)
            if ks.count(m) == 1: res[nm] = ks.index(m)
    ext(lambda g: sum(v != b for r in g for v in r), "cells")
    ext(lambda g: len(set(v for r in g for v in r) - {b}), "colors")
    def sym(g):
        return g == tuple(r[::-1] for r in g) or g == g[::-1] or (len(g) == len(g[0]) and g == tuple(zip(*g)))
    s = [sym(g) for g in gs]
    if s.count(False) == 1 and len(gs) >= 2: res["asym"] = s.index(False)
    if s.count(True) == 1 and len(gs) >= 2: res["sym"] = s.index(True)
    return res, gs

def fits(pairs, how):
    # returns set of rule names that select the output panel exactly on every pair
    names = None
    for x, y in pairs:
        yt = tuple(tuple(r) for r in y)
        cands = set()
        plist = []
        if how == "sep": plist = sep_panels(x)
        else:
            t = tile_panels(x, len(y), len(y[0]))
            plist = [t] if t else []
        for panels in plist:
            rs, gs = rules(x, panels)
            for n, i in rs.items():
                if gs[i] == yt: cands.add(n)
        names = cands if names is None else names & cands
        if not names: return set()
    return names

def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    split, results = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    solved = set()
    if results:
        solved = {r["id"] for r in csv.DictReader(open(results)) if r["solved"] == "true"}
    tot = 0
    for f in sorted(os.listdir(split)):
        tid = f[:-5]
        t = json.load(open(os.path.join(split, f)))
        tr = [(p["input"], p["output"]) for p in t["train"]]
        te = [(p["input"], p["output"]) for p in t["test"] if "output" in p]
        for how in ("sep", "tile"):
            n = fits(tr, how)
            if n:
                nt = fits(tr + te, how)
                tot += 1
                print(tid, how, sorted(n), "test ok:", sorted(nt), "(solved)" if tid in solved else "")
                break
    print(tot, "tasks")


if __name__ == "__main__":
    main()
