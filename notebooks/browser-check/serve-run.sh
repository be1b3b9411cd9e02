#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Browser check of the ARC browser: builds bin/latformer, writes two small results CSVs (the current
# format with predictions, and an older one without), starts `latformer serve` on a free loopback port
# with a temporary labels file, and drives it in headless Debian Chromium (serve-check.mjs): list, filter
# to Reflect, open a task, label it, reload, see the label. Saves runs/serve-check.png. Called by
# `make serve-check`; needs the ARC training tasks ($LATFORMER_DATA, else the checkout's data/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
task="${SERVE_CHECK_TASK:-68b16354}" # a reflect task of the committed annotation (flip upside down)
start=$(date +%s)
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
command -v node >/dev/null || { echo "node is needed (apt-get install nodejs npm)"; exit 1; }
if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm install --no-audit --no-fund --silent)
fi
(cd "$root" && GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}" GOEXPERIMENT="${GOEXPERIMENT-simd}" go build -o bin/latformer ./cmd/latformer)

tmp="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

data="${LATFORMER_DATA:-$root/data}"
missing=0
for id in "$task" 67a3c6ac 3c9b0459; do
  [ -f "$data/arc/training/$id.json" ] || missing=1
done
if [ "$missing" = 1 ]; then
  # No ARC data (a fresh machine): three tasks written here under the ids the check uses, with the
  # transformations the committed annotation gives them (flip upside down, flip left-right, rotate 180°).
  echo "serve-check: no ARC tasks under $data (LATFORMER_DATA or bin/latformer download): using three generated tasks"
  data="$tmp/data"
  mkdir -p "$data/arc/training"
  node --input-type=module - "$data/arc/training" "$task" <<'EOF'
import { writeFileSync } from "node:fs";
const [dir, task] = process.argv.slice(2);
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 10;
const grid = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, rnd));
const flipRows = (g) => [...g].reverse();
const flipCols = (g) => g.map((row) => [...row].reverse());
for (const [id, f] of [[task, flipRows], ["67a3c6ac", flipCols], ["3c9b0459", (g) => flipCols(flipRows(g))]]) {
  const pair = (n) => { const g = grid(n, n); return { input: g, output: f(g) }; };
  writeFileSync(`${dir}/${id}.json`, JSON.stringify({ train: [pair(3), pair(4), pair(5)], test: [pair(6)] }));
}
EOF
fi

# Results in the current format (experiments/arc.Header, with predictions): the task solved with its
# expected output, 67a3c6ac wrong (the test input predicted), 3c9b0459 solved; and a file in the older
# format (no predictions column), for which the page says "prediction not recorded".
node --input-type=module - "$data/arc/training" "$task" "$tmp/results.csv" "$tmp/results-old.csv" <<'EOF'
import { readFileSync, writeFileSync } from "node:fs";
const [dir, task, out, old] = process.argv.slice(2);
const test = (id) => JSON.parse(readFileSync(`${dir}/${id}.json`, "utf8")).test[0];
const q = (s) => '"' + s.replace(/"/g, '""') + '"';
const header = "id,category,solved,test_exact,test_total,size_only,steps,seconds,canvas,gates,predicted_action,compile_seconds,restarts,restarts_fitted,restart,total_steps,model";
const side = (t) => Math.max(t.input.length, t.input[0].length, t.output.length, t.output[0].length);
const row = (id, cat, solved, action, pred) =>
  [id, cat, solved, solved ? 1 : 0, 1, 0, 120, "3.1", side(test(id)), "hard", q(action), "0.01", 1, 1, 0, 120, "latformer"].join(",") +
  (pred === undefined ? "" : "," + q(JSON.stringify([pred])));
writeFileSync(out, [header + ",predictions",
  row(task, "reflect", true, "reflect(0)", test(task).output),
  row("67a3c6ac", "reflect", false, "shift(0,-3)∘reflect(1)", test("67a3c6ac").input),
  row("3c9b0459", "rotate", true, "reflect(0)∘reflect(1)", test("3c9b0459").output)].join("\n") + "\n");
writeFileSync(old, [header, row(task, "reflect", true, "reflect(0)")].join("\n") + "\n");
EOF

log="$tmp/serve.log"
: >"$log" # exists before the server's redirection opens it: the sed below must never see it missing (set -e)
"$root/bin/latformer" serve --data "$data" --results "$tmp/results.csv" --results "$tmp/results-old.csv" \
  --labels "$tmp/labels.json" --addr 127.0.0.1:0 >"$log" 2>&1 &
server=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's|^serving \(http://[^ ]*\)/ .*|\1|p' "$log")"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { echo "latformer serve exited:"; cat "$log"; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "latformer serve did not start in 20 s:"; cat "$log"; exit 1; }
echo "latformer serve at $url"
mkdir -p "$root/runs"
node "$here/serve-check.mjs" "$url" "$task" "$root/runs/serve-check.png"
node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (!d.labels[process.argv[2]]) process.exit(1)' "$tmp/labels.json" "$task" \
  || { echo "serve-check: the label is not in the labels file"; exit 1; }
echo "labels file valid JSON with the label of $task"
kill -INT "$server"
wait "$server" || { echo "latformer serve did not stop cleanly on SIGINT:"; cat "$log"; exit 1; }
server=""
grep -q '^stopped$' "$log" || { echo "latformer serve did not report a clean stop:"; cat "$log"; exit 1; }
echo "latformer serve stopped cleanly on Ctrl-C; serve-check passed in $(( $(date +%s) - start )) s"
