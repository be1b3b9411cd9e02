#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# The job after the array (submit.sh, --dependency=afterok): merges the shards' files into
# $RUN_DIR/merged.csv (latformer merge), then resumes the command on it, which runs nothing and writes
# the run's tables to $RUN_DIR/table.txt.
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail
: "${RUN_DIR:?}"
mapfile -d '' -t args < "$RUN_DIR/args"
latformer=$(cat "$RUN_DIR/binary")
cmd=$(cat "$RUN_DIR/command")
n=$(cat "$RUN_DIR/shards")
shards=()
for ((i = 0; i < n; i++)); do shards+=("$RUN_DIR/shard-$i.csv"); done
"$latformer" merge --force "$RUN_DIR/merged.csv" "${shards[@]}"
"$latformer" "$cmd" "${args[@]}" --out "$RUN_DIR/merged.csv" --resume --quiet | tee "$RUN_DIR/table.txt"
