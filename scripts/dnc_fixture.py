#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Goldens for the DNC baseline (baselines/dnc.go): its memory step and its spectral regularization.

Usage (make dnc-fixtures makes the virtual environment, with Debian's python3-torch, and runs this):
    .venv-dnc/bin/python scripts/dnc_fixture.py [--out baselines/testdata/dnc_memory_step.json]

Memory step. paper_step below is the step of Graves et al. 2016 ("Hybrid computing using a neural network
with dynamic external memory", Nature 538, Methods) written from the paper's equations in numpy (float64):
the interface vector parsed in the paper's order and with its functions (oneplus for the strengths, the
logistic sigmoid for the erase vector and the gates, a softmax over each read head's three modes), then
retention, usage, allocation, write weighting, erase and write, the temporal link matrix, precedence,
read weightings and read vectors. Two numerical guards, as in DeepMind's and ixaxaar's implementations
(eps = 1e-6): the usages are moved to eps + (1-eps)u before the allocation's products, and the cosine
similarity is k.M[i] / (|k||M[i]| + eps) with |x| = sqrt(|x|^2 + eps^2). Ties in usage are broken by index
(a stable sort), as the Go code does.

The same step is then run by ixaxaar's PyTorch DNC (PyPI package dnc 1.1.0, dnc.memory.Memory.write and
.read; scripts/dnc_requirements.txt) on the same state and parsed interface, and its distance to the numpy
step is recorded per case (ixaxaar_max_abs_diff) and must be below 1e-6. ixaxaar's Memory differs from the
paper in two places that this script bridges, so that both compute the paper's step:
  - its read modes are ordered (backward, forward, content), the paper's (backward, content, forward):
    they are passed reordered;
  - its forward() parses the interface with tanh on the keys and the write vector and a softplus (not
    oneplus) on the strengths: the values parsed the paper's way are passed to write() and read().
Its cosine similarity has no eps in the norms (k.M[i] / (|k||M[i]| + eps)): a difference below 1e-9 here.
(The repository's later memory.py divides the similarity by W as well; the PyPI release does not.)
A case whose usages tie (the zero state, where every usage is 0) is compared only to the numpy step:
torch.topk's order among ties is not specified.

Spectral regularization. A fixed 7 x 5 matrix and its singular values by numpy.linalg.svd, with the top
singular vectors (the gradient of the largest singular value is u v^T).

Deterministic: running it twice writes the same file.
"""
import argparse
import json
import platform
import sys

import numpy as np

EPS = 1e-6
# The interface vector's layout, in the paper's order (baselines/dnc.go, dncInterface).
LAYOUT = [
    ("read_keys", lambda r, w: r * w),
    ("read_strengths", lambda r, w: r),
    ("write_key", lambda r, w: w),
    ("write_strength", lambda r, w: 1),
    ("erase", lambda r, w: w),
    ("write_vector", lambda r, w: w),
    ("free_gates", lambda r, w: r),
    ("allocation_gate", lambda r, w: 1),
    ("write_gate", lambda r, w: 1),
    ("read_modes", lambda r, w: 3 * r),
]


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def parse(xi, r, w):
    """The interface parameters of xi [B, size], the paper's functions applied."""
    b, seg, at = xi.shape[0], {}, 0
    for name, size in LAYOUT:
        seg[name] = xi[:, at:at + size(r, w)]
        at += size(r, w)
    oneplus = lambda x: 1 + np.log1p(np.exp(x))
    return dict(read_keys=seg["read_keys"].reshape(b, r, w), read_strengths=oneplus(seg["read_strengths"]),
                write_key=seg["write_key"], write_strength=oneplus(seg["write_strength"]),
                erase=sigmoid(seg["erase"]), write_vector=seg["write_vector"], free_gates=sigmoid(seg["free_gates"]),
                allocation_gate=sigmoid(seg["allocation_gate"]), write_gate=sigmoid(seg["write_gate"]),
                read_modes=softmax(seg["read_modes"].reshape(b, r, 3)))


def content(memory, keys, strengths):
    """C(M, k, beta) for keys [B, K, W], strengths [B, K]: [B, K, N]."""
    norm = lambda x: np.sqrt((x * x).sum(-1) + EPS * EPS)
    sim = np.einsum("bkw,bnw->bkn", keys, memory) / (norm(keys)[:, :, None] * norm(memory)[:, None, :] + EPS)
    return softmax(strengths[:, :, None] * sim)


def paper_step(s, p):
    """One memory step from state s (memory, usage, link, precedence, write, read) and parsed interface p."""
    psi = np.prod(1 - p["free_gates"][:, :, None] * s["read"], axis=1)
    usage = (s["usage"] + s["write"] - s["usage"] * s["write"]) * psi
    u = EPS + (1 - EPS) * usage
    alloc = np.zeros_like(u)
    for b in range(u.shape[0]):
        order = np.argsort(u[b], kind="stable")
        prod = 1.0
        for j in order:
            alloc[b, j] = (1 - u[b, j]) * prod
            prod *= u[b, j]
    wc = content(s["memory"], p["write_key"][:, None, :], p["write_strength"])[:, 0, :]
    ag, wg = p["allocation_gate"], p["write_gate"]
    write = wg * (ag * alloc + (1 - ag) * wc)
    memory = s["memory"] * (1 - write[:, :, None] * p["erase"][:, None, :]) + write[:, :, None] * p["write_vector"][:, None, :]
    n = u.shape[1]
    link = (1 - write[:, :, None] - write[:, None, :]) * s["link"] + write[:, :, None] * s["precedence"][:, None, :]
    link = link * (1 - np.eye(n))[None]
    precedence = (1 - write.sum(-1, keepdims=True)) * s["precedence"] + write
    forward = np.einsum("bij,brj->bri", link, s["read"])
    backward = np.einsum("bij,bri->brj", link, s["read"])
    cr = content(memory, p["read_keys"], p["read_strengths"])
    m = p["read_modes"]
    read = m[:, :, 0:1] * backward + m[:, :, 1:2] * cr + m[:, :, 2:3] * forward
    return dict(memory=memory, usage=usage, link=link, precedence=precedence, write=write, read=read,
                read_vectors=np.einsum("brn,bnw->brw", read, memory))


def ixaxaar_step(s, p, r, w):
    """The same step by ixaxaar's dnc.memory.Memory (see the module doc for what is bridged)."""
    import torch
    from dnc.memory import Memory
    t = lambda x: torch.from_numpy(np.ascontiguousarray(x))
    b, n = s["usage"].shape
    mem = Memory(input_size=1, mem_size=n, cell_size=w, read_heads=r, gpu_id=-1)
    hidden = {"memory": t(s["memory"]), "link_matrix": t(s["link"][:, None]), "precedence": t(s["precedence"][:, None]),
              "read_weights": t(s["read"]), "write_weights": t(s["write"][:, None]), "usage_vector": t(s["usage"])}
    with torch.no_grad():
        hidden = mem.write(t(p["write_key"][:, None]), t(p["write_vector"][:, None]), t(p["erase"][:, None]),
                           t(p["free_gates"]), t(p["read_strengths"]), t(p["write_strength"]),
                           t(p["write_gate"]), t(p["allocation_gate"]), hidden)
        reads, hidden = mem.read(t(p["read_keys"]), t(p["read_strengths"]), t(p["read_modes"][:, :, [0, 2, 1]]), hidden)
    return dict(memory=hidden["memory"].numpy(), usage=hidden["usage_vector"].numpy(), link=hidden["link_matrix"].numpy()[:, 0],
                precedence=hidden["precedence"].numpy()[:, 0], write=hidden["write_weights"].numpy()[:, 0],
                read=hidden["read_weights"].numpy(), read_vectors=reads.numpy())


def random_state(rng, b, n, w, r):
    """A valid state: weightings that sum to at most 1, usages in (0, 1), links with a zero diagonal."""
    link = rng.uniform(0, 1, (b, n, n)) / n
    link *= 1 - np.eye(n)[None]
    return dict(memory=rng.normal(size=(b, n, w)), usage=rng.uniform(0.02, 0.98, (b, n)), link=link,
                precedence=0.8 * softmax(rng.normal(size=(b, n))), write=0.9 * softmax(rng.normal(size=(b, n))),
                read=0.95 * softmax(rng.normal(size=(b, r, n))))


def zero_state(b, n, w, r):
    return dict(memory=np.zeros((b, n, w)), usage=np.zeros((b, n)), link=np.zeros((b, n, n)), precedence=np.zeros((b, n)),
                write=np.zeros((b, n)), read=np.zeros((b, r, n)))


def flat(x):
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="baselines/testdata/dnc_memory_step.json")
    args = ap.parse_args()
    try:
        import dnc  # noqa: F401
        import torch
        versions = {"dnc": getattr(dnc, "__version__", None), "torch": torch.__version__}
        from importlib.metadata import version
        versions["dnc"] = version("dnc")
        torch.set_num_threads(1)
    except ImportError as e:
        sys.exit(f"dnc_fixture.py: ixaxaar's dnc (PyPI dnc) is needed: {e}; run make dnc-fixtures")
    versions.update(numpy=np.__version__, python=platform.python_version())
    rng = np.random.default_rng(20161012)  # the paper's publication date
    b, n, w, r = 2, 6, 4, 2
    size = sum(f(r, w) for _, f in LAYOUT)
    cases = []

    def add(name, state, xi, ties=False):
        p = parse(xi, r, w)
        out = paper_step(state, p)
        case = {"name": name, "batch": state["usage"].shape[0], "slots": n, "width": w, "heads": r, "interface": flat(xi),
                "in": {k: flat(v) for k, v in state.items()}, "out": {k: flat(v) for k, v in out.items()}}
        theirs = ixaxaar_step(state, p, r, w)
        diff = max(float(np.abs(out[k] - theirs[k]).max()) for k in out)
        case["ixaxaar_max_abs_diff"] = diff
        if not ties and diff > 1e-6:
            sys.exit(f"dnc_fixture.py: case {name}: ixaxaar's step differs from the paper's by {diff:g}")
        cases.append(case)
        return out

    add("random state", random_state(rng, b, n, w, r), 1.5 * rng.normal(size=(b, size)))
    # Four chained steps from a random state: each step's output state is the next one's input.
    state = random_state(rng, b, n, w, r)
    for i in range(4):
        out = add(f"chain step {i + 1}", state, 1.5 * rng.normal(size=(b, size)))
        state = {k: out[k] for k in ("memory", "usage", "link", "precedence", "write", "read")}
    # The start of every sequence: all zeros, every usage tied (the lowest index is allocated first).
    add("zero state", zero_state(b, n, w, r), 1.5 * rng.normal(size=(b, size)), ties=True)

    m = rng.normal(size=(7, 5))
    u, sv, vt = np.linalg.svd(m)
    spectral = {"rows": 7, "cols": 5, "matrix": flat(m), "singular_values": flat(sv), "u": flat(u[:, 0]), "v": flat(vt[0])}
    doc = {"source": "scripts/dnc_fixture.py", "versions": versions, "epsilon": EPS, "cases": cases, "spectral": spectral}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    for c in cases:
        print(f"{c['name']}: ixaxaar vs paper max |diff| {c['ixaxaar_max_abs_diff']:.3g}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
