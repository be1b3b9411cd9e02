#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Puts the rows of a rerun in place of a results CSV's rows of the same models, unit by unit, keeping the
file's order and its other models' rows; the replaced rows go to an archive CSV. Used for Figure 5's
attention baselines, rerun after the worker-cache fix (issue 46):

  python3 scripts/replace_rows.py --models transformer,attention_abs,attention_rel \\
      results/sample_efficiency.csv results/sample_efficiency_baselines.csv \\
      results/archive/sample_efficiency_baselines_before_rerun.csv

A unit is (model, family, task, num_train, noise, canvas): the key of experiments/synthetic's rows. Refuses,
writing nothing, when the rerun lacks a unit of those models in the file or holds one the file has not (a
rerun that is not complete), or when ARCHIVE exists. Standard library only; the CSVs are written as Go's
encoding/csv writes them (the round trip of an unchanged file is byte for byte).
"""
import argparse, csv, os, sys

KEY = ("model", "family", "task", "num_train", "noise", "canvas")


def read(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return r.fieldnames, list(r)


def write(path, header, rows):
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", required=True, help="comma-separated models whose rows are replaced")
    ap.add_argument("file", help="the results CSV to update")
    ap.add_argument("rerun", help="the rerun's CSV (every unit of those models in FILE, no other)")
    ap.add_argument("archive", help="where the replaced rows are written (must not exist)")
    a = ap.parse_args()
    models = set(a.models.split(","))
    header, rows = read(a.file)
    rheader, rerun = read(a.rerun)
    if rheader != header:
        sys.exit(f"{a.rerun}: header {rheader} differs from {a.file}'s {header}")
    key = lambda r: tuple(r[k] for k in KEY)
    new = {key(r): r for r in rerun if r["model"] in models}
    old = [r for r in rows if r["model"] in models]
    missing = sorted({key(r) for r in old} - set(new))
    extra = sorted(set(new) - {key(r) for r in old})
    if missing or extra:
        sys.exit(f"{a.rerun} is not a complete rerun of {a.file}'s {len(old)} rows of {sorted(models)}: "
                 f"{len(missing)} units missing (first {missing[:3]}), {len(extra)} not in the file (first {extra[:3]})")
    if os.path.exists(a.archive):
        sys.exit(f"{a.archive} exists: choose another archive file")
    write(a.archive, header, old)
    write(a.file, header, [new[key(r)] if r["model"] in models else r for r in rows])
    outcome = ("test_exact", "fitted", "steps", "train_exact")
    changed = sum(1 for r in old if any(r[k] != new[key(r)][k] for k in outcome))
    print(f"{a.file}: {len(old)} rows of {','.join(sorted(models))} replaced by {a.rerun}'s ({changed} differ in "
          f"{', '.join(outcome)}), "
          f"{len(rows) - len(old)} other rows kept; the old rows in {a.archive}")


if __name__ == "__main__":
    main()
