# LatFormer for Go. Run `make help` for the targets.
#
# Variables:
#   GOMLX_BACKEND   compute backend ("go" is the default pure-Go backend; "xla:cpu", "xla:cuda" need XLA)
#   LATFORMER_DATA  data directory (ARC/LARC); defaults to ../shared/data when it exists
#   DEMO_FLAGS      extra flags for `latformer demo`
#   BENCH_FLAGS     extra flags for `latformer bench`

GO        ?= go
BIN       := bin
LATFORMER := $(BIN)/latformer
REFERENCE ?= ../shared/bench/latformer_ref.py

.PHONY: notebooks notebooks-full jupyter-setup browser-check docker help setup build test fuzz demo bench bench-go vet clean annotate arc arc-quick download

help:
	@echo "make setup   build the latformer binary and the tools (gonb, goimports) from go.mod"
	@echo "make demo    learn rotation and translation from 10 examples each, on the pure-Go backend"
	@echo "make test    vet and run all tests"
	@echo "make bench   ms per training step (canvas 10/20/30), side by side with the PyTorch reference when available"
	@echo "make annotate  categorize the ARC training tasks by geometric prior (counts vs the paper)"
	@echo "make arc       full ARC run over the annotated training tasks (Table 2); make arc-quick: 8 tasks"
	@echo "make download  download ARC-AGI-1 into DATA (needs internet)"
	@echo "make clean   remove build outputs"

setup: build
	$(GO) build -o $(BIN)/gonb github.com/janpfeifer/gonb
	$(GO) build -o $(BIN)/goimports golang.org/x/tools/cmd/goimports

build:
	$(GO) build -o $(LATFORMER) ./cmd/latformer

demo: build
	$(LATFORMER) demo $(DEMO_FLAGS)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1)

test: vet
	$(GO) test -count=1 ./...
	$(MAKE) fuzz

# A few seconds of coverage-guided fuzzing of the ARC task parser.
fuzz:
	$(GO) test ./datasets -run '^$$' -fuzz FuzzParseTask -fuzztime 5s

# ARC (Section 5.2). Data directory: DATA=... or $$LATFORMER_DATA, else ../shared/data.
DATA ?=
ARC_FLAGS ?=
download: build
	$(LATFORMER) download $(if $(DATA),--data $(DATA))

annotate: build
	$(LATFORMER) annotate $(if $(DATA),--data $(DATA))

# Full run over the annotated training tasks (about an hour on 2 cores); --resume continues an interrupted run.
arc: build
	$(LATFORMER) arc $(if $(DATA),--data $(DATA)) --category all --workers 2 --out results/arc_training.csv --resume $(ARC_FLAGS)

# Quick mode: 8 tasks, 100 steps.
arc-quick: build
	$(LATFORMER) arc $(if $(DATA),--data $(DATA)) --category all --limit 8 --steps 100 --out results/arc_quick.csv $(ARC_FLAGS)

# The reference PyTorch step needs: apt-get install -y python3-torch libopenblas0-pthread
bench: build
	@if [ -f "$(REFERENCE)" ] && /usr/bin/python3 -c "import torch" 2>/dev/null; then \
		$(LATFORMER) bench --reference $(REFERENCE) $(BENCH_FLAGS); \
	else \
		echo "(PyTorch reference not available: timing the Go side only)"; \
		$(LATFORMER) bench $(BENCH_FLAGS); \
	fi

bench-go:
	$(GO) test -run xxx -bench . -benchtime 5x ./latformer

clean:
	rm -rf $(BIN) results

# ---- Notebooks (GoNB kernel, executed headless with nbconvert) ----
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
export PATH := $(CURDIR)/$(BIN):$(PATH)

# Jupyter from Debian; GoNB and goimports built from the versions pinned in go.mod; the GoNB kernel registered.
jupyter-setup: setup
	@command -v jupyter-nbconvert >/dev/null || (apt-get update -qq && apt-get install -y -qq jupyter-nbconvert jupyter-client jupyter-notebook)
	$(BIN)/gonb --install --force_deps --logtostderr=false

# Quick mode (LATFORMER_QUICK=1): executes every notebook into a scratch copy, fails if any cell errors.
notebooks: jupyter-setup
	@mkdir -p /tmp/latformer-notebooks
	@start=$$(date +%s); for nb in $(NOTEBOOKS); do \
		echo "== $$nb"; t0=$$(date +%s); \
		LATFORMER_QUICK=1 jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1200 \
			--output-dir /tmp/latformer-notebooks "$$nb" 2>/tmp/latformer-notebooks/log.txt \
			|| { tail -30 /tmp/latformer-notebooks/log.txt; exit 1; }; \
		echo "   ok in $$(( $$(date +%s) - t0 )) s"; \
	done; echo "all notebooks executed in $$(( $$(date +%s) - start )) s (quick mode)"

# Full mode: executes the notebooks in place, so the committed copies carry the outputs of a full run.
notebooks-full: jupyter-setup
	@for nb in $(NOTEBOOKS); do echo "== $$nb"; \
		jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.timeout=3600 "$$nb" || exit 1; done

# Opens 01_lattice_masks.ipynb in headless Chromium through a local Jupyter server, runs all cells and saves
# results/browser-check.png; fails on a kernel error or missing mask images.
browser-check: jupyter-setup
	bash notebooks/browser-check/run.sh

docker:
	docker build -f docker/Dockerfile -t latformer .
