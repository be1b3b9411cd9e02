#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Builds an ARC Prize challenges file and its solutions file from tasks of an ARC split.

The ARC Prize layout (Kaggle's arc-agi_evaluation_challenges.json and _solutions.json): the challenges file maps
each task id to {"train": [...], "test": [{"input": ...}, ...]} (the test outputs removed), the solutions file maps
each task id to the list of its test outputs. `latformer solve CHALLENGES --submission S` and `latformer score S
SOLUTIONS` read them (docs/solve.md). The files are data: write them outside the repository (or under runs/).

    python3 scripts/arcprize_sample.py --data ../shared/data --split evaluation \\
        --ids 66e6c45b,c7d4e6ad --out runs/arcprize
"""
import argparse
import json
import os
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.environ.get("LATFORMER_DATA", "data"), help="data directory holding arc/<split>")
    p.add_argument("--split", default="evaluation", choices=["training", "evaluation"])
    p.add_argument("--ids", required=True, help="comma-separated task ids")
    p.add_argument("--out", required=True, help="directory for arc-agi_<split>_challenges.json and _solutions.json")
    a = p.parse_args()
    ids = [i.strip().removesuffix(".json") for i in a.ids.split(",") if i.strip()]
    challenges, solutions = {}, {}
    for task_id in ids:
        path = os.path.join(a.data, "arc", a.split, task_id + ".json")
        try:
            with open(path) as f:
                task = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"task {task_id}: {path}: {e}")
        if any("output" not in t for t in task["test"]):
            sys.exit(f"task {task_id}: a test pair has no output, so no solution")
        challenges[task_id] = {"train": task["train"], "test": [{"input": t["input"]} for t in task["test"]]}
        solutions[task_id] = [t["output"] for t in task["test"]]
    os.makedirs(a.out, exist_ok=True)
    for name, obj in (("challenges", challenges), ("solutions", solutions)):
        path = os.path.join(a.out, f"arc-agi_{a.split}_{name}.json")
        with open(path, "w") as f:
            json.dump(obj, f)
        print(f"{path}: {len(obj)} tasks")


if __name__ == "__main__":
    main()
