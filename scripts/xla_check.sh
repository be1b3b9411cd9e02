#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# make xla-check: GoMLX's XLA backend on CPU (xla:cpu) against the pure-Go backend, with a PJRT CPU plugin
# from PyPI (scripts/xla_requirements.txt, pinned, installed into .venv-xla/; go-xla's own installer
# downloads its plugin from GitHub, which this machine cannot reach). Runs `latformer demo` and a quick
# `latformer arc` (XLA_CHECK_LIMIT tasks, default 8, 100 steps: make arc-quick's) on both backends and
# fails unless:
#   demo: each task the same test accuracy, learned action and fit, the same number of training steps
#         within XLA_CHECK_STEPS (default 10%), and final losses within XLA_CHECK_LOSS relative (default 5%);
#   arc:  each task the same solved, test_exact and predicted_action.
# Why tolerances at all: XLA fuses and reorders float32 reductions, so the two backends' losses differ in
# the last bits from the first step on, and a training run that stops at the first fitted step can stop a
# few steps apart.
# Usage: bash scripts/xla_check.sh BIN DATA_FLAG...   (the Makefile passes bin/latformer and --data DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-bin/latformer}
shift || true
DATA_FLAGS=("$@")
VENV=${XLA_VENV:-.venv-xla}
LIMIT=${XLA_CHECK_LIMIT:-8}
STEPS_TOL=${XLA_CHECK_STEPS:-0.10}
LOSS_TOL=${XLA_CHECK_LOSS:-0.05}
OUT=runs/xla-check
mkdir -p "$OUT"
rm -f "$OUT/failed"

if ! "$VENV/bin/python" -c "import lammps_jax_pjrt_cpu" 2>/dev/null; then
	test -x "$VENV/bin/python" || python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q -r scripts/xla_requirements.txt
fi
PLUGIN=$("$VENV/bin/python" -c 'import lammps_jax_pjrt_cpu as p; print(p.PLUGIN_PATH)')
echo "plugin: $PLUGIN ($("$VENV/bin/pip" show lammps-jax-pjrt-cpu 2>/dev/null | sed -n 's/^Version: /lammps-jax-pjrt-cpu /p'))"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; uptime: $(uptime)"
# go-xla finds plugins named pjrt_c_api_<name>_plugin.so in $PJRT_PLUGIN_LIBRARY_PATH; this one is so named.
test "$(basename "$PLUGIN")" = pjrt_c_api_cpu_plugin.so || { echo "unexpected plugin file name: $PLUGIN"; exit 1; }
xla_env=(env GOMLX_BACKEND=xla:cpu PJRT_PLUGIN_LIBRARY_PATH="$(dirname "$PLUGIN")" GOMLX_NO_AUTO_INSTALL=1)
go_env=(env GOMLX_BACKEND=go)

for b in go xla; do
	envs=("${go_env[@]}")
	[ "$b" = xla ] && envs=("${xla_env[@]}")
	echo "== demo on $b"
	"${envs[@]}" "$BIN" demo --quiet --out "" > "$OUT/demo_$b.txt"
	grep -E '^backend:|^trained|^test exact|^learned action' "$OUT/demo_$b.txt" | sed 's/^/    /'
	echo "== arc (--limit $LIMIT --steps 100) on $b"
	"${envs[@]}" "$BIN" arc "${DATA_FLAGS[@]}" --category all --limit "$LIMIT" --steps 100 --quiet \
		--out "$OUT/arc_$b.csv" --force > "$OUT/arc_$b.txt"
done
grep -q 'xla:cpu' "$OUT/demo_xla.txt" || { echo "FAIL: the XLA demo did not run on xla:cpu:"; head -3 "$OUT/demo_xla.txt"; exit 1; }

# Demo: one line per task from each log, compared field by field.
demo_rows() { # task steps loss fitted accuracy action
	awk '/^== task /{task=$3; sub(":", "", task)}
	     /^trained /{steps=$2; loss=$6; sub(",", "", loss); fitted=$NF; sub(")", "", fitted)}
	     /^test exact-match accuracy/{acc=$4}
	     /^learned action/{print task, steps, loss, fitted, acc, $5}' "$1"
}
fail=0
paste -d' ' <(demo_rows "$OUT/demo_go.txt") <(demo_rows "$OUT/demo_xla.txt") | while read -r t1 s1 l1 f1 a1 act1 t2 s2 l2 f2 a2 act2; do
	verdict=$(awk -v s1="$s1" -v s2="$s2" -v l1="$l1" -v l2="$l2" -v st="$STEPS_TOL" -v lt="$LOSS_TOL" 'BEGIN {
		ds = (s1 > s2 ? s1 - s2 : s2 - s1) / s1; dl = (l1 > l2 ? l1 - l2 : l2 - l1) / l1
		printf "%s %.3f %.3f", (ds <= st && dl <= lt) ? "ok" : "FAIL", ds, dl }')
	read -r v ds dl <<<"$verdict"
	[ "$t1" = "$t2" ] && [ "$f1" = "$f2" ] && [ "$a1" = "$a2" ] && [ "$act1" = "$act2" ] || v=FAIL
	echo "demo $t1: go $s1 steps loss $l1 acc $a1 $act1 | xla $s2 steps loss $l2 acc $a2 $act2 | steps off $ds, loss off $dl: $v"
	[ "$v" = ok ] || echo fail >> "$OUT/failed"
done

# Arc: solved, test_exact and predicted_action per task.
cols='NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} {print $c["id"], $c["solved"], $c["test_exact"], $c["predicted_action"], $c["steps"]}'
paste -d' ' <(awk -F, "$cols" "$OUT/arc_go.csv" | sort) <(awk -F, "$cols" "$OUT/arc_xla.csv" | sort) | while read -r i1 s1 e1 p1 n1 i2 s2 e2 p2 n2; do
	v=ok
	[ "$i1" = "$i2" ] && [ "$s1" = "$s2" ] && [ "$e1" = "$e2" ] && [ "$p1" = "$p2" ] || v=FAIL
	echo "arc $i1: go solved=$s1 exact=$e1 $p1 ($n1 steps) | xla solved=$s2 exact=$e2 $p2 ($n2 steps): $v"
	[ "$v" = ok ] || echo fail >> "$OUT/failed"
done
n_go=$(($(wc -l < "$OUT/arc_go.csv") - 1)); n_xla=$(($(wc -l < "$OUT/arc_xla.csv") - 1))
[ "$n_go" = "$n_xla" ] && [ "$n_go" -gt 0 ] || { echo "arc rows: go $n_go, xla $n_xla"; echo fail >> "$OUT/failed"; }
echo "uptime after: $(uptime)"
if [ -s "$OUT/failed" ]; then rm -f "$OUT/failed"; echo "xla-check: FAIL"; exit 1; fi
echo "xla-check: ok (xla:cpu agrees with the Go backend: demo steps within $STEPS_TOL, losses within $LOSS_TOL relative; arc solved, exact and action equal on $n_go tasks)"
