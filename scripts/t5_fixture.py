#!/usr/bin/python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Tiny T5 fixtures for the Go T5 encoder (package t5): a SentencePiece model, two tiny checkpoints and
golden encoder outputs.

Usage:
    /usr/bin/python3 scripts/t5_fixture.py [--out t5/testdata]

Needs torch, numpy and Debian's python3-sentencepiece (apt-get install -y python3-sentencepiece); run it
with /usr/bin/python3, not a virtualenv that lacks them. It is deterministic: running it twice writes
byte-identical files. It writes

    <out>/tiny/{spiece.model,config.json,model.safetensors,golden.json}        relu FFN (T5 v1.0, t5-small)
    <out>/tiny-gated/{spiece.model,config.json,model.safetensors,golden.json}  gated-gelu FFN (T5 v1.1, flan-t5)

Tokenizer. A SentencePiece unigram model trained on the ARC-style corpus below with T5's special ids
(<pad>=0, </s>=1, <unk>=2, no <s>). The trainer runs inside a temporary directory with relative paths,
so that the paths recorded in the model's trainer_spec do not change from run to run. Its exact
arguments are SPM_TRAINER_ARGS:

    --input=corpus.txt --model_prefix=spiece --model_type=unigram --vocab_size=157
    --pad_id=0 --pad_piece=<pad> --eos_id=1 --eos_piece=</s> --unk_id=2 --unk_piece=<unk> --bos_id=-1
    --character_coverage=1.0 --input_sentence_size=0 --shuffle_input_sentence=false --num_threads=1
    --hard_vocab_limit=false --normalization_rule_tsv=rules.tsv --minloglevel=2

Real T5 normalizes with SentencePiece's built-in "nmt_nfkc" rules, whose precompiled charsmap alone is
about 238 KB per model file. To keep the fixture small the model is instead trained with a small
user-defined rule table (rules.tsv, written by normalization_rules() below: the NFKC mappings of a few
Unicode blocks - Latin-1 symbols, fullwidth ASCII, ligatures, typographic spaces, circled digits -,
the compositions of a few letters with combining accents, tab/newline/CR to a space and zero-width
spaces removed). It is stored in the model the same way (normalizer_spec.precompiled_charsmap, name
"user_defined"), so a tokenizer that reads real T5's charsmap reads this one too.

Checkpoints. Hugging Face T5Config-style config.json and a model.safetensors written by hand (8-byte
little-endian header length N, a JSON header padded with spaces to 8+N = 0 mod 8, raw little-endian
float32 data in header order), with transformers' tensor names and PyTorch Linear layouts
([out_features, in_features]). Besides the encoder it holds a few decoder tensors (and lm_head.weight
in tiny-gated) that an encoder loader must ignore; tiny-gated has no encoder.embed_tokens.weight, so the
loader must fall back to shared.weight.

