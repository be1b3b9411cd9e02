# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# LatFormer for Go. Run `make help` for the targets.
#
# Variables:
#   GOMLX_BACKEND   compute backend ("go" is the default pure-Go backend; "xla:cpu", "xla:cuda" need XLA)
#   DATA            data directory (ARC/LARC) for the targets below; else $LATFORMER_DATA, else ./data, which
#                   `make download` fills (the latformer command's own default, datasets.DataDir)
#   LATFORMER_DATA  the data directory of the command, the tests and the notebooks, when DATA is not given
#   DEMO_FLAGS      extra flags for `latformer demo`
#   BENCH_FLAGS     extra flags for `latformer bench`
#   GOEXPERIMENT    Go experiments for every build and test ("simd" by default; empty to disable)

GO        ?= go
# Go 1.27, which GoMLX v0.28.16 and compute v0.1.14 need, comes as the toolchain module: a machine with an
# older Go (1.26) downloads it from the module proxy on the first build (about 10 s). GOTOOLCHAIN=local to
# use the installed Go as it is.
GOTOOLCHAIN ?= go1.27.3
export GOTOOLCHAIN
# Go's SIMD experiment (Go >= 1.26, amd64): GoMLX's Go backend then multiplies matrices with AVX2/AVX-512
# kernels. Measured on 2 cores (docs/archive/bench-history.md): the training step 1.9-2.0x faster on both attention
# paths. `make GOEXPERIMENT=` builds without it; other architectures ignore it.
GOEXPERIMENT ?= simd
export GOEXPERIMENT
BIN       := bin
LATFORMER := $(BIN)/latformer
# make bench's importer row: bench/importer, a module of its own that imports the library as a GoMLX program would.
IMPORTER  := $(BIN)/latformer-importer
FACTORED_REFERENCE := bench/latformer_factored_ref.py

.PHONY: t5-fixtures dnc-fixtures xla-check lab lab-check arc-baselines sample-efficiency sample-efficiency-quick noise noise-quick skimage registration registration-quick larc larc-quick serve serve-check slurm-check  notebooks notebooks-full jupyter-setup browser-check docker help setup build test fuzz demo bench bench-go vet nocgo clean annotate arc arc-evaluation arc-quick download stress

help:
	@echo "make setup   build the latformer binary and the tools (gonb, goimports) from go.mod"
	@echo "make demo    learn rotation and translation from 10 examples each, on the pure-Go backend"
	@echo "make test    vet, build the library without cgo, run all tests and a few seconds of fuzzing"
	@echo "make stress  the demo five times, bench, arc-quick and the notebooks, each under a timeout (not part of test)"
	@echo "make bench   ms per training step (canvas 10/20/30; median and min of 20 steps) on the Go backend, as an importing program gets it (bench/importer) and on xla:cpu, the top ops of each Go step, PyTorch at each canvas when available (every side timed interleaved, in blocks): ratios and a contention check"
	@echo "make xla-check  demo and a quick arc on xla:cpu (PJRT CPU plugin from PyPI, in .venv-xla/) against the Go backend"
	@echo "make annotate  categorize the ARC training tasks by geometric prior (counts vs the paper)"
	@echo "make arc       Table 2's LatFormer rows (search alone, LatFormer + search, paper protocol, no search); make arc-quick: 8 tasks"
	@echo "make arc-evaluation  the three rows on ARC's evaluation split (381 tasks, screened by the search)"
	@echo "make arc-baselines  Table 2's baseline rows on the tasks with canvas <= 10 (about 4 h on 2 cores; BASELINES=cnn for one)"
	@echo "make sample-efficiency  Figure 5: accuracy vs training pairs on the synthetic tasks, 5 models, and the translations without the search (about 1 h 55 min on 2 cores)"
	@echo "make noise     Table 4: LatFormer with noisy one-hot inputs, the paper's protocol and with the search (about 35 min on 2 cores)"
	@echo "make registration  Table 5 analogue: image registration vs phase correlation and SIFT (about 15 min)"
	@echo "make t5-fixtures  regenerate t5/testdata with Hugging Face transformers in .venv-t5/ (pinned, from PyPI; not part of test)"
	@echo "make dnc-fixtures regenerate baselines/testdata/dnc_memory_step.json with ixaxaar's PyTorch DNC in .venv-dnc/ (pinned, from PyPI; not part of test)"
	@echo "make larc      Table 3: LARC's geometric test tasks without and with their description (T5=DIR for T5)"
	@echo "make serve   the ARC browser on http://127.0.0.1:8080/: tasks, predictions, masks, labelling (Ctrl-C stops it)"
	@echo "make serve-check  the ARC browser driven in headless Chromium; saves runs/serve-check.png (about 10 s)"
	@echo "                   (each has a -quick target of a few minutes)"
	@echo "make slurm-check  a single-node Slurm cluster runs arc as 3 shards + merge, checks it and a requeue (needs root)"
	@echo "make download  download ARC-AGI-1 into DATA, else \$$LATFORMER_DATA, else ./data (needs internet)"
	@echo "make jupyter-setup  JupyterLab (pinned, in .venv/), GoNB, goimports and gopls for the notebooks; the GoNB kernel"
	@echo "make lab     JupyterLab on http://127.0.0.1:8888/ in notebooks/ (prints the URL with its token; Ctrl-C stops it)"
	@echo "make notebooks  every notebook executed headless in quick mode and checked (make notebooks-full: full mode, updates them)"
	@echo "make lab-check  a fresh clone's notebooks opened untrusted in JupyterLab in headless Chromium: Run All, figures, widgets"
	@echo "make clean   remove build outputs (bin/; the notebooks' .venv/ stays)"

