#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Issue 34's ablation table: soft vs hard gates and where they start, per protocol, on the dev and eval
halves of the 84 annotated training tasks (experiments/arc.InHoldout: the parity of the FNV-1a hash of the
id), read from full-row CSVs. Standard library only.

  python3 scripts/ablation_table.py                      # the committed rows
  python3 scripts/ablation_table.py --row "label|how the gates start|training|file.csv" ...

A *determined* task is one the lattice search alone solves (results/arc_lattice_search.csv): the training
pairs determine its element and table. *Hard fit*: restarts_fitted > 0. *Own*: the network's own predictions
solve the test (network_solved; rows without that column predict with the network only, so solved).
"""
import argparse, csv, io, subprocess, sys

def holdout(task_id):
    h = 0x811C9DC5
    for b in task_id.encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return "dev" if h % 2 == 0 else "eval"

def read(path):
    if ":" in path and not path.startswith("/"):  # git revision:path
        text = subprocess.run(["git", "show", path], check=True, capture_output=True, text=True).stdout
        return list(csv.DictReader(io.StringIO(text)))
    with open(path) as f:
        return list(csv.DictReader(f))

ROWS = [
    ("paper protocol (recipe paper)", "paper init, every expert", "soft", "results/arc_training.csv"),
    ("no search (recipe nosearch)", "paper init: z family, then every expert", "soft, then the gate beam held", "results/arc_training_nosearch.csv"),
    ("search, soft (df51f7a)", "lattice-search proposals", "soft", "df51f7a:results/arc_training_search.csv"),
    ("search, held (default)", "lattice-search proposals", "held at the proposal (hard)", "results/arc_training_search.csv"),
    ("lattice search alone", "-", "no training", "results/arc_lattice_search.csv"),
]

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--row", action="append", help="label|start|training|csv (replaces the committed rows)")
    ap.add_argument("--determined", default="results/arc_lattice_search.csv")
    a = ap.parse_args()
    rows = [tuple(r.split("|")) for r in a.row] if a.row else ROWS
    det = {r["id"] for r in read(a.determined) if r["solved"] == "true"}
    halves = {}
    for r in read(a.determined):
        halves.setdefault(holdout(r["id"]), set()).add(r["id"])
    print("| protocol | gates start | training | half | tasks run | determined: hard fit | determined: own | determined: solved | all: own | all: solved |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, start, training, path in rows:
        data = {r["id"]: r for r in read(path)}
        for half in ("dev", "eval"):
            ids = halves[half]
            run = [data[i] for i in ids if i in data]
            d = [r for r in run if r["id"] in det]
            fit = sum(int(r.get("restarts_fitted") or 0) > 0 for r in d)
            own = lambda r: (r.get("network_solved") or r["solved"]) == "true"
            if r_is_search_only(run):
                own = lambda r: False
                fit_s = "-"
            else:
                fit_s = f"{fit} of {len(d)}"
            print(f"| {label} | {start} | {training} | {half} | {len(run)} of {len(ids)} | {fit_s} | "
                  f"{sum(own(r) for r in d)} | {sum(r['solved'] == 'true' for r in d)} of {len(d)} | "
                  f"{sum(own(r) for r in run)} | {sum(r['solved'] == 'true' for r in run)} |")

def r_is_search_only(run):
    return bool(run) and all(r.get("model") == "lattice_search" for r in run)

if __name__ == "__main__":
    sys.exit(main())
