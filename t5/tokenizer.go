// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gomlx/go-huggingface/tokenizers/sentencepiece/private/protos"
	"google.golang.org/protobuf/proto"
)

// Tokenizer is T5's SentencePiece tokenizer: a Unigram model read from spiece.model (the model proto
// of go-huggingface's tokenizers/sentencepiece/private/protos), encoding a text as the most probable
// segmentation into the model's pieces (Viterbi, as SentencePiece's unigram_model.cc) followed by
// </s>, as transformers' T5Tokenizer does.
//
// go-huggingface v0.4.0's own SentencePiece tokenizer (eliben/go-sentencepiece) implements BPE models
// only, and its tokenizer.json reader segments Unigram vocabularies greedily (longest match), which
// is not T5's segmentation: hence this encoder, on go-huggingface's model proto.
//
// Normalization is the model's own (Normalize): T5's nmt_nfkc rules (NFKC and NMT's) are stored in
// spiece.model as a compiled character map, which Tokenizer reads and applies as SentencePiece does.
// The tests check the ids against transformers' T5 tokenizer (and so the sentencepiece package).
type Tokenizer struct {
	pieces   map[string]int // normal and user-defined pieces -> id
	scores   []float64      // the Viterbi score of each piece (user-defined: len·maxScore - 0.1, as SentencePiece)
	maxLen   int            // longest piece, in bytes
	unkID    int
	unkScore float64
	eosID    int
	// charsMap is the normalizer's compiled character map (nil: characters are kept as they are);
	// addDummyPrefix, removeExtraSpaces and escapeSpaces are its flags.
	charsMap                                        *charsMap
	addDummyPrefix, removeExtraSpaces, escapeSpaces bool
	// Size is the number of pieces of the model.
	Size int
	file string // the model's file name in its directory
}

// spaceSymbol is SentencePiece's escaped space, U+2581.
const spaceSymbol = "\u2581"

// unkPenalty is SentencePiece's score penalty of an unknown character below the lowest piece score.
const unkPenalty = 10.0

// LoadTokenizer reads dir/spiece.model or dir/tokenizer.model, which must be a Unigram SentencePiece
// model with an unknown piece, or else dir/tokenizer.json, the tokenizers-library file that transformers 5
// writes in their place (LoadTokenizerJSON). eosID is appended to every encoding (Config.EOSTokenID; T5's
// is 1).
func LoadTokenizer(dir string, eosID int) (*Tokenizer, error) {
	var path string
	for _, name := range []string{"spiece.model", "tokenizer.model"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			path = filepath.Join(dir, name)
			break
		}
	}
	if path == "" {
		if _, err := os.Stat(filepath.Join(dir, "tokenizer.json")); err == nil {
			return LoadTokenizerJSON(filepath.Join(dir, "tokenizer.json"), eosID)
		}
		return nil, fmt.Errorf("t5: no spiece.model, tokenizer.model or tokenizer.json in %s", dir)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("t5: %w", err)
	}
	var m protos.ModelProto
	if err := proto.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("t5: %s is not a SentencePiece model: %w", path, err)
	}
	if t := m.GetTrainerSpec().GetModelType(); t != protos.TrainerSpec_UNIGRAM {
		return nil, fmt.Errorf("t5: %s is a %s SentencePiece model, want UNIGRAM (T5's)", path, t)
	}
	ns := m.GetNormalizerSpec()
	t := &Tokenizer{
		pieces: map[string]int{}, unkID: -1, eosID: eosID, Size: len(m.GetPieces()), file: filepath.Base(path),
		addDummyPrefix: ns.GetAddDummyPrefix(), removeExtraSpaces: ns.GetRemoveExtraWhitespaces(),
		escapeSpaces: ns.GetEscapeWhitespaces(),
	}
	if cm := ns.GetPrecompiledCharsmap(); len(cm) > 0 {
		if t.charsMap, err = newCharsMap(cm); err != nil {
			return nil, fmt.Errorf("t5: %s: %w", path, err)
		}
	}
	kinds := make([]pieceKind, len(m.GetPieces()))
	pieces := make([]string, len(m.GetPieces()))
	scores := make([]float64, len(m.GetPieces()))
	for id, p := range m.GetPieces() {
		pieces[id], scores[id] = p.GetPiece(), float64(p.GetScore())
		switch p.GetType() {
		case protos.ModelProto_SentencePiece_NORMAL:
			kinds[id] = pieceNormal
		case protos.ModelProto_SentencePiece_USER_DEFINED:
			kinds[id] = pieceUserDefined
		case protos.ModelProto_SentencePiece_UNKNOWN:
			kinds[id] = pieceUnknown
		default:
			kinds[id] = pieceControl
		}
	}
	return t.setPieces(path, pieces, scores, kinds)
}

