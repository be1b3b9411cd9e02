#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Tiny T5 fixtures for the Go T5 encoder (package t5), made by Hugging Face transformers.

Usage (make t5-fixtures makes the virtual environment and runs this):
    .venv-t5/bin/python scripts/t5_hf_fixture.py [--out t5/testdata]

Needs the packages of scripts/t5_requirements.txt (pinned: torch, transformers, sentencepiece). Nothing is
downloaded at run time: the tokenizer is trained here, the weights are random. It writes, for each model,

    <out>/tiny/        relu FFN (T5 v1.0, t5-small), tied word embeddings, SentencePiece's nmt_nfkc normalization
    <out>/tiny-gated/  gated-gelu FFN (T5 v1.1, flan-t5), untied LM head, a small user-defined normalization

the files transformers writes (config.json, model.safetensors, generation_config.json from
T5ForConditionalGeneration.save_pretrained; spiece.model, tokenizer.json, tokenizer_config.json,
special_tokens_map.json as T5Tokenizer.save_pretrained writes them, whichever of these the installed
version writes) and golden.json: the token ids of transformers' T5 tokenizer and of the sentencepiece package,
and the last hidden state of transformers' T5EncoderModel loaded from those files.

Tokenizer. A SentencePiece unigram model trained with the sentencepiece package on the ARC-style corpus
below, with T5's special ids (<pad>=0, </s>=1, <unk>=2, no <s>). The trainer runs inside a temporary
directory with relative paths, so that the paths recorded in the model do not change from run to run.
`tiny` is normalized with SentencePiece's built-in nmt_nfkc rules, as the real T5's spiece.model is (its
compiled character map is about 240 KB of the model file); `tiny-gated` with a small user-defined rule
table (the NFKC mappings of a few Unicode blocks, a few letters with combining accents, tab/newline/CR to a
space, zero-width spaces removed), which SentencePiece stores the same way, as a compiled character map.

Checkpoints. A random T5Config-sized model (2 blocks, d_model 16, 4 heads of 4, d_ff 32, 8 relative buckets
up to distance 20) initialized by transformers itself (torch.manual_seed), with the RMS norms' weights then
drawn around 1 (transformers starts them at exactly 1, which would not test that they are applied), saved
by T5ForConditionalGeneration.save_pretrained: the decoder and LM head tensors are in the file too, and the
Go loader must skip them.

Golden outputs. T5EncoderModel.from_pretrained(dir) run in float64 (hidden; transformers takes the RMS
variance in float32 even then) and in float32 as loaded (its distance to the float64 values is recorded as
float32_max_abs_diff): a float32 implementation should land as close as PyTorch's own float32 does.

