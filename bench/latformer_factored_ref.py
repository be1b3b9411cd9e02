#!/usr/bin/python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""PyTorch mask-only attention computed per lattice axis: the same-work yardstick for
`latformer_attention=mask_only` (layers.KroneckerMaskAttention), beside the shared full-attention
reference (shared/bench/latformer_ref.py), whose model, mask expert, training step, timer and malloc
settings it reuses.

With a uniform softmax (no query-key term) the masked attention is (M / rowsum M) V. The reference's mask
is M = (1 - r) K + r P K with K = kron(M_rows, M_cols) and P the 90-degree rotation as a row permutation,
so
    M V      = (1 - r) K V + r P (K V),       K V = M_rows V_grid M_cols^T   (per channel)
    rowsum M = (1 - r) k + r P k,             k = rowsum(M_rows) (x) rowsum(M_cols)
and no n x n tensor is formed. The script checks this against the reference's masked_attention with zero
queries and keys (uniform softmax) and then times a training step of the reference model whose attention is
replaced by the factored one: 3 untimed steps, then --steps timed ones, with the reference's timer
(median_ms: median, minimum and the cores other processes used meanwhile).

With --compile (PyTorch 2) the forward goes through torch.compile (inductor), as the reference's --compile
does; the 3 warm-up steps compile it.

Run: /usr/bin/python3 bench/latformer_factored_ref.py --reference bench/latformer_ref.py
Prints max_abs_diff_vs_dense=..., steps=N step_min_ms=... other_procs_cores_during_timing=..., then
step_ms=... (the median) last.
"""
import argparse, importlib.util, os, sys

import torch

# The reference's allocator settings (see its main): freed memory stays in malloc's heap, backed by
# transparent huge pages, so both PyTorch steps are timed under the same allocator.
GLIBC_TUNABLES = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736"


def load_reference(path):
    spec = importlib.util.spec_from_file_location("latformer_ref", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def factored_attention(expert, x, v):
    """Mask-only attention of the reference expert's mask for values v (B, n, d), per axis."""
    t, f, r, s, tr = expert.gates(x)
    B, side, d = x.shape[0], expert.side, v.shape[-1]
    Mr = expert.axis_mask(t[:, 0], f[:, 0], s[:, 0], tr[:, 0])
    Mc = expert.axis_mask(t[:, 1], f[:, 1], s[:, 1], tr[:, 1])
    grid = v.view(B, side, side, d)
    kv = torch.einsum("bij,bjld,bkl->bikd", Mr, grid, Mc).reshape(B, side * side, d)  # K V
    k = (Mr.sum(-1)[:, :, None] * Mc.sum(-1)[:, None, :]).reshape(B, side * side, 1)  # rowsum K
    rr = r[:, None, None]
    num = (1 - rr) * kv + rr * kv.index_select(1, expert.rot)
    den = (1 - rr) * k + rr * k.index_select(1, expert.rot)
    return num / (den + 1e-9)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--reference", required=True, help="path of shared/bench/latformer_ref.py")
    p.add_argument("--steps", type=int, default=20, help="timed steps (after 3 warm-ups)")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--canvas", type=int, default=30)
    p.add_argument("--d", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--plain-malloc", action="store_true", help="do not re-exec with GLIBC_TUNABLES")
    p.add_argument("--compile", action="store_true", help="time the step with the forward through torch.compile (inductor)")
    p.add_argument("--device", default="cpu", help="torch device of the timed steps (cuda: a GPU; the reference's timer synchronizes)")
    p.add_argument("--serve", action="store_true", help="time blocks of training steps on request from stdin (the reference's serve)")
    args = p.parse_args()
    if args.device != "cpu":
        torch.set_default_device(args.device)
    if not args.plain_malloc and "GLIBC_TUNABLES" not in os.environ:
        os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, GLIBC_TUNABLES=GLIBC_TUNABLES))
    torch.set_num_threads(args.threads)
    ref = load_reference(args.reference)
    print(f"config: torch {torch.__version__}, threads {torch.get_num_threads()}, B={args.batch}, "
          f"canvas={args.canvas}, d={args.d}, factored attention, "
          f"GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')}, compile={args.compile}")
    if hasattr(ref, "backend_line"):
        print(ref.backend_line())
    torch.manual_seed(0)
    model = ref.LatFormer(args.d, args.canvas)
    n = args.canvas ** 2
    x = torch.randint(0, ref.VOCAB, (args.batch, n))
    y = torch.randint(0, ref.VOCAB, (args.batch, n))

    # Equality with the reference's masked attention under a uniform softmax.
    with torch.no_grad():
        e = model.emb(x)
        v = torch.randn(args.batch, n, args.d)
        zeros = torch.zeros_like(v)
        dense = ref.masked_attention(zeros, zeros, v, model.expert(e))[0]
        fact = factored_attention(model.expert, e, v)
        print(f"max_abs_diff_vs_dense={float((dense - fact).abs().max()):.2e}")
        del e, v, zeros, dense, fact

    def forward(tokens):
        h0 = model.emb(tokens)
        _, _, v = model.qkv(h0).chunk(3, -1)
        a = factored_attention(model.expert, h0, v)
        h = model.ln1(h0 + model.out(a))
        return model.head(model.ln2(h + model.ffn(h)))

    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    run = torch.compile(forward, backend="inductor") if args.compile else forward

    def step():
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(run(x).reshape(-1, ref.VOCAB), y.reshape(-1)).backward()
        opt.step()

    if args.serve:
        ref.serve(step)
        return 0
    med, low, other = ref.median_ms(step, 3, args.steps)
    print(f"steps={args.steps} step_min_ms={low:.1f} other_procs_cores_during_timing={other:.2f} "
          f"(>0.1 means contended, re-run on an idle machine)")
    print(f"step_ms={med:.1f}")


if __name__ == "__main__":
    sys.exit(main())