setup: build
	$(GO) build -o $(BIN)/gonb github.com/janpfeifer/gonb
	$(GO) build -o $(BIN)/goimports golang.org/x/tools/cmd/goimports

build:
	$(GO) build -o $(LATFORMER) ./cmd/latformer

demo: build
	$(LATFORMER) demo $(DEMO_FLAGS)

# gofmt on the source tree (works outside a git checkout too: a tarball or a module-cache copy).
vet:
	$(GO) vet ./...
	cd bench/importer && $(GO) vet .
	@unformatted="$$(gofmt -l .)"; test -z "$$unformatted" || { echo "gofmt needed:"; echo "$$unformatted"; exit 1; }

# The library packages must build without cgo (only the command and the notebooks choose a backend;
# XLA lives in the opt-in xlabackend package); so must the command with -tags noxla.
LIBRARY_PKGS := ./hparams/... ./backend/... ./layers/... ./experts/... ./latformer/... ./datasets/... ./search/... ./render/...
nocgo:
	CGO_ENABLED=0 $(GO) build $(LIBRARY_PKGS)
	CGO_ENABLED=0 $(GO) build -tags noxla -o /dev/null ./cmd/latformer

# The tests read the ARC and LARC data from $$LATFORMER_DATA, which this sets (TEST_DATA: DATA, else
# $$LATFORMER_DATA, else ./data); tests that need data skip without it.
TEST_DATA = $(abspath $(or $(DATA),$(LATFORMER_DATA),data))
test: vet nocgo
	LATFORMER_DATA="$(TEST_DATA)" $(GO) test -count=1 -timeout 30m ./...
	$(MAKE) fuzz

# A few seconds of coverage-guided fuzzing of the ARC task parser.
fuzz:
	$(GO) test ./datasets -run '^$$' -fuzz FuzzParseTask -fuzztime 5s

# ARC (Section 5.2). Data directory: DATA=... or $$LATFORMER_DATA, else ./data (`make download` fills it).
DATA ?=
DATA_FLAG = $(if $(DATA),--data $(DATA))
ARC_FLAGS ?=

# Where the experiments' targets (arc, arc-evaluation, arc-baselines, sample-efficiency, noise, registration,
# larc) write: a new run, by default, in RUN_DIR (runs/<target>-<date>-<time>, ignored by git), each results
# file with its _run.txt log beside it, and after each file how its rows compare with the committed one of
# the same name in results/ (`latformer compare`: which units have another outcome). RESUME=1 continues the
# committed files in results/ instead (the runs the committed files came from; their logs get the output
# appended). RUN_DIR=runs/<target>-<date>-<time> continues an interrupted new run. scripts/reproduce.sh
# runs each command.
RESUME ?=
RUN_DIR ?=
RUN_STAMP := $(shell date +%Y%m%d-%H%M%S)
OUT_DIR = $(if $(RESUME),results,$(or $(RUN_DIR),runs/$@-$(RUN_STAMP)))
REPRODUCE = bash scripts/reproduce.sh
download: build
	$(LATFORMER) download $(if $(DATA),--data $(DATA))

