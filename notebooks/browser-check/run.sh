#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Browser check of notebook 01 alone, in this checkout (no clone): JupyterLab from .venv (make jupyter-setup)
# started with a bare PATH, 01_lattice_masks.ipynb opened untrusted in headless Chromium, Run All, no error,
# Figure 2's four masks rendered; saves runs/browser-check.png. Called by `make browser-check`; `make lab-check`
# does the same for every notebook on a fresh clone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${BROWSER_CHECK_OUT:-/tmp/latformer-browser-check}"
LAB_CHECK_IN_PLACE=1 LAB_CHECK_PORT="${BROWSER_CHECK_PORT:-18888}" bash "$here/lab-check.sh" "$out" 01
mkdir -p "$root/runs"
cp "$out/01_lattice_masks-3-first-figure.png" "$root/runs/browser-check.png"
echo "browser-check OK: screenshot runs/browser-check.png"