// pieceKind is how a vocabulary entry takes part in the segmentation.
type pieceKind int

const (
	pieceNormal      pieceKind = iota // matched in the text with its score
	pieceUserDefined                  // matched in the text, preferred over normal pieces
	pieceUnknown                      // the unknown id
	pieceControl                      // never matched in the text (<pad>, </s>, T5's <extra_id_N>)
)

// setPieces fills t's vocabulary from the pieces, scores and kinds of the model file path.
func (t *Tokenizer) setPieces(path string, pieces []string, scores []float64, kinds []pieceKind) (*Tokenizer, error) {
	minScore, maxScore := math.Inf(1), math.Inf(-1)
	for id, k := range kinds {
		if k == pieceNormal {
			minScore, maxScore = min(minScore, scores[id]), max(maxScore, scores[id])
		}
	}
	for id, k := range kinds {
		t.scores = append(t.scores, scores[id])
		if k == pieceUserDefined {
			t.scores[id] = float64(len(pieces[id]))*maxScore - 0.1
		}
		switch k {
		case pieceNormal, pieceUserDefined:
			t.pieces[pieces[id]] = id
			t.maxLen = max(t.maxLen, len(pieces[id]))
		case pieceUnknown:
			t.unkID = id
		}
	}
	if t.unkID < 0 || len(t.pieces) == 0 {
		return nil, fmt.Errorf("t5: %s has no unknown piece or no normal pieces", path)
	}
	if t.eosID < 0 || t.eosID >= t.Size {
		return nil, fmt.Errorf("t5: eos id %d is not a piece of %s (%d pieces)", t.eosID, path, t.Size)
	}
	t.unkScore = minScore - unkPenalty
	return t, nil
}

// Normalize returns text as the model sees it (SentencePiece's normalizer.cc): each longest prefix
// found in the model's compiled character map replaced by its normalized form (other characters
// kept; invalid UTF-8 becomes U+FFFD), then, as the model's normalizer flags say, leading, trailing
// and repeated spaces removed, a space prefix added and spaces written '▁'.
func (t *Tokenizer) Normalize(text string) string {
	var b strings.Builder
	space := " "
	if t.escapeSpaces {
		space = spaceSymbol
	}
	input := text
	if t.removeExtraSpaces { // leading spaces
		for input != "" {
			piece, n := t.normalizePrefix(input)
			if piece != " " {
				break
			}
			input = input[n:]
		}
	}
	if input == "" {
		return ""
	}
	if t.addDummyPrefix {
		b.WriteString(space)
	}
	prevSpace := t.removeExtraSpaces
	for input != "" {
		piece, n := t.normalizePrefix(input)
		input = input[n:]
		if prevSpace && t.removeExtraSpaces {
			piece = strings.TrimLeft(piece, " ")
		}
		if piece == "" {
			continue
		}
		b.WriteString(strings.ReplaceAll(piece, " ", space))
		prevSpace = strings.HasSuffix(piece, " ")
	}
	out := b.String()
	if t.removeExtraSpaces {
		for strings.HasSuffix(out, space) {
			out = out[:len(out)-len(space)]
		}
	}
	return out
}

// normalizePrefix returns the normalized form of input's longest prefix in the character map and the
// number of bytes it replaces; without a match, input's first character (U+FFFD for invalid UTF-8).
func (t *Tokenizer) normalizePrefix(input string) (string, int) {
	if t.charsMap != nil {
		if value, length := t.charsMap.longestPrefix(input); length > 0 {
			return value, length
		}
	}
	r, n := utf8.DecodeRuneInString(input)
	if r == utf8.RuneError && n <= 1 {
		return "\uFFFD", 1
	}
	return input[:n], n
}