Deterministic: running it twice with the same package versions writes byte-identical files.
"""
import argparse
import hashlib
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import unicodedata

import numpy as np
import sentencepiece as spm
import torch
import transformers
from transformers import T5Config, T5EncoderModel, T5ForConditionalGeneration

torch.set_num_threads(1)

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
    "\uff23opy the \ufb01gure\u00a0twice, cafe\u0301",            # "Ｃopy the ﬁgure<NBSP>twice, cafe+U+0301"
    "  Rotate\tthe   grid\n twice\u2026  ",                       # spaces: leading, trailing, runs, tab,
                                                                  # newline; an ellipsis (NFKC: "...")
    "\u2460 \u2461 \u2122 \u3000fill\u200bthe grid",              # circled digits, TM, ideographic space,
                                                                  # a zero-width space
    "",                                                           # empty: </s> alone
]
BATCH = (0, 3)

D_MODEL, D_KV, D_FF, NUM_LAYERS, NUM_HEADS = 16, 4, 32, 2, 4
NUM_BUCKETS, MAX_DISTANCE, EPS = 8, 20, 1e-6
SEEDS = {"tiny": 20240601, "tiny-gated": 20240602}
EXTRA_IDS = 100  # T5's sentinel tokens <extra_id_0..99>, after the SentencePiece pieces, as in t5-small


def spm_args(nmt_nfkc):
    args = ("--input=corpus.txt --model_prefix=spiece --model_type=unigram --vocab_size=157 "
            "--pad_id=0 --pad_piece=<pad> --eos_id=1 --eos_piece=</s> --unk_id=2 --unk_piece=<unk> --bos_id=-1 "
            "--character_coverage=1.0 --input_sentence_size=0 --shuffle_input_sentence=false --num_threads=1 "
            "--hard_vocab_limit=false --minloglevel=2 ")
    return args + ("--normalization_rule_name=nmt_nfkc" if nmt_nfkc else "--normalization_rule_tsv=rules.tsv")


def normalization_rules():
    """The lines of rules.tsv: hex code points of the source, a tab, hex code points of the target."""
    rules = {}
    blocks = [(0x00A0, 0x00FF), (0x2000, 0x200A), (0x2024, 0x2026), (0x2122, 0x2122), (0x2460, 0x2473),
              (0x3000, 0x3000), (0xFB00, 0xFB06), (0xFF01, 0xFF5E)]
    for lo, hi in blocks:
        for cp in range(lo, hi + 1):
            c = chr(cp)
            n = unicodedata.normalize("NFKC", c)
            if n != c:
                rules[c] = n
    for base in "AEIOUYCNaeiouycn":
        for mark in "\u0300\u0301\u0302\u0303\u0308\u0327":
            n = unicodedata.normalize("NFKC", base + mark)
            if len(n) == 1:
                rules[base + mark] = n
    for c in "\t\n\r":
        rules[c] = " "
    for c in "\u200b\ufeff":
        rules[c] = ""

    def hexs(s):
        return " ".join("%X" % ord(ch) for ch in s)

    return ["%s\t%s" % (hexs(k), hexs(v)) for k, v in sorted(rules.items())]


def train_tokenizer(workdir, nmt_nfkc):
    """Trains the SentencePiece model in workdir (relative paths) and returns the path of spiece.model."""
    with open(os.path.join(workdir, "corpus.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(CORPUS) + "\n")
    with open(os.path.join(workdir, "rules.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(normalization_rules()) + "\n")
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        spm.SentencePieceTrainer.train(spm_args(nmt_nfkc))
    finally:
        os.chdir(cwd)
    return os.path.join(workdir, "spiece.model")


def make_model(name, vocab_size):
    gated = name == "tiny-gated"
    config = T5Config(
        vocab_size=vocab_size, d_model=D_MODEL, d_kv=D_KV, d_ff=D_FF, num_layers=NUM_LAYERS,
        num_decoder_layers=1, num_heads=NUM_HEADS, relative_attention_num_buckets=NUM_BUCKETS,
        relative_attention_max_distance=MAX_DISTANCE, layer_norm_epsilon=EPS,
        feed_forward_proj="gated-gelu" if gated else "relu", tie_word_embeddings=not gated,
        pad_token_id=0, eos_token_id=1, decoder_start_token_id=0, dropout_rate=0.1)
    torch.manual_seed(SEEDS[name])
    model = T5ForConditionalGeneration(config)
    g = torch.Generator().manual_seed(SEEDS[name] + 1)
    with torch.no_grad():
        for pname, p in model.named_parameters():
            if pname.endswith("layer_norm.weight"):
                p.copy_(1.0 + 0.1 * torch.randn(p.shape, generator=g, dtype=torch.float64))
    return model.eval()


class F32:
    def __init__(self, v):
        self.v = np.float32(v)


def f32(a):
    """Nested lists of F32 from an array."""
    a = np.asarray(a, dtype=np.float32)
    if a.ndim == 0:
        return F32(a)
    return [f32(r) for r in a]


def dumps(o, ind=0):
    """JSON with the innermost lists on one line; floats as the shortest decimal that round-trips float32."""
    pad = "  " * (ind + 1)
    if isinstance(o, dict):
        items = [pad + json.dumps(k) + ": " + dumps(v, ind + 1) for k, v in o.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * ind + "}"
    if isinstance(o, list):
        if all(not isinstance(e, (list, dict)) for e in o):
            return "[" + ", ".join(dumps(e, ind + 1) for e in o) + "]"
        return "[\n" + ",\n".join(pad + dumps(e, ind + 1) for e in o) + "\n" + "  " * ind + "]"
    if isinstance(o, F32):
        s = str(o.v)
        assert np.float32(float(s)) == o.v and math.isfinite(float(s)), s
        return s
    if isinstance(o, float):
        return repr(o)
    if isinstance(o, bool) or o is None or isinstance(o, (int, str)):
        return json.dumps(o)
    raise TypeError(type(o))


def versions():
    import safetensors
    import tokenizers
    return {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__, "sentencepiece": spm.__version__,
            "safetensors": safetensors.__version__, "numpy": np.__version__}


def hf_tokenizers(d):
    """The T5 tokenizers transformers offers for dir d, by name (the fast one always; the slow,
    sentencepiece-backed one where this version still has it)."""
    out = {"T5TokenizerFast" if hasattr(transformers, "T5TokenizerFast") else "T5Tokenizer":
           transformers.AutoTokenizer.from_pretrained(d)}
    return out


def golden(name, d, sp):
    toks = hf_tokenizers(d)
    tok_name, tok = next(iter(toks.items()))
    enc64 = T5EncoderModel.from_pretrained(d).eval().to(torch.float64)
    enc32 = T5EncoderModel.from_pretrained(d).eval()
    assert enc32.dtype == torch.float32
    entries, f32diff = [], 0.0
    for text in TEXTS:
        ids = tok(text).input_ids
        sp_ids = sp.encode(text) + [1]
        # Both must agree: transformers' tokenizer is what users run, sentencepiece what trained the model.
        assert ids == sp_ids, (name, text, ids, sp_ids)
        ids_t = torch.tensor([ids])
        with torch.no_grad():
            h = enc64(input_ids=ids_t).last_hidden_state[0]
            h32 = enc32(input_ids=ids_t).last_hidden_state[0]
        f32diff = max(f32diff, (h32.double() - h).abs().max().item())
        entries.append({"text": text, "pieces": sp.encode(text, out_type=str) + ["</s>"], "ids": ids,
                        "hidden": f32(h.numpy()), "mean": f32(h.mean(0).numpy())})
    batch_texts = [TEXTS[i] for i in BATCH]
    b = tok(batch_texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        hb = enc64(input_ids=b.input_ids, attention_mask=b.attention_mask).last_hidden_state
        hb32 = enc32(input_ids=b.input_ids, attention_mask=b.attention_mask).last_hidden_state
    keep = b.attention_mask.bool()
    f32diff = max(f32diff, (hb32.double()[keep] - hb[keep]).abs().max().item())
    for r, i in enumerate(BATCH):
        n = len(entries[i]["ids"])
        assert b.input_ids[r, :n].tolist() == entries[i]["ids"]
    m = b.attention_mask.to(torch.float64)[:, :, None]
    means = (hb * m).sum(1) / m.sum(1)
    rel = torch.arange(-30, 31)
    bucket = transformers.models.t5.modeling_t5.T5Attention._relative_position_bucket(
        rel, bidirectional=True, num_buckets=NUM_BUCKETS, max_distance=MAX_DISTANCE)
    return {
        "generator": "scripts/t5_hf_fixture.py",
        "reference": "transformers %s T5EncoderModel.from_pretrained, float64" % transformers.__version__,
        "tokenizer": "transformers %s %s (ids equal to sentencepiece %s's plus </s>)" % (
            transformers.__version__, tok_name, spm.__version__),
        "versions": versions(),
        "float32_max_abs_diff": f32diff,
        "tolerance_note": ("hidden and mean: T5EncoderModel run in float64, rounded to float32. "
                           "float32_max_abs_diff: the same model as loaded (float32) against these values. In "
                           "batch.hidden the rows of pad positions are what transformers computes there; compare "
                           "only the rows where mask is 1."),
        "model": name,
        "texts": entries,
        "batch": {"texts": batch_texts, "ids": b.input_ids.tolist(), "mask": b.attention_mask.tolist(),
                  "hidden": f32(hb.numpy()), "mean": f32(means.numpy())},
        "relative_position_buckets": {"bidirectional": True, "num_buckets": NUM_BUCKETS,
                                      "max_distance": MAX_DISTANCE, "relative_position": rel.tolist(),
                                      "bucket": bucket.tolist()},
    }, f32diff


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="t5/testdata", help="output directory (default t5/testdata)")
    args = ap.parse_args()
    print("versions:", json.dumps(versions()))
    written = []
    for name in ("tiny", "tiny-gated"):
        d = os.path.join(args.out, name)
        for fn in os.listdir(d) if os.path.isdir(d) else []:
            os.remove(os.path.join(d, fn))
        os.makedirs(d, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            model_file = train_tokenizer(tmp, nmt_nfkc=name == "tiny")
            sp = spm.SentencePieceProcessor(model_file=model_file)
            assert (sp.pad_id(), sp.eos_id(), sp.unk_id(), sp.bos_id()) == (0, 1, 2, -1)
            # transformers converts spiece.model (vocabulary, scores, normalizer) into its tokenizers-backed
            # T5 tokenizer, and save_pretrained writes tokenizer.json and tokenizer_config.json.
            shutil.copy(model_file, os.path.join(d, "spiece.model"))
        tok = transformers.T5Tokenizer.from_pretrained(d, extra_ids=EXTRA_IDS)
        tok.save_pretrained(d)
        if name == "tiny":
            # tiny: exactly the files transformers writes (this version writes no spiece.model). tiny-gated
            # keeps the spiece.model beside them, as the Hub's T5 repositories ship it.
            os.remove(os.path.join(d, "spiece.model"))
        n_tok = len(tok)
        assert n_tok == sp.get_piece_size() + EXTRA_IDS, (n_tok, sp.get_piece_size())
        vocab_size = (n_tok + 7) // 8 * 8
        assert vocab_size > n_tok  # the embedding has rows no token uses, as in t5-small (32128 for 32100)
        # The out-of-corpus word splits into several pieces; "cafe"+U+0301 tokenizes like "café";
        # the non-ASCII text ends in a single merged <unk>.
        assert "xylophone" not in " ".join(CORPUS).lower() and len(sp.encode("xylophone")) >= 3
        assert sp.encode("cafe\u0301") == sp.encode("caf\u00e9"), name
        assert sp.encode(TEXTS[5])[-1] == 2 and sp.encode(TEXTS[5])[-2:] != [2, 2]
        model = make_model(name, vocab_size)
        model.save_pretrained(d)
        g, f32diff = golden(name, d, sp)
        with open(os.path.join(d, "golden.json"), "w", encoding="utf-8") as f:
            f.write(dumps(g) + "\n")
        print("%s: %d pieces, vocab_size %d; transformers float32 vs float64: max |diff| = %.3g" % (
            name, sp.get_piece_size(), vocab_size, f32diff))
        for text, e in zip(TEXTS, g["texts"]):
            print("  %-44s %s" % (ascii(text)[:44], e["ids"]))
        for fn in sorted(os.listdir(d)):
            with open(os.path.join(d, fn), "rb") as f:
                data = f.read()
            written.append((os.path.join(d, fn), len(data), hashlib.sha256(data).hexdigest()[:16]))
    total = 0
    for path, size, h in written:
        print("%-44s %7d bytes  sha256 %s" % (path, size, h))
        total += size
    print("total %d bytes" % total)


if __name__ == "__main__":
    sys.exit(main())