annotate: build
	$(LATFORMER) annotate $(if $(DATA),--data $(DATA))

# Table 2's LatFormer rows over the 84 annotated training tasks (docs/arc.md, "Table 2 with the lattice
# search"), each named by its recipe (docs/recipes.md): the lattice search alone (seconds), LatFormer +
# lattice search (recipe default, gate_init=search), the paper's protocol (recipe paper, about 45 minutes on
# 2 cores) and LatFormer without the search (recipe nosearch: gates from their initialization, the training
# recipe chosen on the dev half, docs/arc.md, "Without the search"); a new run under runs/ compared with the
# committed results/arc_*.csv, or with RESUME=1 the committed files continued (an interrupted run resumes, a
# finished row is never overwritten).
arc: build
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_lattice_search.csv arc $(DATA_FLAG) --category all --model lattice_search
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_training_search.csv arc $(DATA_FLAG) --category all --workers 2 --recipe default $(ARC_FLAGS)
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_training.csv arc $(DATA_FLAG) --category all --workers 2 --recipe paper $(ARC_FLAGS)
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_training_nosearch.csv arc $(DATA_FLAG) --category all --workers 2 --recipe nosearch $(ARC_FLAGS)

# The same four rows on the evaluation split (381 tasks; each labeled by annotate.Evaluation): the search
# screens the tasks (recipes evaluation, paper-evaluation and nosearch-evaluation: search_screen), LatFormer
# trains only where it finds an element. Run once, to report (a new run under runs/, compared with the
# committed files; RESUME=1 continues those).
arc-evaluation: build
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_evaluation_lattice_search.csv arc $(DATA_FLAG) --split evaluation --model lattice_search
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_evaluation_search.csv arc $(DATA_FLAG) --split evaluation --workers 2 --recipe evaluation $(ARC_FLAGS)
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_evaluation.csv arc $(DATA_FLAG) --split evaluation --workers 2 --recipe paper-evaluation $(ARC_FLAGS)
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_evaluation_nosearch.csv arc $(DATA_FLAG) --split evaluation --workers 2 --recipe nosearch-evaluation $(ARC_FLAGS)

# Quick mode: 8 tasks, 100 steps; a scratch file under runs/ (ignored), overwritten on purpose.
arc-quick: build
	$(LATFORMER) arc $(if $(DATA),--data $(DATA)) --category all --limit 8 --steps 100 --out runs/arc_quick.csv --force $(ARC_FLAGS)

# Table 2's baseline rows (package baselines): each baseline on the 59 annotated tasks with canvas <= 10, the
# Transformer with augmentation on the rotate, reflect and scale ones only (as in the paper); about 4 h on 2
# cores in all (the DNC 71 min with one worker), resumable (each run's output is appended to arc_baseline_<model>_run.txt beside its file).
# BASELINES=cnn runs one.
BASELINES ?= cnn pixelcnn attention_abs attention_rel transformer_aug transformer dnc
arc-baselines: build
	@bash -o pipefail -ec 'for m in $(BASELINES); do \
		cat=all; [ $$m = transformer_aug ] && cat=rotate,reflect,scale; \
		echo "== $$m (--category $$cat)"; \
		$(REPRODUCE) $(LATFORMER) $(OUT_DIR) arc_baseline_$$m.csv arc $(DATA_FLAG) --model $$m --category $$cat --max-canvas 10 \
			--workers 2 --quiet $(ARC_FLAGS); \
	done'

