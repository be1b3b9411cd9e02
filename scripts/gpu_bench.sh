#!/usr/bin/env bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Issue 44 item 4 (run on a lent GPU machine, from a folder holding a built latformer binary, bench/latformer_ref.py,
# bench/latformer_factored_ref.py and compute's matmul/fusedops test binaries): xla:cuda at canvas 10/20/30 against
# PyTorch 2 eager and torch.compile on the same GPU (JAX's CUDA PJRT plugin found in site-packages), then compute's
# kernel tests on that CPU. Output in $OUT. Used for results/gpu/bench_xla_cuda_vs_pytorch2_cuda_h100.txt.
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
exec > >(tee "$O/gpu_run.txt") 2>&1
set -x
date; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
grep -m1 "model name" /proc/cpuinfo; nproc; grep -o -w "avx512f\|avx2" /proc/cpuinfo | sort | uniq -c
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.is_available())'
SITE=$(python3 -c 'import site; print(site.getsitepackages()[0])')
PLUG=$(find / -name 'xla_cuda_plugin.so' -path '*jax_plugins*' 2>/dev/null | head -1)
echo "plugin: $PLUG"
mkdir -p /tmp/pjrt/lib && ln -sf "$PLUG" /tmp/pjrt/lib/pjrt_c_api_cuda_plugin.so
PSITE=$(dirname "$(dirname "$(dirname "$PLUG")")")
ln -sfn "$PSITE/nvidia" /tmp/pjrt/nvidia
export PJRT_PLUGIN_LIBRARY_PATH=/tmp/pjrt/lib GOMLX_NO_AUTO_INSTALL=1 GOMLX_BACKEND=xla:cuda
export LD_LIBRARY_PATH=$(ls -d "$PSITE"/nvidia/*/lib 2>/dev/null | tr '\n' :)$LD_LIBRARY_PATH
chmod +x latformer *.test
# 1. xla:cuda and PyTorch 2 eager on the GPU, canvas 10, 20, 30 (median and min of 20 steps)
timeout 100 ./latformer bench --backends xla:cuda --canvas 10,20,30 --steps 20 --top-ops 0 \
  --reference latformer_ref.py --factored-reference latformer_factored_ref.py --reference-canvas 10,20,30 \
  --torch "pytorch2-cuda=python3 --device cuda" > "$O/gpu_bench_eager.txt" 2>&1; echo "rc=$?"
grep "^bench\|^reference.*backend\|^reference.*compile" "$O/gpu_bench_eager.txt"
# 2. torch.compile (inductor, triton) on the GPU, canvas 30 only (the device time left is short)
timeout 65 ./latformer bench --backends xla:cuda --canvas 30 --steps 20 --top-ops 0 \
  --reference latformer_ref.py --reference-canvas 30 \
  --torch "pytorch2-cuda-compile=python3 --device cuda --compile" > "$O/gpu_bench_compile.txt" 2>&1; echo "rc=$?"
grep "^bench\|compile_seconds" "$O/gpu_bench_compile.txt"
# 3. compute's kernel tests on this CPU (AVX-512 paths where it has them)
unset GOMLX_BACKEND
for t in matmul fusedops; do timeout 20 ./$t.test -test.count=1 2>&1 | tail -3; done
date
