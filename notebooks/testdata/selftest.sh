#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Self-test of the notebook checks, run first by `make notebooks`: executes each broken_*.ipynb here with
# notebooks/execute.sh and fails unless that run fails naming the fixture and its broken cell (index 2, id
# "broken") and neither clean cell around it (1 and 3). The fixtures: a run-time panic (index out of range),
# a compile error, a program that exits with status 1 (as log.Fatal does), a cell that kills the kernel.
#
# Usage: notebooks/testdata/selftest.sh [OUTDIR]   (default /tmp/latformer-notebooks/selftest)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
outdir="${1:-/tmp/latformer-notebooks/selftest}"
status=0
for nb in "$here"/broken_*.ipynb; do
	name="$(basename "$nb")"
	report="$(bash "$here/../execute.sh" "$nb" "$outdir" 2>&1)"
	rc=$?
	named="$(grep -m1 -E "$name: cell 2 \(In \[[ 0-9]*\], id broken" <<<"$report")"
	if [ $rc -eq 0 ]; then
		problem="the run passed, but cell 2 is broken"
	elif [ -z "$named" ]; then
		problem="the run failed (exit $rc) without naming cell 2"
	elif grep -E "$name: cell [13] " <<<"$report" | grep -q -v "note, stderr output (allowed)"; then
		problem="a clean cell (1 or 3) was reported"
	else
		echo "selftest: $name fails as it should: ${named:0:160}"
		continue
	fi
	echo "selftest: $name: $problem; the report:"
	sed 's/^/    /' <<<"$report"
	status=1
done
[ $status -eq 0 ] && echo "selftest: every broken fixture fails with its notebook and cell named"
exit $status
