#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# `make jupyter-setup`: everything the notebooks need, inside the checkout, for any user (root or not).
#
#   1. .venv/            a Python virtual environment with the pinned Jupyter of notebooks/requirements.txt
#                        (JupyterLab 4.6, Notebook 7.6, nbconvert, nbclient) and scikit-image, whose wheel
#                        holds the sample images notebook 06 and `latformer registration` read
#                        (.venv/lib/python3*/site-packages/skimage/data: registration.FindImagesDir), from PyPI;
#                        re-installed only when that file changes.
#   2. .venv/bin/        gonb and goimports built from the versions in go.mod's tool block, gopls from
#                        tools/gopls/go.mod's (a module of its own, see there).
#   3. .venv/share/jupyter/kernels/gonb/kernel.json
#                        the GoNB kernel, registered in the virtual environment (not in ~/.local), with an
#                        environment that puts .venv/bin and this Go toolchain's bin first on the kernel's PATH,
#                        so that GoNB finds go, goimports and gopls whatever PATH Jupyter was started with.
#
# `make lab`, `make notebooks` and `make lab-check` run .venv/bin/jupyter with JUPYTER_PATH=.venv/share/jupyter,
# so this kernel is used even when ~/.local/share/jupyter holds another "gonb" kernel (an older setup's).
# Nothing here is under bin/, so `make clean` leaves the kernel working.
#
# Needs python3 with its venv module (Debian: python3-venv, installed here with apt-get when missing: as root
# directly, otherwise through sudo) and the go command.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VENV:-$root/.venv}"
python="${PYTHON:-python3}"
go="${GO:-go}"
# Go 1.27 (GoMLX v0.28.16 needs it) as the toolchain module, as the Makefile sets it; the kernel gets it too.
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}"
cd "$root"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. The virtual environment.
if [ ! -x "$venv/bin/python" ]; then
	echo "== creating $venv"
	if ! "$python" -m venv "$venv" 2>/dev/null; then
		rm -rf "$venv"
		echo "   $python -m venv failed: installing Debian's python3-venv (apt-get$([ "$(id -u)" = 0 ] || echo ", through sudo"))"
		as_root apt-get update -qq
		as_root apt-get install -y -qq python3-venv
		"$python" -m venv "$venv"
	fi
fi
req="notebooks/requirements.txt"
stamp="$venv/.latformer-requirements"
if ! cmp -s "$req" "$stamp"; then
	echo "== pip install -r $req into $venv"
	"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
	cp "$req" "$stamp"
fi

# 2. GoNB and its tools, at the versions pinned in go.mod and tools/gopls/go.mod.
echo "== building gonb, goimports (go.mod) and gopls (tools/gopls/go.mod) into $venv/bin"
"$go" build -o "$venv/bin/" github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports
"$go" build -C tools/gopls -o "$venv/bin/" golang.org/x/tools/gopls

# 3. The kernel, registered in the virtual environment, with its own PATH.
gobin="$(dirname "$(command -v "$go")")"
goroot_bin="$("$go" env GOROOT)/bin"
kernels="$venv/share/jupyter"
JUPYTER_DATA_DIR="$kernels" PATH="$venv/bin:$PATH" "$venv/bin/gonb" --install --logtostderr=false
"$venv/bin/python" - "$kernels/kernels/gonb/kernel.json" "$venv/bin" "$goroot_bin" "$gobin" <<'EOF'
import json, os, sys
path, venv_bin, goroot_bin, go_bin = sys.argv[1:]
spec = json.load(open(path))
dirs = []
for d in (venv_bin, goroot_bin, go_bin):
    if d not in dirs:
        dirs.append(d)
# jupyter_client substitutes ${PATH} with the server's PATH when it starts the kernel.
spec.setdefault("env", {})["PATH"] = ":".join(dirs) + ":${PATH}"
spec["env"]["GOTOOLCHAIN"] = os.environ["GOTOOLCHAIN"]
spec["display_name"] = "Go (gonb)"
json.dump(spec, open(path, "w"), indent=1)
print("GoNB kernel registered in", path, "with PATH =", spec["env"]["PATH"], "and GOTOOLCHAIN =", spec["env"]["GOTOOLCHAIN"])
EOF