Golden outputs. The encoder's last hidden state, computed by the re-implementation of transformers'
T5 encoder (modeling_t5.py) below, in float64 and reported as float32; and, where `import transformers`
works, the same checkpoint loaded with transformers.T5EncoderModel, which must agree within 1e-5 when run
in float64 (and within 1e-4 as loaded, in float32).
"""
import argparse
import hashlib
import json
import math
import os
import shutil
import struct
import sys
import tempfile
import unicodedata

import numpy as np
import sentencepiece as spm
import torch

torch.set_num_threads(1)

SPM_TRAINER_ARGS = (
    "--input=corpus.txt --model_prefix=spiece --model_type=unigram --vocab_size=157 "
    "--pad_id=0 --pad_piece=<pad> --eos_id=1 --eos_piece=</s> --unk_id=2 --unk_piece=<unk> --bos_id=-1 "
    "--character_coverage=1.0 --input_sentence_size=0 --shuffle_input_sentence=false --num_threads=1 "
    "--hard_vocab_limit=false --normalization_rule_tsv=rules.tsv --minloglevel=2"
)

# Training corpus, written for this fixture in the style of ARC task descriptions.
CORPUS = [
    "Rotate the pattern 90 degrees clockwise.",
    "Copy the blue square to the right.",
    "The output is the input scaled by two.",
    "Flip the grid horizontally and keep the colors.",
    "Fill every enclosed region with yellow.",
    "Draw a red line from the green cell to the edge of the grid.",
    "The output grid is the input grid rotated by 180 degrees.",
    "Count the blue cells and draw that many gray squares in a row.",
    "Move each object down until it touches the bottom of the grid.",
    "Replace every black cell that touches a red cell with orange.",
    "The largest shape is copied to the top left corner.",
    "Mirror the left half of the grid onto the right half.",
    "Each colored pixel grows into a three by three square.",
    "Remove the noise and keep only the biggest object.",
    "Connect the two yellow cells with a straight blue line.",
    "The output is the input repeated three times horizontally.",
    "Rotate each shape by 90 degrees around its center.",
    "Color the border of the grid purple.",
    "Find the shape that appears only once and output it.",
    "Sort the columns by the number of colored cells.",
    "The grid is split into four parts; the output is the part that differs.",
    "Extend each line until it reaches another object.",
    "Swap the red and green colors in the whole grid.",
    "The small square is moved one cell to the left.",
    "Copy the pattern in the top row to every other row.",
    "Shift all the cells one column to the right.",
    "The output is the input flipped vertically.",
    "Keep the cells where both halves of the grid are colored.",
    "Draw a diagonal line of gray cells from the top left corner.",
    "Each object is recolored by its size: small ones blue, large ones red.",
    "The background is black and the shapes are made of single colors.",
    "Crop the grid to the bounding box of the green object.",
    "Scale the input by three and tile it in a two by two grid.",
    "Fill the holes inside every square with the color of its border.",
    "The pattern repeats every four cells; complete the missing part.",
    "Rotate the pattern 270 degrees and place it below the input.",
    "Gravity pulls all the yellow cells to the bottom row.",
    "The output has one row for each distinct color in the input.",
    "Draw a cross through every red cell, using its row and column.",
    "Outline each object with a one cell wide border of blue.",
    "Copy the shape at the top to each marked position.",
    "The output is a 3 by 3 grid showing the most common color.",
    "Count the objects; the output is a row with that many cells.",
    "Move the blue square until it touches the red wall.",
    "Invert the colors: black becomes white and white becomes black.",
    "The output is the input with every other column removed.",
    "Stack the two halves of the grid on top of each other.",
    "Repeat the input pattern to fill a grid twice as wide.",
    "Only the cells that are the same in both grids stay colored.",
    "Each green cell spreads to its four neighbors.",
    "Rotate the grid 90 degrees counterclockwise, then flip it.",
    "The color of each row is given by the first cell of the row.",
    "Draw the shape again, scaled by two, in the empty corner.",
    "Connect every pair of cells that share a row or a column.",
    "The output is the input with the largest object removed.",
    "Copy the red pattern from the left grid onto the right grid.",
    "Paint the cells between the two lines light blue.",
    "Each square moves one step toward the center of the grid.",
    "The output is the input shifted down by one row.",
    "Find the odd one out and paint it magenta.",
    "Keep the rest of the grid (the background) unchanged!",
]

# Texts of the golden outputs; BATCH indexes the two that are also encoded together, padded.
TEXTS = [
    "copy the blue square to the right",                          # ordinary
    "Move the Red Square two cells left; keep the rest (black)!",  # capitals and punctuation
    "the xylophone grid",                                         # a word not in the corpus
    ("Rotate the pattern by 90 degrees, copy each blue square to the right, then fill the holes "
     "of the largest object with yellow."),                       # long (~40 tokens)
    "grid",                                                       # a single word
    "caf\u00e9 \u00fcn\u00efcode \u65e5\u672c",                    # "café ünïcode 日本": unknown characters,
                                                                  # the last two merged into one <unk>
    "\uff23opy the \ufb01gure\u00a0twice, cafe\u0301",            # "Ｃopy the ﬁgure<NBSP>twice, cafe+U+0301": normalization
]
BATCH = (0, 3)

D_MODEL, D_KV, D_FF, NUM_LAYERS, NUM_HEADS = 16, 4, 32, 2, 4
NUM_BUCKETS, MAX_DISTANCE, EPS = 8, 20, 1e-6
SEEDS = {"tiny": 20240601, "tiny-gated": 20240602}


def normalization_rules():
    """The lines of rules.tsv: hex code points of the source, a tab, hex code points of the target."""
    rules = {}

    def add(src, dst):
        rules[src] = dst

    blocks = [(0x00A0, 0x00FF), (0x2000, 0x200A), (0x2024, 0x2026), (0x2122, 0x2122), (0x2460, 0x2473),
              (0x3000, 0x3000), (0xFB00, 0xFB06), (0xFF01, 0xFF5E)]
    for lo, hi in blocks:
        for cp in range(lo, hi + 1):
            c = chr(cp)
            n = unicodedata.normalize("NFKC", c)
            if n != c:
                add(c, n)
    for base in "AEIOUYCNaeiouycn":
        for mark in "\u0300\u0301\u0302\u0303\u0308\u0327":
            n = unicodedata.normalize("NFKC", base + mark)
            if len(n) == 1:
                add(base + mark, n)
    for c in "\t\n\r":
        add(c, " ")
    for c in "\u200b\ufeff":
        add(c, "")

    def hexs(s):
        return " ".join("%X" % ord(ch) for ch in s)

    return ["%s\t%s" % (hexs(k), hexs(v)) for k, v in sorted(rules.items())]


def train_tokenizer(workdir):
    """Trains the SentencePiece model in workdir (relative paths) and returns the bytes of spiece.model."""
    for s in CORPUS:
        assert "\n" not in s
    with open(os.path.join(workdir, "corpus.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(CORPUS) + "\n")
    with open(os.path.join(workdir, "rules.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(normalization_rules()) + "\n")
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        spm.SentencePieceTrainer.train(SPM_TRAINER_ARGS)
    finally:
        os.chdir(cwd)
    with open(os.path.join(workdir, "spiece.model"), "rb") as f:
        return f.read()


# ----------------------------------------------------------------------------------------------------
# Weights and files.

def make_weights(name, vocab_size):
    """Ordered dict name -> float32 numpy array: the checkpoint's tensors (encoder plus a few decoder
    tensors the loader must ignore)."""
    gated = name == "tiny-gated"
    g = torch.Generator().manual_seed(SEEDS[name])

    def mat(*shape, std=0.3):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * std).float().numpy()

    def norm():
        return (1.0 + 0.1 * torch.randn(D_MODEL, generator=g, dtype=torch.float64)).float().numpy()

    inner = NUM_HEADS * D_KV
    w = {}
    w["shared.weight"] = mat(vocab_size, D_MODEL)
    if not gated:
        w["encoder.embed_tokens.weight"] = w["shared.weight"].copy()
    for i in range(NUM_LAYERS):
        p = "encoder.block.%d." % i
        for m in "qkv":
            w[p + "layer.0.SelfAttention.%s.weight" % m] = mat(inner, D_MODEL)
        w[p + "layer.0.SelfAttention.o.weight"] = mat(D_MODEL, inner)
        if i == 0:
            w[p + "layer.0.SelfAttention.relative_attention_bias.weight"] = mat(NUM_BUCKETS, NUM_HEADS, std=0.5)
        w[p + "layer.0.layer_norm.weight"] = norm()
        if gated:
            w[p + "layer.1.DenseReluDense.wi_0.weight"] = mat(D_FF, D_MODEL)
            w[p + "layer.1.DenseReluDense.wi_1.weight"] = mat(D_FF, D_MODEL)
        else:
            w[p + "layer.1.DenseReluDense.wi.weight"] = mat(D_FF, D_MODEL)
        w[p + "layer.1.DenseReluDense.wo.weight"] = mat(D_MODEL, D_FF)
        w[p + "layer.1.layer_norm.weight"] = norm()
    w["encoder.final_layer_norm.weight"] = norm()
    # Decoder tensors (and the untied LM head of v1.1) that an encoder loader must skip.
    if not gated:
        w["decoder.embed_tokens.weight"] = w["shared.weight"].copy()
    w["decoder.block.0.layer.0.SelfAttention.q.weight"] = mat(inner, D_MODEL)
    w["decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"] = mat(NUM_BUCKETS, NUM_HEADS, std=0.5)
    w["decoder.final_layer_norm.weight"] = norm()
    if gated:
        w["lm_head.weight"] = mat(vocab_size, D_MODEL)
    return w


def safetensors_bytes(tensors):
    """The safetensors serialization of tensors (name -> float32 array), tensors in sorted name order."""
    names = sorted(tensors)
    header = {"__metadata__": {"format": "pt"}}
    offset = 0
    blobs = []
    for n in names:
        a = np.ascontiguousarray(tensors[n], dtype="<f4")
        b = a.tobytes()
        header[n] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        blobs.append(b)
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * ((-(8 + len(h))) % 8)
    return struct.pack("<Q", len(h)) + h + b"".join(blobs)


def read_safetensors(data):
    """Parses safetensors bytes back (for a self-check): name -> float32 array, in header order."""
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    body = data[8 + n:]
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        assert v["dtype"] == "F32"
        b, e = v["data_offsets"]
        out[k] = np.frombuffer(body[b:e], dtype="<f4").reshape(v["shape"])
    return header, out


def config(name, vocab_size):
    gated = name == "tiny-gated"
    return {
        "model_type": "t5",
        "architectures": ["T5ForConditionalGeneration"],
        "d_model": D_MODEL,
        "d_kv": D_KV,
        "d_ff": D_FF,
        "num_layers": NUM_LAYERS,
        "num_decoder_layers": NUM_LAYERS,
        "num_heads": NUM_HEADS,
        "relative_attention_num_buckets": NUM_BUCKETS,
        "relative_attention_max_distance": MAX_DISTANCE,
        "feed_forward_proj": "gated-gelu" if gated else "relu",
        "layer_norm_epsilon": EPS,
        "vocab_size": vocab_size,
        "pad_token_id": 0,
        "eos_token_id": 1,
        "decoder_start_token_id": 0,
        "is_encoder_decoder": True,
        "dropout_rate": 0.1,
        "initializer_factor": 1.0,
        "tie_word_embeddings": not gated,
    }


# ----------------------------------------------------------------------------------------------------
# Reference encoder: transformers' modeling_t5 (T5Stack as encoder, T5Attention, T5LayerNorm,
# T5DenseActDense / T5DenseGatedActDense), without dropout, computed in float64.

def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """transformers' T5Attention._relative_position_bucket, verbatim (relative_position = key - query)."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)

    # half of the buckets are for exact increments in positions
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact

    # The other half of the buckets are for logarithmically bigger bins in positions up to max_distance
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )

    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def rms_norm(x, w):
    variance = x.pow(2).mean(-1, keepdim=True)
    return w * (x * torch.rsqrt(variance + EPS))


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def encode(w, gated, ids, mask, dtype=torch.float64):
    """ids, mask: [B, L] int64. Returns the last hidden state [B, L, d_model] in dtype (float64 for the
    golden values; float32 only to measure how far a float32 computation lands from them)."""
    t = {k: torch.from_numpy(np.array(v)).to(dtype) for k, v in w.items()}
    emb = t.get("encoder.embed_tokens.weight", t["shared.weight"])
    x = emb[ids]
    B, L = ids.shape
    # Position bias from block 0's table, shared by all blocks: [1, H, L(query), L(key)].
    context_position = torch.arange(L, dtype=torch.long)[:, None]
    memory_position = torch.arange(L, dtype=torch.long)[None, :]
    buckets = relative_position_bucket(memory_position - context_position, bidirectional=True,
                                       num_buckets=NUM_BUCKETS, max_distance=MAX_DISTANCE)
    table = t["encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"]
    position_bias = table[buckets].permute(2, 0, 1).unsqueeze(0)
    extended_mask = (1.0 - mask.to(dtype))[:, None, None, :] * torch.finfo(dtype).min
    position_bias = position_bias + extended_mask

    def shape(h):
        return h.view(B, L, NUM_HEADS, D_KV).transpose(1, 2)

    for i in range(NUM_LAYERS):
        p = "encoder.block.%d." % i
        n = rms_norm(x, t[p + "layer.0.layer_norm.weight"])
        q = shape(n @ t[p + "layer.0.SelfAttention.q.weight"].T)
        k = shape(n @ t[p + "layer.0.SelfAttention.k.weight"].T)
        v = shape(n @ t[p + "layer.0.SelfAttention.v.weight"].T)
        scores = q @ k.transpose(3, 2) + position_bias  # no 1/sqrt(d_kv) in T5
        attn = torch.softmax(scores, dim=-1)
        a = (attn @ v).transpose(1, 2).contiguous().view(B, L, NUM_HEADS * D_KV)
        x = x + a @ t[p + "layer.0.SelfAttention.o.weight"].T
        n = rms_norm(x, t[p + "layer.1.layer_norm.weight"])
        if gated:
            hgate = gelu_new(n @ t[p + "layer.1.DenseReluDense.wi_0.weight"].T)
            hlin = n @ t[p + "layer.1.DenseReluDense.wi_1.weight"].T
            f = hgate * hlin
        else:
            f = torch.relu(n @ t[p + "layer.1.DenseReluDense.wi.weight"].T)
        x = x + f @ t[p + "layer.1.DenseReluDense.wo.weight"].T
    return rms_norm(x, t["encoder.final_layer_norm.weight"])


