// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

// Package t5 is a T5 text encoder (Raffel et al. 2020) in GoMLX, for the LARC experiment (Section
// 5.3 of the paper: "LatFormer + NL" feeds a T5 embedding of the task's description to the mask
// experts' gates and to the FFN).
//
// Load reads a Hugging Face checkpoint directory (config.json, model.safetensors, and spiece.model or,
// where there is none, tokenizer.json: what `huggingface-cli download google-t5/t5-small` or transformers'
// save_pretrained writes) on a given backend:
//
//	enc, err := t5.Load(backend, "/models/t5-small")
//	vecs, err := enc.Embed([]string{"Rotate the grid by 90 degrees."}) // [1][512]
//
// The encoder stack is EncoderGraph (relative position buckets learned by the first block and shared,
// RMS layer norms without bias, a ReLU or gated-GELU feed-forward as config.json says); the tokenizer
// is SentencePiece's Unigram segmentation on go-huggingface's model proto (Tokenizer); the tensors are
// read with go-huggingface's safetensors header types. Embed mean-pools the final hidden states
// (MaskedMean). The package never downloads anything and chooses no backend.
//
// Tested against Hugging Face transformers on tiny random checkpoints that its save_pretrained wrote
// (testdata/, made by scripts/t5_hf_fixture.py): token ids equal to its T5 tokenizer's, hidden states
// within 1e-5 of T5EncoderModel's.
package t5
