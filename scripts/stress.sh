#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# make stress: the newcomer path under load, each run under a timeout. Fails if any run hangs (timeout)
# or fails. Not part of `make test` (about 15 minutes on 2 cores).
#   1. `latformer demo` five times in a row (each must print 100/100 for both tasks)
#   2. `latformer bench --steps 5`
#   3. `make arc-quick` (8 ARC tasks, 100 steps; needs the ARC data, see README "Data")
#   4. `make notebooks` (quick mode)
# Timeouts (seconds) can be changed with DEMO_TIMEOUT, BENCH_TIMEOUT, ARC_TIMEOUT, NOTEBOOKS_TIMEOUT.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=bin/latformer
LOG=${STRESS_LOG:-runs/stress}
mkdir -p "$LOG"
failures=0
check() { # name timeout command...: runs the command under the timeout, logs its output, prints one line
	local name=$1 limit=$2; shift 2
	local t0=$(date +%s.%N)
	timeout --kill-after=10 "$limit" "$@" >"$LOG/$name.log" 2>&1
	local rc=$?
	local secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
	local verdict=ok
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then verdict="HUNG (killed after ${limit} s)"; elif [ $rc -ne 0 ]; then verdict="FAILED (exit $rc)"; fi
	printf '%-12s %-28s %7s s   %s\n' "$name" "$verdict" "$secs" "${EXTRA:-}"
	if [ "$verdict" != ok ]; then failures=$((failures+1)); tail -5 "$LOG/$name.log" | sed 's/^/    | /'; fi
	return $rc
}
echo "== make stress on $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ); backend: ${GOMLX_BACKEND:-default}; logs in $LOG/"
for i in 1 2 3 4 5; do
	if check "demo-$i" "${DEMO_TIMEOUT:-600}" "$BIN" demo --quiet; then
		n=$(grep -c 'accuracy: 100/100' "$LOG/demo-$i.log")
		steps=$(grep -o 'trained [0-9]* steps' "$LOG/demo-$i.log" | awk '{print $2}' | paste -sd/)
		if [ "$n" -ne 2 ]; then echo "    demo-$i: $n of 2 tasks at 100/100"; failures=$((failures+1)); else echo "    demo-$i: 100/100 and 100/100 (steps $steps)"; fi
	fi
done
check bench "${BENCH_TIMEOUT:-600}" "$BIN" bench --steps 5 && grep '^bench canvas' "$LOG/bench.log" | sed 's/^/    /'
check arc-quick "${ARC_TIMEOUT:-900}" make --no-print-directory arc-quick && grep -E 'Translate|Rotate|Reflect|Scale|wall time' "$LOG/arc-quick.log" | sed 's/^/    /'
check notebooks "${NOTEBOOKS_TIMEOUT:-1200}" make --no-print-directory notebooks && grep -E 'ok in|executed' "$LOG/notebooks.log" | sed 's/^/    /'
if [ $failures -ne 0 ]; then echo "== make stress: $failures FAILED"; exit 1; fi
echo "== make stress: all runs finished, none hung"
