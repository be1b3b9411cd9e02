#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Executes one notebook headless with the GoNB kernel into OUTDIR, then checks the executed copy with
# check_outputs.py: exits 1, naming the notebook and the cell, on an error output, a panic, a compile error,
# a killed kernel or a timeout. Used by `make notebooks`, `make notebooks-full` and notebooks/testdata/selftest.sh.
#
# Usage: notebooks/execute.sh [--forbid-path] [--timeout SECONDS] NOTEBOOK OUTDIR
#
# nbconvert runs every cell (--allow-errors) so that check_outputs.py sees all the failures at once; the kernel
# runs in NOTEBOOK's directory, where the notebooks find this checkout's module (${GONB_DIR}/..). When nbconvert
# itself fails it writes no copy: check_outputs.py --failed-run names the running cell from the log
# (OUTDIR/NAME.log), which notebooks/nbconvert_config.py marks before each cell.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage() { echo "usage: $0 [--forbid-path] [--timeout SECONDS] NOTEBOOK OUTDIR" >&2; exit 2; }
check_flags=()
timeout=1200
while [ $# -gt 2 ]; do
	case "$1" in
	--forbid-path) check_flags+=(--forbid-path); shift ;;
	--timeout) timeout="$2"; shift 2 ;;
	*) usage ;;
	esac
done
[ $# -eq 2 ] || usage
nb="$1"
outdir="$2"
out="$outdir/$(basename "$nb")"
log="$outdir/$(basename "$nb" .ipynb).log"
mkdir -p "$outdir"
rm -f "$out"
# Headless: no browser answers GoNB's widgets, so the widget cells of 03 and 04 draw their first state and end.
export LATFORMER_WIDGETS=0
if ! jupyter nbconvert --config "$here/nbconvert_config.py" --to notebook --execute --allow-errors \
	--ExecutePreprocessor.timeout="$timeout" --output-dir "$outdir" "$nb" 2>"$log"; then
	python3 "$here/check_outputs.py" --failed-run "$log" "$nb"
	exit 1
fi
python3 "$here/check_outputs.py" "${check_flags[@]}" "$out"
