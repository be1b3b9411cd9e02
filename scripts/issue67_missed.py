#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Issue 67's tables from a search-free row: the determined tasks (results/arc_lattice_search.csv, solved)
split into lattice and frame tasks (a crop(...) element) and into halves (experiments/arc.InHoldout: the
parity of the id's FNV-1a hash), what the row solved of each, and every determined task it misses with the
element it needs, the network's and the soft gates' top elements (the soft_top column: the kept fit's, then
the other fit's where the solver fitted the candidate frames too).

Usage: scripts/issue67_missed.py ROW.csv [results/arc_lattice_search.csv]
"""
import csv
import sys


def half(task_id):
    h = 0x811C9DC5
    for b in task_id.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return "dev" if h % 2 == 0 else "confirm"


def main():
    row_path = sys.argv[1]
    search_path = sys.argv[2] if len(sys.argv) > 2 else "results/arc_lattice_search.csv"
    search = {r["id"]: r for r in csv.DictReader(open(search_path)) if r["solved"] == "true"}
    rows = {r["id"]: r for r in csv.DictReader(open(row_path))}
    counts = {}
    missed = []
    for tid, s in sorted(search.items()):
        kind = "frame" if "crop(" in s["predicted_action"] else "lattice"
        r = rows.get(tid)
        if r is None:
            continue
        key = (kind, half(tid))
        solved, total = counts.get(key, (0, 0))
        counts[key] = (solved + (r["solved"] == "true"), total + 1)
        if r["solved"] != "true":
            missed.append((kind, half(tid), tid, r["canvas"], s["predicted_action"], r["predicted_action"],
                           r.get("soft_top", "")))
    print("| kind | dev | confirm | all |")
    print("|---|---|---|---|")
    for kind in ("lattice", "frame"):
        d, c = counts.get((kind, "dev"), (0, 0)), counts.get((kind, "confirm"), (0, 0))
        print(f"| {kind} | {d[0]} of {d[1]} | {c[0]} of {c[1]} | {d[0] + c[0]} of {d[1] + c[1]} |")
    print(f"\nrow: {sum(r['solved'] == 'true' for r in rows.values())} of {len(rows)}, "
          f"{sum(float(r['seconds']) for r in rows.values()):.0f} task-seconds\n")
    print("| kind | half | task | canvas | the element it needs | the network's | top by the soft gates |")
    print("|---|---|---|---|---|---|---|")
    for kind, h, tid, canvas, need, got, top in sorted(missed):
        tops = " · ".join(f"`{t.strip()}`" for t in top.split(" | ") if t.strip())
        print(f"| {kind} | {h} | {tid} | {canvas} | `{need}` | `{got}` | {tops} |")


if __name__ == "__main__":
    main()
