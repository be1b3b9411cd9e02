#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# `make lab-check`: the notebooks as a new user meets them, in a real browser.
#   1. a fresh clone of this checkout's HEAD in OUT/clone (uncommitted changes are not in it), and
#      `make jupyter-setup` there (its own .venv/, gonb, goimports, gopls, the kernel);
#   2. JupyterLab from the clone's .venv, started with a bare environment: PATH=/usr/bin:/bin (no go, no
#      bin/, no .venv/bin: the kernel must find its tools through its kernel spec), JUPYTER_PATH as `make lab`
#      sets it, LATFORMER_DATA, and LATFORMER_QUICK=1 so that Run All (and a retraining slider) stays short;
#   3. lab-check.mjs opens every notebook (or those named: "01 04") untrusted in headless Chromium (Playwright),
#      checks the committed figures, runs all, moves the widgets, checks the outputs (see there).
# Screenshots, executed notebooks and the server log go to OUT (default /tmp/latformer-lab-check).
#
# Usage: notebooks/browser-check/lab-check.sh [OUT] [NN ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-/tmp/latformer-lab-check}"
shift || true
port="${LAB_CHECK_PORT:-18890}"
token="latformer-lab-check-$RANDOM$RANDOM"
start=$(date +%s)

command -v chromium >/dev/null || { if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; }
command -v node >/dev/null || { echo "node is needed (apt-get install nodejs npm)"; exit 1; }

case "$out" in /|"$root"|"$root"/*) echo "lab-check: OUT must be outside the checkout ($out)"; exit 2 ;; esac
rm -rf "$out"
mkdir -p "$out"
if [ "${LAB_CHECK_IN_PLACE:-0}" = 1 ]; then
	# `make browser-check`: this checkout as it is (its .venv from `make jupyter-setup`), no clone.
	clone="$root"
	echo "== in place: $root"
else
	clone="$out/clone"
	echo "== fresh clone of $(git -C "$root" rev-parse --short HEAD) into $clone"
	git clone -q "$root" "$clone"
	[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] || echo "   (the checkout has uncommitted changes: they are not in the clone)"
	echo "== make jupyter-setup (in the clone)"
	t=$(date +%s)
	# As a user's shell would: without this checkout's bin/ and .venv/bin (the Makefile puts them on PATH).
	user_path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF -e "$root/bin" -e "$root/.venv/bin" | paste -sd: -)"
	PATH="$user_path" make -C "$clone" --no-print-directory jupyter-setup
	echo "   jupyter-setup: $(( $(date +%s) - t )) s"
fi
[ -d "$clone/notebooks/browser-check/node_modules/playwright-core" ] || (cd "$clone/notebooks/browser-check" && npm ci --no-audit --no-fund --silent)

# Lab settings for the check only: every cell rendered (no windowing, so that figures of cells out of view are
# in the page), no autosave (the executed notebooks are written to OUT, not over the clone's), no news or update
# check (no internet).
settings="$out/lab-settings"
mkdir -p "$settings/@jupyterlab/notebook-extension" "$settings/@jupyterlab/apputils-extension" "$settings/@jupyterlab/docmanager-extension"
echo '{"windowingMode": "none"}' >"$settings/@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
echo '{"autosave": false}' >"$settings/@jupyterlab/docmanager-extension/plugin.jupyterlab-settings"
echo '{"fetchNews": "false", "checkForUpdates": false}' >"$settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings"

notebooks=()
if [ $# -gt 0 ]; then
	for n in "$@"; do for f in "$clone"/notebooks/"$n"*.ipynb; do notebooks+=("$(basename "$f")"); done; done
else
	for f in "$clone"/notebooks/*.ipynb; do notebooks+=("$(basename "$f")"); done
fi

# The Go settings of this shell (GOFLAGS, GOPROXY, GOEXPERIMENT, ...) pass; PATH is what the check is about.
goenv=()
while IFS= read -r v; do goenv+=("$v"); done < <(env | grep -E '^GO[A-Z0-9_]*=' || true)
allow_root=()
[ "$(id -u)" != 0 ] || allow_root=(--allow-root)
log="$out/jupyter-lab.log"
echo "== JupyterLab on 127.0.0.1:$port in $clone/notebooks, PATH=/usr/bin:/bin"
(cd "$clone/notebooks" && exec env -i HOME="$HOME" USER="${USER:-$(id -un)}" LANG=C.UTF-8 PATH=/usr/bin:/bin \
	JUPYTER_PATH="$clone/.venv/share/jupyter" LATFORMER_QUICK=1 ${LATFORMER_DATA:+LATFORMER_DATA="$LATFORMER_DATA"} \
	"${goenv[@]}" \
	"$clone/.venv/bin/jupyter" lab --no-browser --ip=127.0.0.1 --port="$port" --ServerApp.port_retries=0 \
	--IdentityProvider.token="$token" --LabApp.expose_app_in_browser=True \
	--LabApp.user_settings_dir="$settings" --LabApp.workspaces_dir="$out/lab-workspaces" "${allow_root[@]}") >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
up=0
for _ in $(seq 90); do
	if curl -fs "http://127.0.0.1:$port/api/status?token=$token" >/dev/null 2>&1; then up=1; break; fi
	kill -0 $server 2>/dev/null || break
	sleep 1
done
if [ "$up" != 1 ]; then echo "jupyter lab did not start:"; cat "$log"; exit 1; fi
rc=0
(cd "$clone/notebooks/browser-check" && node lab-check.mjs "http://127.0.0.1:$port" "$token" "$out" "${notebooks[@]}") || rc=$?
kill $server 2>/dev/null || true
wait $server 2>/dev/null || true
echo "== lab-check: $(( $(date +%s) - start )) s in all (screenshots: $out/*.png; server log: $log)"
exit $rc
