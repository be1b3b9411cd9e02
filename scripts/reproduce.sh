#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# One latformer command of an experiment's make target (make arc, noise, ...), into its results file.
#
# Usage: scripts/reproduce.sh [-n] LATFORMER DIR NAME COMMAND [ARGS...]
#
# Runs `LATFORMER COMMAND ARGS... --out DIR/NAME --resume` (a new file, or the continuation of an interrupted
# one), its output also appended to DIR/<NAME without .csv>_run.txt after the command line. When DIR is not
# results/ (a new run, the default of the make targets) it then prints, and appends to the same log, how the
# new rows compare with the committed results/NAME (`latformer compare`), unless -n (a command whose rows a
# later one completes).
set -euo pipefail
compare=1
if [ "${1:-}" = "-n" ]; then compare=0; shift; fi
if [ $# -lt 4 ]; then
	echo "usage: $0 [-n] LATFORMER DIR NAME COMMAND [ARGS...]" >&2
	exit 2
fi
bin=$1 dir=$2 name=$3
shift 3
out="$dir/$name"
log="$dir/${name%.csv}_run.txt"
mkdir -p "$dir"
{
	echo "\$ latformer $* --out $out --resume"
	"$bin" "$@" --out "$out" --resume
} 2>&1 | tee -a "$log"
if [ "$compare" = 1 ] && [ "$(cd "$dir" && pwd)" != "$(pwd)/results" ]; then
	if [ -f "results/$name" ]; then
		"$bin" compare "$out" "results/$name" 2>&1 | tee -a "$log"
	else
		echo "(no committed results/$name to compare with)" | tee -a "$log"
	fi
fi
