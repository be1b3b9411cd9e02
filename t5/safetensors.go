// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package t5

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/go-huggingface/models/safetensors"
	"github.com/gomlx/gomlx/core/tensors"
)

// maxHeaderBytes bounds the JSON header of a safetensors file (go-huggingface uses the same bound).
const maxHeaderBytes = 100 << 20

// readSafetensorsHeader reads the header of a safetensors file (8-byte little-endian length, then the
// JSON header) into go-huggingface's safetensors.Header, and returns the offset of the data.
//
// go-huggingface v0.4.0 parses this header only behind a hub.Repo, which asks the Hugging Face Hub for the
// repository's revision before opening any file, so it cannot read a local directory offline; its
// Header and TensorMetadata types (and TensorMetadata.GoMLXShape for the dtype) are used as they are.
func readSafetensorsHeader(f *os.File) (*safetensors.Header, int64, error) {
	var size uint64
	if err := binary.Read(f, binary.LittleEndian, &size); err != nil {
		return nil, 0, fmt.Errorf("reading the header length: %w", err)
	}
	if size > maxHeaderBytes {
		return nil, 0, fmt.Errorf("header length %d is over %d bytes: not a safetensors file", size, maxHeaderBytes)
	}
	raw := make([]byte, size)
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, 0, fmt.Errorf("reading the %d-byte header: %w", size, err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, 0, fmt.Errorf("parsing the header: %w", err)
	}
	h := &safetensors.Header{Tensors: map[string]*safetensors.TensorMetadata{}, Metadata: map[string]any{}}
	for name, v := range fields {
		if name == "__metadata__" {
			if err := json.Unmarshal(v, &h.Metadata); err != nil {
				return nil, 0, fmt.Errorf("parsing __metadata__: %w", err)
			}
			continue
		}
		tm := &safetensors.TensorMetadata{Name: name}
		if err := json.Unmarshal(v, tm); err != nil {
			return nil, 0, fmt.Errorf("parsing the metadata of tensor %q: %w", name, err)
		}
		h.Tensors[name] = tm
	}
	return h, int64(8 + size), nil
}

// readTensors reads the named tensors of a safetensors file as float32 tensors (F32, F16 and BF16
// are accepted: real T5 checkpoints come in all three). A name that is missing, a dtype that is not
// a float, or data offsets that do not match the shape or lie outside the file are errors.
func readTensors(path string, names []string) (map[string]*tensors.Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	header, dataOffset, err := readSafetensorsHeader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	out := make(map[string]*tensors.Tensor, len(names))
	for _, name := range names {
		meta, ok := header.Tensors[name]
		if !ok {
			return nil, fmt.Errorf("%s: no tensor %q", path, name)
		}
		shape, err := meta.GoMLXShape()
		if err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", path, name, err)
		}
		var width int
		switch shape.DType {
		case dtypes.Float32:
			width = 4
		case dtypes.Float16, dtypes.BFloat16:
			width = 2
		default:
			return nil, fmt.Errorf("%s: tensor %q has dtype %s, want F32, F16 or BF16", path, name, meta.Dtype)
		}
		begin, end := meta.DataOffsets[0], meta.DataOffsets[1]
		if n := int64(shape.Size() * width); end-begin != n || begin < 0 || dataOffset+end > info.Size() {
			return nil, fmt.Errorf("%s: tensor %q: data offsets [%d, %d) do not hold its %d bytes (%s) within the file",
				path, name, begin, end, n, shape)
		}
		raw := make([]byte, end-begin)
		if _, err := f.ReadAt(raw, dataOffset+begin); err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", path, name, err)
		}
		values := make([]float32, shape.Size())
		for i := range values {
			switch shape.DType {
			case dtypes.Float32:
				values[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			case dtypes.BFloat16:
				values[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
			case dtypes.Float16:
				values[i] = halfToFloat32(binary.LittleEndian.Uint16(raw[2*i:]))
			}
		}
		out[name] = tensors.FromFlatDataAndDimensions(values, shape.Dimensions...)
	}
	return out, nil
}

// tensorNames returns the names of the tensors of a safetensors file.
func tensorNames(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	header, _, err := readSafetensorsHeader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	names := make(map[string]bool, len(header.Tensors))
	for n := range header.Tensors {
		names[n] = true
	}
	return names, nil
}

// halfToFloat32 converts an IEEE 754 half-precision number to float32.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: normalize
		e := uint32(127 - 15 + 1)
		for frac&0x400 == 0 {
			frac <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (frac&0x3ff)<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