# Figure 5 and Table 4 on the synthetic tasks (experiments/synthetic), full mode, a new run (RESUME=1:
# the committed files), resumable: an interrupted run continues where it stopped. The *-quick targets take
# a few minutes and write under runs/.
# The second command: Figure 5's translations without the search, gates from the paper's initialization, with
# the search-free recipe chosen on the tasks of seed 1 (recipe fig5-nosearch; docs/sample-efficiency.md,
# "Translations without the search"). The third command: the per-pair families (elements that follow the
# input; docs/sample-efficiency.md).
ANCHORED_FAMILIES = anchor-corner,anchor-crop,anchor-flip,anchor-turn,anchor-touch
sample-efficiency: build
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) sample_efficiency.csv sample-efficiency $(DATA_FLAG) --workers 2 --svg $(OUT_DIR)/sample_efficiency.svg
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) sample_efficiency_nosearch.csv sample-efficiency $(DATA_FLAG) --families translation --models latformer --recipe fig5-nosearch --workers 2
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) sample_efficiency_anchored.csv sample-efficiency $(DATA_FLAG) --families $(ANCHORED_FAMILIES) --models latformer_anchored,latformer_search,transformer --sizes 1,2,4,8 --tasks 1 --test 20 --workers 2 --svg $(OUT_DIR)/sample_efficiency_anchored.svg

sample-efficiency-quick: build
	$(LATFORMER) sample-efficiency --quick $(if $(DATA),--data $(DATA)) --out runs/sample_efficiency_quick.csv --svg runs/sample_efficiency_quick.svg --force

noise: build
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) noise.csv noise $(DATA_FLAG) --workers 2
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) noise_search.csv noise $(DATA_FLAG) --models latformer_search --workers 2

noise-quick: build
	$(LATFORMER) noise --quick $(if $(DATA),--data $(DATA)) --out runs/noise_quick.csv --force

# Table 5's analogue. The reference script (phase correlation, SIFT) runs with Debian's python3-skimage and
# python3-opencv (`make skimage` installs them when missing). LatFormer's images are scikit-image's sample
# images: $$LATFORMER_SKIMAGE_DATA, else the checkout's .venv/ (`make jupyter-setup` installs scikit-image from
# PyPI there; notebook 06 reads them there), else Debian's (registration.FindImagesDir). LatFormer's
# registrations, then phase correlation and SIFT on the same windows, then the table with all three (the
# second latformer call trains nothing).
skimage:
	@/usr/bin/python3 -c "import skimage, cv2" 2>/dev/null || (apt-get update -qq && apt-get install -y -qq python3-skimage python3-opencv)

registration: build skimage
	$(REPRODUCE) -n $(LATFORMER) $(OUT_DIR) registration.csv registration --workers 2 --export runs/registration-pairs --quiet
	/usr/bin/python3 scripts/registration_reference.py --pairs runs/registration-pairs --out $(OUT_DIR)/registration_reference.csv
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) registration.csv registration --export runs/registration-pairs --quiet --reference $(OUT_DIR)/registration_reference.csv

registration-quick: build skimage
	$(LATFORMER) registration --quick --export runs/registration-quick-pairs --out runs/registration_quick.csv --force

# Table 3: LARC's geometric test tasks without and with their description. Without T5 weights the text
# encoder is the bag-of-words stand-in; with them: make larc T5=/path/to/t5-small (out: results/larc_t5.csv).
larc: build
	$(REPRODUCE) $(LATFORMER) $(OUT_DIR) $(if $(T5),larc_t5.csv,larc.csv) larc $(DATA_FLAG) $(if $(T5),--t5 $(T5)) --workers 2 --quiet

larc-quick: build
	$(LATFORMER) larc --quick $(if $(DATA),--data $(DATA)) $(if $(T5),--t5 $(T5)) --out runs/larc_quick.csv --force

# T5 fixtures (t5/testdata) from Hugging Face transformers: a tiny random T5 of each FFN variant saved with
# save_pretrained, a SentencePiece model trained with the sentencepiece package, transformers' token ids and
# T5EncoderModel's hidden states (scripts/t5_hf_fixture.py). The pinned packages (scripts/t5_requirements.txt,
# torch with its CUDA libraries: several GB) go into .venv-t5/ (ignored). Not part of test: the fixtures are
# committed and `make test` reads them without PyPI. Byte-identical when regenerated with the same versions.
T5_VENV := .venv-t5
t5-fixtures:
	@test -x $(T5_VENV)/bin/python || python3 -m venv $(T5_VENV)
	$(T5_VENV)/bin/pip install -q -r scripts/t5_requirements.txt
	HF_HUB_OFFLINE=1 $(T5_VENV)/bin/python scripts/t5_hf_fixture.py --out t5/testdata

