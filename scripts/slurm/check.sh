#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# make slurm-check: a single-node Slurm cluster on this machine (slurmctld + slurmd, 2 CPUs, configuration
# under a temporary directory; Debian's slurm-wlm and munge installed when missing) runs
#   1. a quick `latformer arc` as an array of 3 shards and the merge job (submit.sh); the merged table must
#      have the rows of an unsharded run of the same flags (wall times aside);
#   2. the same array again, where a running task is cancelled (scancel) after its first row and requeued
#      (scontrol requeue): it must resume its shard (--resume), and the merge must again equal the
#      unsharded run.
# Every wait has a timeout; the daemons it started are stopped by their process ids on exit; the logs are
# printed on failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
start=$(date +%s)
LATFORMER=${LATFORMER:-bin/latformer}
DATA_FLAG=()
[ -n "${LATFORMER_DATA:-}" ] && DATA_FLAG=(--data "$LATFORMER_DATA")
# Tiny work: the first 12 ARC tasks less those of canvas > 10, a few steps, one restart.
ARC_FLAGS=("${DATA_FLAG[@]}" --limit 12 --max-canvas 10 --steps "${CHECK_STEPS:-30}" --set "train_restarts=1")

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null
fi
T=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$T"
pids=()
cleanup() {
	local rc=$?
	if [ -n "${SLURM_CONF:-}" ] && [ -f "$T/slurm.conf" ]; then scancel --user=root 2>/dev/null || true; fi
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null || true
	done
	if [ $rc -ne 0 ]; then
		echo "== slurm-check FAILED (status $rc); logs:"
		for f in "$T"/*.log "$T"/run*/logs/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }; done
	fi
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# waitfor SECONDS WHAT CMD...: runs CMD every second until it succeeds; fails after SECONDS.
waitfor() {
	local limit=$1 what=$2
	shift 2
	for ((i = 0; i < limit; i++)); do
		if "$@"; then return 0; fi
		sleep 1
	done
	echo "timed out after ${limit}s waiting for $what" >&2
	return 1
}

# munge: our own daemon, key and socket under $T.
install -d -m 755 -o munge -g munge "$T/munge"
cp /etc/munge/munge.key "$T/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$T/munge/munge.key" bs=1 count=1024 status=none
chown munge:munge "$T/munge/munge.key" && chmod 400 "$T/munge/munge.key"
setpriv --reuid=munge --regid=munge --init-groups munged --foreground --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge.log" --seed-file="$T/munge/seed" >"$T/munged.out.log" 2>&1 &
pids+=($!)
waitfor 20 "munged" test -S "$T/munge/munge.socket"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<CONF
ClusterName=check
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobRequeue=1
MinJobAge=3600
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out.log" 2>&1 &
pids+=($!)
waitfor 60 "the node to be idle" bash -c 'sinfo -h -o %t 2>/dev/null | grep -q idle'
echo "== cluster up: $(sinfo -h -o '%P %D %c %t')"

make build >/dev/null
state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' '; }
finished() { local s; s=$(state "$1"); [ -n "$s" ] && ! grep -qE 'PENDING|RUNNING|REQUEUED|CONFIGURING|COMPLETING' <<<"$s"; }

# The unsharded run the merged tables must equal.
"$LATFORMER" arc "${ARC_FLAGS[@]}" --out "$T/unsharded.csv" --quiet >"$T/unsharded.log"
same_rows() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import csv, sys
def rows(p):
    r = list(csv.reader(open(p, newline='')))
    keep = [i for i, c in enumerate(r[0]) if c != 'seconds' and not c.endswith('_seconds')]
    return sorted(tuple(x[i] for i in keep) for x in r[1:])
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"   {sys.argv[2]}: {len(b)} rows, {'identical to' if a == b else 'DIFFERENT from'} the unsharded run's {len(a)}")
sys.exit(a != b)
PY
}

echo "== 1. arc as an array of 3 shards and a merge job"
read -r _ array _ merge _ run_dir < <(RUN_DIR=$T/run1 scripts/slurm/submit.sh 3 arc "${ARC_FLAGS[@]}")
echo "   array job $array, merge job $merge"
waitfor 300 "merge job $merge" finished "$merge"
[ "$(state "$merge")" = "COMPLETED " ] || { echo "merge job $merge: $(state "$merge")"; exit 1; }
echo "   array: $(state "$array")"
sed 's/^/   | /' "$run_dir/table.txt" | grep -E 'tasks selected|category|Translate|Rotate|Reflect|Scale|wall'
same_rows "$T/unsharded.csv" "$run_dir/merged.csv"

echo "== 2. a running task cancelled after its first row, requeued: it resumes its shard"
read -r _ array _ merge _ run_dir < <(RUN_DIR=$T/run2 scripts/slurm/submit.sh 3 arc "${ARC_FLAGS[@]}")
victim=""
rows_in() { [ -f "$1" ] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
pick() {
	for i in 0 1 2; do
		if [ "$(state "${array}_$i")" = "RUNNING " ] && [ "$(rows_in "$run_dir/shard-$i.csv")" -ge 1 ]; then victim=$i; return 0; fi
	done
	return 1
}
waitfor 300 "a running task with a row" pick
scancel "${array}_$victim"
waitfor 60 "task $victim to stop" bash -c "scontrol show job ${array}_$victim | grep -qE 'JobState=(CANCELLED|COMPLETED|FAILED)'"
echo "   task ${array}_$victim cancelled with $(rows_in "$run_dir/shard-$victim.csv") row(s) in shard-$victim.csv: $(state "${array}_$victim")"
scontrol requeue "${array}_$victim"
scontrol release "${array}_$victim" 2>/dev/null || true
waitfor 300 "task $victim after requeue" finished "${array}_$victim"
echo "   requeued task: $(state "${array}_$victim")"
grep -E '^== |already done' "$run_dir/logs/shard-$victim.log" | sed 's/^/   | /'
resumed=$(grep -o '[0-9]* already done' "$run_dir/logs/shard-$victim.log" | tail -1 | cut -d' ' -f1)
[ "${resumed:-0}" -ge 1 ] || { echo "the requeued task did not resume its rows"; exit 1; }
# The cancel left the merge job's afterok on the array never satisfied (Slurm keeps the array's failed
# flag): once the task is requeued, make it depend on the three tasks one by one.
scontrol update JobId="$merge" Dependency="afterok:${array}_0:${array}_1:${array}_2"
waitfor 300 "merge job $merge" finished "$merge"
[ "$(state "$merge")" = "COMPLETED " ] || { echo "merge job $merge: $(state "$merge")"; exit 1; }
echo "   merge job $merge: COMPLETED"
same_rows "$T/unsharded.csv" "$run_dir/merged.csv"
echo "== slurm-check passed in $(($(date +%s) - start)) s"
