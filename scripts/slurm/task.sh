#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# One task of a Slurm array (submit.sh): shard $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT of the run
# described in $RUN_DIR (command, args, binary), into $RUN_DIR/shard-<i>.csv. --resume: a requeued or
# preempted task continues its shard where it stopped.
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail
: "${RUN_DIR:?}" "${SLURM_ARRAY_TASK_ID:?}" "${SLURM_ARRAY_TASK_COUNT:?}"
mapfile -d '' -t args < "$RUN_DIR/args"
latformer=$(cat "$RUN_DIR/binary")
cmd=$(cat "$RUN_DIR/command")
echo "== $(date -u +%FT%TZ) host $(hostname) task $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT restart ${SLURM_RESTART_COUNT:-0}"
exec "$latformer" "$cmd" "${args[@]}" --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
	--out "$RUN_DIR/shard-$SLURM_ARRAY_TASK_ID.csv" --resume --quiet
