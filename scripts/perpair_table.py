#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""The per-pair tasks of Table 2 (annotated element changes from pair to pair), each with its row of a
results CSV and, where unsolved, its kind (docs/arc-search.md, "Elements that follow the input"). Usage:
scripts/perpair_table.py results/arc_training_search.csv results/arc_lattice_search.csv"""
import csv, json, sys

# Why an unsolved per-pair task is not one anchor-relative element of our family, read off its pairs
# (`latformer serve` shows them). Kinds: anchor (anchor-relative, beyond the family built), count (a size or
# count read off the input), select (the selection of one object by a property), none (no geometric element:
# the annotation's per-pair elements are an artifact of matching colors), pattern (a pattern continued).
KINDS = {
    "017c7c7b": ("pattern", "the 6-row pattern continued to 9 rows, 1 recolored 2"),
    "05f2a901": ("anchor", "the object moved until it touches the 8 block"),
    "1190e5a7": ("count", "output size = the number of lines of each direction"),
    "1b60fb0c": ("anchor", "the turned copy of the shape, in place"),
    "2204b7a8": ("none", "cells recolored by the nearer border's color"),
    "239be575": ("none", "a 1 x 1 answer: are the two squares connected"),
    "23b5c85d": ("anchor", "crop the smallest rectangle"),
    "25d8a9c8": ("none", "uniform rows become 5, others 0"),
    "27a28665": ("select", "a 1 x 1 color named by the shape's pattern"),
    "2bcee788": ("anchor", "mirror the object toward the marker's side (the side changes per pair), background recolored"),
    "31aa019c": ("select", "keep the one cell whose color is unique, ring it with 2"),
    "3345333e": ("anchor", "mirror-complete the object under an occluder: its box is read without the occluder"),
    "445eab21": ("count", "a 2 x 2 of the larger hollow rectangle's color"),
    "4be741c5": ("count", "the colors of the stripes, in order, one cell each"),
    "5168d44c": ("anchor", "the box moved two cells along its dotted line (row or column, per pair)"),
    "5582e5ca": ("none", "3 x 3 filled with the most frequent color"),
    "63613498": ("select", "the shape matching the corner's shape recolored 5"),
    "662c240a": ("select", "crop the one of three blocks that is not symmetric"),
    "67385a82": ("none", "3-objects recolored 8 by their size"),
    "7468f01a": ("anchor", "crop the object and mirror it"),
    "746b3537": ("count", "repeated rows (or columns) collapsed"),
    "760b3cac": ("anchor", "the 8 shape mirrored left or right, as the 4 shape points"),
    "776ffc46": ("select", "the shapes like the boxed one recolored to its color"),
    "7b7f7511": ("count", "the first half along the longer axis"),
    "85c4e7cd": ("none", "the rings' colors reversed"),
    "88a10436": ("anchor", "a copy of the object centred on the grey cell"),
    "88a62173": ("select", "the quadrant that differs from the other three"),
    "91714a58": ("select", "keep the largest solid rectangle, the noise removed"),
    "9565186b": ("none", "colors other than the most frequent become 5"),
    "9ecd008a": ("anchor", "the hidden block of a symmetric pattern: its box read on the mirrored grid"),
    "a1570a43": ("anchor", "the shape moved into the frame of four 3 corners"),
    "a416b8f3": ("anchor", "the grid followed by a copy of itself"),
    "aabf363d": ("none", "the shape recolored to the corner cell's color, the corner cleared"),
    "ac0a08a4": ("count", "up-scaled by the number of colors"),
    "aedd82e4": ("none", "isolated 2 cells recolored 1"),
    "b230c067": ("select", "the odd shape recolored 2, the others 1"),
    "b91ae062": ("count", "up-scaled by the number of colors"),
    "b9b7f026": ("select", "a 1 x 1 of the color of the rectangle with a hole"),
    "ba97ae07": ("none", "at the crossing of two bars the other bar on top"),
    "bda2d7a6": ("none", "the rings' colors cycled"),
    "d23f8c26": ("count", "keep the middle column"),
    "d2abd087": ("none", "6-cell objects recolored 2, others 1"),
    "d6ad076f": ("none", "the gap between two rectangles filled with 8"),
    "d90796e8": ("none", "3 next to 2 becomes 8, the 2 cleared"),
    "d9fac9be": ("select", "a 1 x 1 of the ringed cell's color"),
    "dc433765": ("anchor", "the 3 moved one cell toward the 4"),
    "f76d97a5": ("none", "colors swapped (5 to the other color, that color to 0)"),
    "f9012d9b": ("pattern", "the hidden part of a periodic pattern"),
    "5614dbcf": ("count", "3 x 3 down-scaling with noise"),
    "67a3c6ac": ("anchor", "mirror of each grid"),
    "68b16354": ("anchor", "mirror of each grid"),
    "496994bd": ("anchor", "mirror overlay"),
    "2dee498d": ("count", "the first third"),
    "b8825c91": ("anchor", "the symmetric completion"),
    "d10ecb37": ("anchor", "the top-left 2 x 2"),
    "de1cd16c": ("select", "the color of the region with the most noise"),
}

def main():
    search = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
    alone = {r["id"]: r for r in csv.DictReader(open(sys.argv[2]))} if len(sys.argv) > 2 else {}
    ann = json.load(open("datasets/annotate/annotations/arc_training.json"))
    per_pair = [k for k, v in ann.items() if v["category"] != "none" and len(set(v["actions"])) > 1]
    print("| task | category | LatFormer + search | network's own | lattice | element (rule∘base) | kind | why |")
    print("|---|---|---|---|---|---|---|---|")
    counts = {}
    for k in sorted(per_pair, key=lambda k: (ann[k]["category"], k)):
        r = search[k]
        kind, why = KINDS.get(k, ("?", ""))
        solved = r["solved"] == "true"
        own = r.get("network_solved") == "true"
        if not solved:
            counts[kind] = counts.get(kind, 0) + 1
        print(f"| {k} | {ann[k]['category']} | {'**solved**' if solved else 'no'} | {'yes' if own else 'no'} | "
              f"{r.get('lattice','')} | `{r.get('predicted_action','') or '-'}` | {'' if solved else kind} | {'' if solved else why} |")
    n = len(per_pair)
    s = sum(search[k]["solved"] == "true" for k in per_pair)
    o = sum(search[k].get("network_solved") == "true" for k in per_pair)
    print(f"\n{n} per-pair tasks: {s} solved, {o} by the network's own predictions; unsolved by kind: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))

if __name__ == "__main__":
    main()
