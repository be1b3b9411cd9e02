#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Issue 67's ideas on the 32 lattice tasks that the lattice search alone determines (results/arc_lattice_search.csv,
# solved, no crop(...)): the dev half's 24 (results/archive/issue67/dev_lattice.txt), then the confirm half's 8
# (eval_lattice.txt), each with --recipe nosearch and the idea's --set. Resumable: run it again after a cut.
# Usage: scripts/issue67_ideas.sh NAME "key=value;..."   (rows in runs/i67/{dev,eval}_NAME.csv)
set -eu
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3}
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/issue67_ideas.sh NAME SETTINGS} settings=${2:?usage: scripts/issue67_ideas.sh NAME SETTINGS}
mkdir -p runs/i67
for half in dev eval; do
	bin/latformer arc --tasks "$(cat results/archive/issue67/${half}_lattice.txt)" --recipe nosearch --set "$settings" \
		--workers 2 --out "runs/i67/${half}_${name}.csv" --resume --quiet 2>&1 | tee -a "runs/i67/${half}_${name}.log" | tail -3
done