# ----------------------------------------------------------------------------------------------------
# JSON output: nested lists of numbers with the innermost lists on one line; floats as the shortest
# decimal that round-trips the float32 value.

class F32:
    def __init__(self, v):
        self.v = np.float32(v)


def f32(a):
    """Nested lists of F32 from an array."""
    a = np.asarray(a, dtype=np.float32)
    if a.ndim == 0:
        return F32(a)
    return [f32(r) for r in a]


def fmt_f32(x):
    s = str(x.v)
    assert np.float32(float(s)) == x.v and math.isfinite(float(s)), s
    return s


def dumps(o, ind=0):
    pad = "  " * (ind + 1)
    if isinstance(o, dict):
        items = [pad + json.dumps(k) + ": " + dumps(v, ind + 1) for k, v in o.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * ind + "}"
    if isinstance(o, list):
        if all(not isinstance(e, (list, dict)) for e in o):
            return "[" + ", ".join(dumps(e, ind + 1) for e in o) + "]"
        return "[\n" + ",\n".join(pad + dumps(e, ind + 1) for e in o) + "\n" + "  " * ind + "]"
    if isinstance(o, F32):
        return fmt_f32(o)
    if isinstance(o, bool) or o is None or isinstance(o, (int, str)):
        return json.dumps(o)
    raise TypeError(type(o))


def golden(name, w, sp, reference):
    gated = name == "tiny-gated"
    entries = []
    singles = []
    for text in TEXTS:
        ids = sp.encode(text) + [1]
        ids_t = torch.tensor([ids], dtype=torch.long)
        h = encode(w, gated, ids_t, torch.ones_like(ids_t))[0]
        singles.append((ids, h))
        entries.append({
            "text": text,
            "pieces": sp.encode(text, out_type=str) + ["</s>"],
            "ids": ids,
            "hidden": f32(h.numpy()),
            "mean": f32(h.mean(0).numpy()),
        })
    a, b = BATCH
    L = max(len(singles[a][0]), len(singles[b][0]))
    ids = [s[0] + [0] * (L - len(s[0])) for s in (singles[a], singles[b])]
    mask = [[1] * len(s[0]) + [0] * (L - len(s[0])) for s in (singles[a], singles[b])]
    ids_t, mask_t = torch.tensor(ids), torch.tensor(mask)
    hb = encode(w, gated, ids_t, mask_t)
    for r, (sids, sh) in enumerate((singles[a], singles[b])):
        d = (hb[r, :len(sids)] - sh).abs().max().item()
        assert d <= 1e-6, (name, r, d)
    m = mask_t.to(torch.float64)[:, :, None]
    means = (hb * m).sum(1) / m.sum(1)
    rel = torch.arange(-30, 31)
    return {
        "generator": "scripts/t5_fixture.py",
        "reference": reference,
        "sentencepiece_version": spm.__version__,
        "tolerance_note": ("Computed in float64 and rounded to float32. A float32 implementation lands within "
                           "about 1e-5 absolute of these values (the same computation in PyTorch float32 on "
                           "CPU: up to 2.5e-6 for tiny, 9.3e-6 for tiny-gated; |hidden| up to 3.4), so tests "
                           "should allow 1e-4. In batch.hidden the rows of pad positions are what transformers "
                           "computes there (pad queries still attend to the real keys); compare only the rows "
                           "where mask is 1."),
        "model": name,
        "texts": entries,
        "batch": {
            "texts": [TEXTS[a], TEXTS[b]],
            "ids": ids,
            "mask": mask,
            "hidden": f32(hb.numpy()),
            "mean": f32(means.numpy()),
        },
        "relative_position_buckets": {
            "bidirectional": True,
            "num_buckets": NUM_BUCKETS,
            "max_distance": MAX_DISTANCE,
            "relative_position": rel.tolist(),
            "bucket": relative_position_bucket(rel, True, NUM_BUCKETS, MAX_DISTANCE).tolist(),
        },
    }, singles, (ids_t, mask_t, hb)


def max_diff(run, singles, batch):
    """Max abs difference between run(ids, mask) -> [B, L, d_model] and the float64 reference, over the
    single texts and the real tokens of the batch."""
    worst = 0.0
    for ids, h in singles:
        ids_t = torch.tensor([ids])
        worst = max(worst, (run(ids_t, torch.ones_like(ids_t))[0].double() - h).abs().max().item())
    ids_t, mask_t, hb = batch
    keep = mask_t.bool()
    return max(worst, (run(ids_t, mask_t).double()[keep] - hb[keep]).abs().max().item())


def check_with_transformers(d, singles, batch):
    """Loads d with transformers.T5EncoderModel and returns (max abs difference with the model in float32,
    the same with the model in float64, transformers' version)."""
    import transformers
    model = transformers.T5EncoderModel.from_pretrained(d)
    model.eval()
    diffs = []
    with torch.no_grad():
        for dtype in (torch.float32, torch.float64):
            model = model.to(dtype)
            diffs.append(max_diff(lambda ids, mask: model(input_ids=ids, attention_mask=mask).last_hidden_state,
                                  singles, batch))
    return diffs[0], diffs[1], transformers.__version__


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="t5/testdata", help="output directory (default t5/testdata)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        model_bytes = train_tokenizer(tmp)
    sp = spm.SentencePieceProcessor(model_proto=model_bytes)
    spm_vocab = sp.get_piece_size()
    assert (sp.pad_id(), sp.eos_id(), sp.unk_id(), sp.bos_id()) == (0, 1, 2, -1)
    assert [sp.id_to_piece(i) for i in range(3)] == ["<pad>", "</s>", "<unk>"]
    vocab_size = (spm_vocab + 7) // 8 * 8
    # The out-of-corpus word must really split into several pieces; the normalization text must
    # tokenize "cafe"+U+0301 like "café".
    assert "xylophone" not in " ".join(CORPUS).lower()
    assert len(sp.encode("xylophone")) >= 3
    assert sp.encode("cafe\u0301") == sp.encode("caf\u00e9")
    # The capitals-and-punctuation text has no <unk>; the non-ASCII one ends in a single merged <unk>.
    assert 2 not in sp.encode(TEXTS[1])
    assert sp.encode(TEXTS[5])[-2:] != [2, 2] and sp.encode(TEXTS[5])[-1] == 2
    # The embedding has rows no piece uses, as in real T5 (32128 rows for 32100 ids).
    assert vocab_size > spm_vocab, (vocab_size, spm_vocab)

    try:
        import transformers  # noqa: F401
        have_transformers = True
    except ImportError:
        have_transformers = False

    written = []
    max_abs = 0.0
    for name in ("tiny", "tiny-gated"):
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        w = make_weights(name, vocab_size)
        files = {
            "spiece.model": model_bytes,
            "config.json": (json.dumps(config(name, vocab_size), indent=2) + "\n").encode("utf-8"),
            "model.safetensors": safetensors_bytes(w),
        }
        header, back = read_safetensors(files["model.safetensors"])
        assert set(back) == set(w) and all(np.array_equal(back[k], w[k]) for k in w)
        assert (8 + struct.unpack("<Q", files["model.safetensors"][:8])[0]) % 8 == 0
        for fn, data in files.items():
            with open(os.path.join(d, fn), "wb") as f:
                f.write(data)

        reference = "PyTorch re-implementation of transformers' T5 encoder"
        # The golden values are written after the transformers check so that "reference" can name it.
        g, singles, batch = golden(name, w, sp, reference)
        d32 = max_diff(lambda ids, mask: encode(w, name == "tiny-gated", ids, mask, torch.float32), singles, batch)
        print("%s: the re-implementation in float32 vs float64: max |diff| = %.3g" % (name, d32))
        if have_transformers:
            # In float64 (transformers still takes the RMS variance and the softmax in float32) it must
            # agree within 1e-5; in float32, as loaded, within the 1e-4 the tolerance note asks of tests.
            t32, t64, ver = check_with_transformers(d, singles, batch)
            print("%s: transformers %s T5EncoderModel vs re-implementation: max |diff| = %.3g in float64, "
                  "%.3g in float32" % (name, ver, t64, t32))
            if t64 > 1e-5 or t32 > 1e-4:
                sys.exit("%s: transformers disagrees with the re-implementation by %g (float64) / %g (float32)"
                         % (name, t64, t32))
            g["reference"] = "transformers %s T5EncoderModel" % ver
        else:
            print("%s: transformers not importable; comparison with T5EncoderModel skipped" % name)
        text = dumps(g) + "\n"
        json.loads(text)
        with open(os.path.join(d, "golden.json"), "w", encoding="utf-8") as f:
            f.write(text)
        files["golden.json"] = text.encode("utf-8")
        for _, h in singles:
            max_abs = max(max_abs, h.abs().max().item())
        written += [(os.path.join(d, fn), len(data), hashlib.sha256(data).hexdigest()[:16])
                    for fn, data in sorted(files.items())]

    print("sentencepiece %s: %d pieces; config vocab_size %d" % (spm.__version__, spm_vocab, vocab_size))
    for text in TEXTS:
        print("  %-40s %s" % (ascii(text)[:40], sp.encode(text) + [1]))
    total = 0
    for path, size, h in written:
        print("%-40s %7d bytes  sha256 %s" % (path, size, h))
        total += size
    print("total %d bytes; max |hidden| %.4f" % (total, max_abs))


if __name__ == "__main__":
    main()
