#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Submits a latformer experiment to Slurm as an array of N shards and a merge job that waits for them:
#
#   scripts/slurm/submit.sh N COMMAND [FLAGS...]      e.g. scripts/slurm/submit.sh 8 arc --category all
#
# Each array task runs `latformer COMMAND FLAGS --shard I/N --out RUN_DIR/shard-I.csv --resume` (task.sh);
# the merge job (merge.sh, --dependency=afterok on the array) writes RUN_DIR/merged.csv and
# RUN_DIR/table.txt. Prints the two job ids. Variables:
#   LATFORMER   the binary, on a file system the nodes share (default: bin/latformer, built here)
#   RUN_DIR     where the shards, logs and merged results go (default: runs/slurm/COMMAND-<date>-<time>)
#   PARTITION   the partition (default: the cluster's default); GPUS (default 0): GPUs per task, e.g. 1
#               on a GPU partition, with GOMLX_BACKEND=xla:cuda exported
#   CPUS        CPUs per task (default 1; give --workers the same number)
#   TIME        time limit per task (default 1-00:00:00)
#   SBATCH_ARGS more sbatch options for both jobs (e.g. "--account=X --qos=Y")
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '3,20p' "$0"; exit 2; fi
n=$1 cmd=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
latformer=$(realpath "${LATFORMER:-bin/latformer}")
[ -x "$latformer" ] || { echo "submit.sh: no binary $latformer (make build, or set LATFORMER)" >&2; exit 1; }
run_dir=$(realpath -m "${RUN_DIR:-runs/slurm/$cmd-$(date +%Y%m%d-%H%M%S)}")
mkdir -p "$run_dir/logs"
printf '%s\0' "$@" > "$run_dir/args"
echo "$cmd" > "$run_dir/command"
echo "$latformer" > "$run_dir/binary"
echo "$n" > "$run_dir/shards"
common=(--parsable --chdir="$(pwd)" --export="ALL,RUN_DIR=$run_dir" --time="${TIME:-1-00:00:00}")
[ -n "${PARTITION:-}" ] && common+=(--partition="$PARTITION")
# shellcheck disable=SC2206
[ -n "${SBATCH_ARGS:-}" ] && common+=($SBATCH_ARGS)
gpus=()
[ "${GPUS:-0}" != 0 ] && gpus=(--gpus-per-task="$GPUS")
array=$(sbatch "${common[@]}" "${gpus[@]}" --job-name="latformer-$cmd" --array="0-$((n - 1))" \
	--cpus-per-task="${CPUS:-1}" --output="$run_dir/logs/shard-%a.log" "$here/task.sh")
merge=$(sbatch "${common[@]}" --job-name="latformer-$cmd-merge" --dependency="afterok:$array" \
	--output="$run_dir/logs/merge.log" "$here/merge.sh")
echo "array $array merge $merge run_dir $run_dir"