# DNC goldens (baselines/testdata/dnc_memory_step.json): the memory step from the paper's equations in numpy,
# checked against ixaxaar's PyTorch DNC (PyPI dnc, pinned in scripts/dnc_requirements.txt), and a matrix's
# singular values (scripts/dnc_fixture.py). The package goes into .venv-dnc/ (ignored), a virtual environment
# over Debian's python3-torch and python3-numpy (installed here when missing). Not part of test: the goldens
# are committed.
DNC_VENV := .venv-dnc
dnc-fixtures:
	@/usr/bin/python3 -c "import torch, numpy" 2>/dev/null || (apt-get update -qq && apt-get install -y -qq python3-torch python3-numpy)
	@test -x $(DNC_VENV)/bin/python || /usr/bin/python3 -m venv --system-site-packages $(DNC_VENV)
	$(DNC_VENV)/bin/pip install -q --no-deps -r scripts/dnc_requirements.txt
	$(DNC_VENV)/bin/python scripts/dnc_fixture.py --out baselines/testdata/dnc_memory_step.json

# The PyTorch reference steps (full attention, bench/latformer_ref.py: shared/bench's model, step and timer
# with --compile and a backend line; mask-only factored, bench/latformer_factored_ref.py) in up to three rows:
# PyTorch 2 from PyPI (bench/requirements.txt, pinned, in .venv-bench/, made here on demand; several GB with
# its CUDA libraries) eager and with torch.compile (inductor on CPU), and Debian's python3-torch 1.13 with
# OpenBLAS (installed here when missing); a row whose PyTorch cannot be had is left out and said so. Both
# sides are timed over the same number of steps (--steps, default 20, after 3 warm-up steps); the output
# names the CPU, the SIMD kernels and each PyTorch's threads, BLAS and oneDNN, gives median and minimum with
# the ratios of each, and warns when another process used the CPUs meanwhile; uptime before and after.
# The Go side is timed at canvas 10, 20 and 30 (BENCH_REFERENCE_CANVAS: the PyTorch rows' canvases too, with
# the ratios at each), on the Go backend and on xla:cpu (the PJRT CPU plugin make xla-check installs into
# .venv-xla/, installed here too when missing; row left out, and said so, when it cannot be had); after each Go
# side a "bench top-ops" line names the ops that took most of its CPU time (a CPU profile of its timed steps).
BENCH_VENV := .venv-bench
XLA_VENV := .venv-xla
REFERENCE ?= bench/latformer_ref.py
BENCH_REFERENCE_CANVAS ?= 10,20,30
$(IMPORTER): FORCE
	cd bench/importer && $(GO) build -o ../../$(IMPORTER) .
FORCE:

bench: build $(IMPORTER)
	@/usr/bin/python3 -c "import torch" 2>/dev/null || (apt-get update -qq && apt-get install -y -qq python3-torch libopenblas0-pthread) || true
	@$(BENCH_VENV)/bin/python -c "import torch" 2>/dev/null || { test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV); \
		$(BENCH_VENV)/bin/pip install -q -r bench/requirements.txt; } || echo "(PyTorch 2 from PyPI could not be installed in $(BENCH_VENV): its rows are left out)"
	@$(XLA_VENV)/bin/python -c "import lammps_jax_pjrt_cpu" 2>/dev/null || { test -x $(XLA_VENV)/bin/python || python3 -m venv $(XLA_VENV); \
		$(XLA_VENV)/bin/pip install -q -r scripts/xla_requirements.txt; } || echo "(the PJRT CPU plugin could not be installed in $(XLA_VENV): the xla:cpu row is left out)"
	@echo "uptime before: $$(uptime)"; \
	backends="default"; xlaenv=""; \
	if plugin=$$($(XLA_VENV)/bin/python -c 'import lammps_jax_pjrt_cpu as p; print(p.PLUGIN_PATH)' 2>/dev/null); then \
		backends="default,xla:cpu"; xlaenv="PJRT_PLUGIN_LIBRARY_PATH=$$(dirname $$plugin) GOMLX_NO_AUTO_INSTALL=1"; \
	else echo "(no PJRT CPU plugin in $(XLA_VENV): row xla:cpu left out)"; fi; \
	rows=""; \
	if $(BENCH_VENV)/bin/python -c "import torch" 2>/dev/null; then \
		rows="pytorch2=$(BENCH_VENV)/bin/python;pytorch2-compile=$(BENCH_VENV)/bin/python --compile"; \
	else echo "(no PyTorch 2 in $(BENCH_VENV): rows pytorch2 left out)"; fi; \
	if /usr/bin/python3 -c "import torch" 2>/dev/null; then rows="$$rows;pytorch1.13=/usr/bin/python3"; \
	else echo "(no Debian python3-torch: row pytorch1.13 left out)"; fi; \
	if [ -n "$$rows" ]; then \
		env $$xlaenv $(LATFORMER) bench --backends "$$backends" --importer $(IMPORTER) --reference $(REFERENCE) --factored-reference $(FACTORED_REFERENCE) \
			--reference-canvas $(BENCH_REFERENCE_CANVAS) --torch "$$rows" $(BENCH_FLAGS); \
	else \
		echo "(PyTorch reference not available: timing the Go side only)"; \
		env $$xlaenv $(LATFORMER) bench --backends "$$backends" --importer $(IMPORTER) $(BENCH_FLAGS); \
	fi; rc=$$?; echo "uptime after: $$(uptime)"; exit $$rc