// charsMap is SentencePiece's precompiled character map: a Darts-clone double-array trie over the
// UTF-8 bytes of the strings to normalize, whose values are offsets of NUL-terminated normalized
// strings in blob. The serialized form is a little-endian uint32 trie size in bytes, the trie's
// uint32 units, then the blob.
type charsMap struct {
	units []uint32
	blob  []byte
}

func newCharsMap(data []byte) (*charsMap, error) {
	if len(data) < 4 {
		return nil, fmt.Errorf("precompiled charsmap of %d bytes", len(data))
	}
	size := int(binary.LittleEndian.Uint32(data))
	if size%4 != 0 || 4+size > len(data) {
		return nil, fmt.Errorf("precompiled charsmap: trie of %d bytes in %d", size, len(data))
	}
	m := &charsMap{units: make([]uint32, size/4), blob: data[4+size:]}
	for i := range m.units {
		m.units[i] = binary.LittleEndian.Uint32(data[4+4*i:])
	}
	return m, nil
}

// longestPrefix returns the normalized string of the longest key that is a prefix of s, and its
// length in bytes (0 if none): Darts-clone's common prefix search.
func (m *charsMap) longestPrefix(s string) (string, int) {
	offset := func(u uint32) uint32 { return (u >> 10) << ((u & (1 << 9)) >> 6) }
	unit := func(pos uint32) (uint32, bool) {
		if int(pos) >= len(m.units) {
			return 0, false
		}
		return m.units[pos], true
	}
	pos := uint32(0)
	u, ok := unit(pos)
	if !ok {
		return "", 0
	}
	pos ^= offset(u)
	bestValue, bestLen := -1, 0
	for i := 0; i < len(s); i++ {
		c := uint32(s[i])
		pos ^= c
		if u, ok = unit(pos); !ok || u&((1<<31)|0xff) != c { // label mismatch
			break
		}
		pos ^= offset(u)
		if (u>>8)&1 == 1 { // has a leaf: a key ends here
			leaf, ok := unit(pos)
			if !ok {
				break
			}
			bestValue, bestLen = int(leaf&((1<<31)-1)), i+1
		}
	}
	if bestValue < 0 || bestValue >= len(m.blob) {
		return "", 0
	}
	end := bestValue
	for end < len(m.blob) && m.blob[end] != 0 {
		end++
	}
	return string(m.blob[bestValue:end]), bestLen
}

// Encode returns the ids of text's most probable segmentation followed by </s>. Characters no piece
// covers become the unknown id, a run of them one unknown id (as SentencePiece merges them).
func (t *Tokenizer) Encode(text string) []int {
	s := t.Normalize(text)
	// best[i]: the best score of a segmentation of s[:i]; from[i] its last piece's start, id[i] its id.
	best := make([]float64, len(s)+1)
	from := make([]int, len(s)+1)
	ids := make([]int, len(s)+1)
	for i := 1; i <= len(s); i++ {
		best[i] = math.Inf(-1)
	}
	for i := 0; i < len(s); i++ {
		if math.IsInf(best[i], -1) || !utf8.RuneStart(s[i]) {
			continue
		}
		_, charLen := utf8.DecodeRuneInString(s[i:])
		single := false
		for end := i + 1; end <= min(len(s), i+t.maxLen); end++ {
			id, ok := t.pieces[s[i:end]]
			if !ok {
				continue
			}
			single = single || end == i+charLen
			if sc := best[i] + t.scores[id]; sc > best[end] {
				best[end], from[end], ids[end] = sc, i, id
			}
		}
		if !single { // an unknown character
			if sc := best[i] + t.unkScore; sc > best[i+charLen] {
				best[i+charLen], from[i+charLen], ids[i+charLen] = sc, i, t.unkID
			}
		}
	}
	var rev []int
	for i := len(s); i > 0; i = from[i] {
		rev = append(rev, ids[i])
	}
	out := make([]int, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		if rev[k] == t.unkID && len(out) > 0 && out[len(out)-1] == t.unkID {
			continue
		}
		out = append(out, rev[k])
	}
	return append(out, t.eosID)
}
