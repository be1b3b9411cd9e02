#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# make xla-check: GoMLX's XLA backend on CPU (xla:cpu) against the pure-Go backend, with a PJRT CPU plugin
# from PyPI (scripts/xla_requirements.txt, pinned, installed into .venv-xla/; go-xla's own installer
# downloads its plugin from GitHub, which this machine cannot reach). Runs `latformer demo` and a quick
# `latformer arc` (XLA_CHECK_LIMIT tasks, default 8, 100 steps: make arc-quick's) on both backends and
# fails unless:
#   demo: each task the same test accuracy, learned action and fit, the same number of training steps
#         within XLA_CHECK_STEPS (default 10%), and final losses within XLA_CHECK_LOSS relative (default 5%);
#   arc:  each task the same solved, test_exact and predicted_action, the steps within XLA_CHECK_STEPS (a task
#         the solver leaves untrained, 0 steps, must have 0 on both: compared on what it has).
# Both backends start from the same weights: latformer initializes the variables on the Go backend whatever
# the training backend (GoMLX's Go backend and XLA draw different random bits from the same seed).
# Why tolerances at all: XLA fuses and reorders float32 reductions, so the two backends' losses may differ in
# the last bits from the first step on, and a training run that stops at the first fitted step could stop a
# few steps apart (measured here: the same steps and the same 4-digit losses).
# Usage: bash scripts/xla_check.sh BIN DATA_FLAG...   (the Makefile passes bin/latformer and --data DIR);
# XLA_CHECK_COMPARE_ONLY=1 compares the outputs of the previous run (runs/xla-check/) again without running.
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
	[ -n "${XLA_CHECK_COMPARE_ONLY:-}" ] && break # compare the outputs of a previous run again
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

# The comparison: demo tasks from the two logs, arc tasks from the two CSVs (predicted_action is quoted and
# holds commas: read with a CSV reader).
python3 - "$OUT" "$STEPS_TOL" "$LOSS_TOL" <<'PY' || echo fail >> "$OUT/failed"
import csv, re, sys
out, steps_tol, loss_tol = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
ok = True

def off(a, b):
    """Relative difference of b from a; 0 when equal (an untrained task: 0 steps on both), inf when a is 0 alone."""
    if a == b:
        return 0.0
    return abs(a - b) / abs(a) if a else float("inf")

def demo(path):
    rows, task = [], None
    for line in open(path, encoding="utf-8"):
        if m := re.match(r"== task (\S+):", line):
            task = {"task": m[1]}
            rows.append(task)
        elif m := re.match(r"trained (\d+) steps in \S+ \(loss ([0-9.]+), .*fitted: (\w+)\)", line):
            task.update(steps=int(m[1]), loss=float(m[2]), fitted=m[3])
        elif m := re.match(r"test exact-match accuracy: (\S+)", line):
            task["accuracy"] = m[1]
        elif m := re.match(r"learned action \(discretized gates\): (\S+)", line):
            task["action"] = m[1]
    return rows

go, xla = demo(f"{out}/demo_go.txt"), demo(f"{out}/demo_xla.txt")
if not go or len(go) != len(xla):
    print(f"demo: {len(go)} tasks on go, {len(xla)} on xla")
    ok = False
for g, x in zip(go, xla):
    same = all(g.get(k) is not None and g.get(k) == x.get(k) for k in ("task", "fitted", "accuracy", "action"))
    ds = off(g.get("steps", 0), x.get("steps", 0))
    dl = off(g.get("loss", 0.0), x.get("loss", 0.0))
    v = same and ds <= steps_tol and dl <= loss_tol
    ok &= v
    print(f"demo {g['task']}: go {g.get('steps')} steps, loss {g.get('loss')}, {g['accuracy']}, {g['action']} | "
          f"xla {x.get('steps')} steps, loss {x.get('loss')}, {x['accuracy']}, {x['action']} | "
          f"steps off {ds:.3f}, loss off {dl:.4f}: {'ok' if v else 'FAIL'}")

def arc(path):
    return {r["id"]: r for r in csv.DictReader(open(path, encoding="utf-8"))}

go, xla = arc(f"{out}/arc_go.csv"), arc(f"{out}/arc_xla.csv")
if not go or set(go) != set(xla):
    print(f"arc: tasks {sorted(go)} on go, {sorted(xla)} on xla")
    ok = False
for i in sorted(set(go) & set(xla)):
    g, x = go[i], xla[i]
    ds = off(int(g["steps"]), int(x["steps"]))  # a task the solver leaves untrained has 0 steps on both
    v = all(g[k] == x[k] for k in ("solved", "test_exact", "predicted_action")) and ds <= steps_tol
    ok &= v
    print(f"arc {i}: go solved={g['solved']} exact={g['test_exact']} {g['predicted_action']} ({g['steps']} steps) | "
          f"xla solved={x['solved']} exact={x['test_exact']} {x['predicted_action']} ({x['steps']} steps): {'ok' if v else 'FAIL'}")
print(f"solved: {sum(r['solved'] == 'true' for r in go.values())} of {len(go)} on go, "
      f"{sum(r['solved'] == 'true' for r in xla.values())} of {len(xla)} on xla")
sys.exit(0 if ok else 1)
PY
n_go=$(($(wc -l < "$OUT/arc_go.csv") - 1))
echo "uptime after: $(uptime)"
if [ -s "$OUT/failed" ]; then rm -f "$OUT/failed"; echo "xla-check: FAIL"; exit 1; fi
echo "xla-check: ok (xla:cpu agrees with the Go backend: demo steps within $STEPS_TOL and losses within $LOSS_TOL relative; arc solved, exact and action equal and steps within $STEPS_TOL on $n_go tasks)"