# xla:cpu against the Go backend: a PJRT CPU plugin from PyPI (scripts/xla_requirements.txt, pinned, in
# .venv-xla/, ignored; about 200 MB), then the demo and a quick arc on both backends, compared
# (scripts/xla_check.sh: same test accuracy, actions and solved tasks; demo steps within 10% and losses within
# 5%). Not part of test; .ci/run runs it after make test. docs/xla-cpu.md: the plugins tried and how to install one by hand.
xla-check: build
	bash scripts/xla_check.sh $(LATFORMER) $(if $(DATA),--data $(DATA))

bench-go:
	$(GO) test -run xxx -bench . -benchtime 5x ./latformer

# Removes what the build made (the binaries, the scratch copies of executed notebooks); never results/
# (committed) nor runs/ (your experiment outputs), nor the notebooks' .venv/ (JupyterLab, GoNB and its tools,
# the kernel: `rm -rf .venv` and `make jupyter-setup` rebuild it).
clean:
	rm -rf $(BIN) /tmp/latformer-notebooks

# Stress check a newcomer can run (not part of `make test`): fails if any run hangs (timeout) or fails.
stress: build
	bash scripts/stress.sh

# ---- Notebooks (GoNB kernel in JupyterLab; executed headless with nbconvert) ----
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
# The notebooks' Python virtual environment (notebooks/jupyter-setup.sh): pinned JupyterLab and nbconvert,
# gonb, goimports and gopls, and the GoNB kernel (in .venv/share/jupyter, found through JUPYTER_PATH first).
VENV := .venv
export PATH := $(CURDIR)/$(VENV)/bin:$(CURDIR)/$(BIN):$(PATH)
export JUPYTER_PATH := $(CURDIR)/$(VENV)/share/jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
# The ARC data for `make lab`, `make lab-check` and `make notebooks`: DATA, else $$LATFORMER_DATA, else
# ./data when it exists (`make download`), else ../shared/data when it exists (our CI machine's directory).
NB_DATA = $(abspath $(or $(DATA),$(LATFORMER_DATA),$(wildcard data),$(wildcard ../shared/data)))

# JupyterLab 4.6 and nbconvert (notebooks/requirements.txt) in .venv/, GoNB and goimports from go.mod's tool
# versions and gopls from tools/gopls/go.mod, into .venv/bin; the GoNB kernel registered in .venv/ with a PATH of
# its own (works from any shell PATH). No apt-get unless python3's venv module is missing (then with sudo when
# not root).
jupyter-setup:
	bash notebooks/jupyter-setup.sh

# JupyterLab on 127.0.0.1 in notebooks/, with LATFORMER_DATA set; prints the URL with its token.
LAB_PORT ?= 8888
lab: jupyter-setup
	@cd notebooks && $(if $(NB_DATA),LATFORMER_DATA="$(NB_DATA)") $(CURDIR)/$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 \
		--port=$(LAB_PORT) $(if $(filter 0,$(shell id -u)),--allow-root)

