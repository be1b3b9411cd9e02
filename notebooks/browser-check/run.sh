#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Browser check: serve the repository with Jupyter Notebook on 127.0.0.1, open notebooks/01_lattice_masks.ipynb
# in headless Debian Chromium, run all cells, and save results/browser-check.png. Called by `make browser-check`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${BROWSER_CHECK_PORT:-18888}"
token="latformer-browser-check"
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
command -v node >/dev/null || { echo "node is needed (apt-get install nodejs npm)"; exit 1; }
if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm install --no-audit --no-fund --silent)
fi
mkdir -p "$root/results"
log="$(mktemp)"
jupyter notebook --no-browser --ip=127.0.0.1 --port="$port" --NotebookApp.token="$token" \
  --NotebookApp.open_browser=False --allow-root --notebook-dir="$root" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
up=0
for _ in $(seq 60); do
  if curl -fs "http://127.0.0.1:$port/api/status?token=$token" >/dev/null 2>&1; then up=1; break; fi
  sleep 1
done
if [ "$up" != 1 ]; then echo "jupyter notebook did not start:"; cat "$log"; exit 1; fi
node "$here/check.mjs" "http://127.0.0.1:$port/notebooks/notebooks/01_lattice_masks.ipynb?token=$token" "$root/results/browser-check.png"
