// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// tokenizerJSON is the part of a tokenizers-library tokenizer.json that a converted SentencePiece
// Unigram tokenizer uses.
type tokenizerJSON struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer   *tokenizerStep `json:"normalizer"`
	PreTokenizer *tokenizerStep `json:"pre_tokenizer"`
	Model        struct {
		Type         string            `json:"type"`
		UnkID        *int              `json:"unk_id"`
		Vocab        []json.RawMessage `json:"vocab"`
		ByteFallback bool              `json:"byte_fallback"`
	} `json:"model"`
}

// tokenizerStep is a normalizer or pre-tokenizer of tokenizer.json (a Sequence holds others).
type tokenizerStep struct {
	Type                string          `json:"type"`
	PrecompiledCharsmap string          `json:"precompiled_charsmap"`
	Normalizers         []tokenizerStep `json:"normalizers"`
	Pretokenizers       []tokenizerStep `json:"pretokenizers"`
	Replacement         string          `json:"replacement"`
	PrependScheme       string          `json:"prepend_scheme"`
	AddPrefixSpace      *bool           `json:"add_prefix_space"`
	Pattern             struct {
		Regex string `json:"Regex"`
	} `json:"pattern"`
	Content string `json:"content"`
}

// steps flattens a Sequence.
func (s *tokenizerStep) steps() []tokenizerStep {
	if s == nil {
		return nil
	}
	if s.Type == "Sequence" {
		var out []tokenizerStep
		for _, c := range append(s.Normalizers, s.Pretokenizers...) {
			out = append(out, c.steps()...)
		}
		return out
	}
	return []tokenizerStep{*s}
}

// LoadTokenizerJSON reads a tokenizer.json of the tokenizers library holding a Unigram model converted
// from SentencePiece, as transformers 5's T5Tokenizer.save_pretrained writes it (and the Hub's T5
// repositories ship beside spiece.model): the vocabulary with its scores, the unknown id, the special
// added tokens (<pad>, </s>, <unk>, <extra_id_N>: never matched in the text), the normalizer's compiled
// SentencePiece character map ("Precompiled"; a "Replace" of runs of spaces by one beside it, as older
// converters wrote, changes nothing after WhitespaceSplit) and the whitespace handling of its pre-tokenizer
// (WhitespaceSplit: leading, trailing and repeated spaces removed; Metaspace: spaces written '▁', a
// '▁' prefix unless prepend_scheme is "never"). It encodes as SentencePiece does with the same model; other
// normalizers, pre-tokenizers or models are errors that name them.
func LoadTokenizerJSON(path string, eosID int) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("t5: %w", err)
	}
	var j tokenizerJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("t5: %s is not a tokenizer.json: %w", path, err)
	}
	if j.Model.Type != "Unigram" || j.Model.UnkID == nil || j.Model.ByteFallback {
		return nil, fmt.Errorf("t5: %s: model %q (unk_id set: %v, byte_fallback %v), "+
			"want a Unigram model with an unknown id and no byte fallback (T5's)",
			path, j.Model.Type, j.Model.UnkID != nil, j.Model.ByteFallback)
	}
	t := &Tokenizer{
		pieces: map[string]int{}, unkID: -1, eosID: eosID, Size: len(j.Model.Vocab), file: filepath.Base(path),
	}
	for _, n := range j.Normalizer.steps() {
		if n.Type == "Replace" && n.Pattern.Regex == " {2,}" && n.Content == " " {
			// Runs of spaces to one, as older transformers converters wrote (the Hub's t5-small): the
			// WhitespaceSplit pre-tokenizer below removes them anyway.
			continue
		}
		if n.Type != "Precompiled" {
			return nil, fmt.Errorf("t5: %s: normalizer %q is not supported "+
				"(a SentencePiece Precompiled character map, and a Replace of runs of spaces, are)", path, n.Type)
		}
		cm, err := base64.StdEncoding.DecodeString(n.PrecompiledCharsmap)
		if err != nil {
			return nil, fmt.Errorf("t5: %s: precompiled_charsmap: %w", path, err)
		}
		if len(cm) > 0 {
			if t.charsMap, err = newCharsMap(cm); err != nil {
				return nil, fmt.Errorf("t5: %s: %w", path, err)
			}
		}
	}
	for _, p := range j.PreTokenizer.steps() {
		switch p.Type {
		case "WhitespaceSplit":
			t.removeExtraSpaces = true
		case "Metaspace":
			if p.Replacement != spaceSymbol {
				return nil, fmt.Errorf("t5: %s: Metaspace replacement %q, want %q", path, p.Replacement, spaceSymbol)
			}
			t.escapeSpaces = true
			t.addDummyPrefix = p.PrependScheme != "never" && (p.AddPrefixSpace == nil || *p.AddPrefixSpace)
		default:
			return nil, fmt.Errorf("t5: %s: pre-tokenizer %q is not supported (WhitespaceSplit and Metaspace are)",
				path, p.Type)
		}
	}
	pieces := make([]string, len(j.Model.Vocab))
	scores := make([]float64, len(j.Model.Vocab))
	kinds := make([]pieceKind, len(j.Model.Vocab))
	for id, raw := range j.Model.Vocab {
		var entry []any
		if err := json.Unmarshal(raw, &entry); err != nil || len(entry) != 2 {
			return nil, fmt.Errorf("t5: %s: vocab entry %d is not [piece, score]", path, id)
		}
		piece, ok1 := entry[0].(string)
		score, ok2 := entry[1].(float64)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("t5: %s: vocab entry %d is not [piece, score]", path, id)
		}
		pieces[id], scores[id] = piece, score
	}
	for _, a := range j.AddedTokens {
		if a.ID < 0 || a.ID >= len(kinds) || pieces[a.ID] != a.Content {
			return nil, fmt.Errorf("t5: %s: added token %q (id %d) is not the vocabulary's piece of that id",
				path, a.Content, a.ID)
		}
		kinds[a.ID] = pieceUserDefined
		if a.Special {
			kinds[a.ID] = pieceControl
		}
	}
	if u := *j.Model.UnkID; u < 0 || u >= len(kinds) {
		return nil, fmt.Errorf("t5: %s: unk_id %d outside the vocabulary of %d", path, u, len(kinds))
	}
	kinds[*j.Model.UnkID] = pieceUnknown
	return t.setPieces(path, pieces, scores, kinds)
}