# A fresh clone of this checkout's HEAD (commit first), `make jupyter-setup` in it, JupyterLab started with a PATH
# that does not hold the clone's bin/ or .venv/bin, and every notebook opened untrusted in headless Chromium:
# the committed figures must render, then Run All (quick mode) must finish without an error, with each notebook's
# figures rendered, and the widgets of 03 and 04 must change their output when moved. Screenshots and the
# executed notebooks go to LAB_CHECK_OUT (not tracked). LAB_CHECK_NOTEBOOKS="01 04" checks only those.
LAB_CHECK_OUT ?= /tmp/latformer-lab-check
LAB_CHECK_NOTEBOOKS ?=
lab-check:
	$(if $(NB_DATA),LATFORMER_DATA="$(NB_DATA)") bash notebooks/browser-check/lab-check.sh "$(LAB_CHECK_OUT)" $(LAB_CHECK_NOTEBOOKS)

# Quick mode (LATFORMER_QUICK=1): first the checks' self-test (notebooks/testdata: a panic, a compile error,
# os.Exit(1) and a killed kernel must each fail with the notebook and the cell named), then every notebook
# executed into a scratch copy by notebooks/execute.sh; fails, naming the notebook and the cell, if any cell fails.
notebooks: jupyter-setup
	@bash notebooks/testdata/selftest.sh /tmp/latformer-notebooks/selftest
	@start=$$(date +%s); for nb in $(NOTEBOOKS); do \
		echo "== $$nb"; t0=$$(date +%s); \
		LATFORMER_QUICK=1 $(if $(NB_DATA),LATFORMER_DATA="$(NB_DATA)") bash notebooks/execute.sh "$$nb" /tmp/latformer-notebooks || exit 1; \
		echo "   ok in $$(( $$(date +%s) - t0 )) s"; \
	done; echo "all notebooks executed in $$(( $$(date +%s) - start )) s (quick mode)"

# Full mode: executes each notebook into /tmp/latformer-notebooks/full, checks it (no error, no panic, no
# machine path) and only then copies it over notebooks/, so the committed copies carry the outputs of a full run.
notebooks-full: jupyter-setup
	@start=$$(date +%s); for nb in $(NOTEBOOKS); do \
		echo "== $$nb"; t0=$$(date +%s); \
		$(if $(NB_DATA),LATFORMER_DATA="$(NB_DATA)") bash notebooks/execute.sh --forbid-path --timeout 3600 "$$nb" /tmp/latformer-notebooks/full \
			|| { echo "$$nb left unchanged"; exit 1; }; \
		cp "/tmp/latformer-notebooks/full/$$(basename "$$nb")" "$$nb"; echo "   ok in $$(( $$(date +%s) - t0 )) s"; \
	done; echo "all notebooks executed in $$(( $$(date +%s) - start )) s (full mode)"

# Opens 01_lattice_masks.ipynb untrusted in JupyterLab (this checkout's .venv, no clone) in headless Chromium,
# runs all cells and saves runs/browser-check.png; fails on a cell error or missing mask images (the same check
# as make lab-check, on one notebook).
browser-check: jupyter-setup
	bash notebooks/browser-check/run.sh

# The ARC browser and annotation page (latformer serve, Appendix B.3, Figure 7b); labels in runs/labels.json.
SERVE_FLAGS ?= --results results/arc_training.csv
serve: build
	$(LATFORMER) serve $(if $(DATA),--data $(DATA)) $(SERVE_FLAGS)

# latformer serve in headless Debian Chromium: list, filter to Reflect, open a task, label it, reload, see the
# label, export; saves runs/serve-check.png; fails on any step.
serve-check: build
	$(if $(DATA),LATFORMER_DATA=$(DATA)) bash notebooks/browser-check/serve-run.sh

# A single-node Slurm cluster on this machine runs a quick arc as an array of 3 shards and the merge job,
# checks the merged rows against an unsharded run, and shows a cancelled, requeued task resuming its shard
# (scripts/slurm/check.sh; installs Debian's slurm-wlm and munge when missing).
slurm-check: build
	bash scripts/slurm/check.sh

docker:
	docker build -f docker/Dockerfile -t latformer .
