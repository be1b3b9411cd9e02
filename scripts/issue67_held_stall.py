#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Issue 67: what train_hard_patience would stop, replayed on recorded training curves (latformer arc --curves).

Every restart's held training after the gate beam (its held steps after the first 4 x 25 of the beam) is
replayed with the rule of latformer's stalled(): every 10 steps once there are two windows of W steps, stop
when the last window's mean loss is above R times the window's before. It prints, per (W, R), the held
steps the rule saves on restarts that did not fit, and every restart that fitted (it ended before 475
steps, held) which the rule would have stopped before its fit: those would be lost.

Usage: scripts/issue67_held_stall.py CURVES.csv[.gz] ...
"""
import csv
import gzip
import sys
from collections import defaultdict

BEAM = 4 * 25  # train_gate_beam x train_gate_beam_steps
LAST = 475  # steps of a restart that does not fit: 200 soft + 275 held (train_hard_steps=200)


def segments(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        by_task = defaultdict(list)
        for r in csv.DictReader(f):
            by_task[r["task"]].append(r)
    for task, rows in by_task.items():
        seg = []
        for r in rows:
            if seg and (int(r["step"]) <= int(seg[-1]["step"]) or r["restart"] != seg[-1]["restart"]):
                yield task, seg
                seg = []
            seg.append(r)
        if seg:
            yield task, seg


def replay(segs, w, ratio):
    total = saved = 0
    lost = []
    for task, seg in segs:
        cont = [float(r["loss"]) for r in seg if r["held"] == "true"][BEAM:]
        if not cont:
            continue
        fitted = len(seg) < LAST
        stop = None
        for k in range(2 * w, len(cont) + 1, 10):
            if sum(cont[k - w:k]) / w > ratio * sum(cont[k - 2 * w:k - w]) / w:
                stop = k
                break
        total += len(cont)
        if stop is not None and stop < len(cont):
            if fitted:
                lost.append(f"{task} (stopped at {stop} of {len(cont)})")
            else:
                saved += len(cont) - stop
    return total, saved, lost


def main():
    segs = [s for path in sys.argv[1:] for s in segments(path)]
    print("| window W | ratio R | held steps after the beam | saved (restarts that did not fit) | fits lost |")
    print("|---|---|---|---|---|")
    for w in (20, 30, 50):
        for ratio in (0.9, 0.95, 0.98):
            total, saved, lost = replay(segs, w, ratio)
            print(f"| {w} | {ratio} | {total} | {saved} ({100 * saved / max(1, total):.0f}%) | {', '.join(lost) or 'none'} |")


if __name__ == "__main__":
    main()
