package ops

import (
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapeinference"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"
)

func init() {
	gobackend.RegisterConcatenate.Register(Concatenate, gobackend.PriorityGeneric)
	gobackend.SetNodeExecutor(compute.OpTypeConcatenate, gobackend.PriorityGeneric, execConcatenate)
}

// Concatenate joins a sequence of tensors along the given axis (it must exist already).
// All input tensors must have the same shape, except potentially in the concatenation dimension.
// They must also have the same data type (DType).
// It returns an error if inputs are invalid (e.g., no inputs, mismatched graphs, shapes, dtypes, or invalid dimension).
func Concatenate(f *gobackend.Function, axis int, operandOps ...compute.Value) (compute.Value, error) {
	if len(operandOps) == 0 {
		return nil, errors.Errorf("Concatenate requires at least one input tensor")
	}
	operands, err := f.VerifyAndCastValues("Concatenate", operandOps...)
	if err != nil {
		return nil, err
	}

	// Extract shapes for shape inference.
	inputShapes := make([]shapes.Shape, len(operands))
	for i, opNode := range operands {
		inputShapes[i] = opNode.Shape
	}
	outputShape, err := shapeinference.Concatenate(inputShapes, axis)
	if err != nil {
		return nil, err
	}
	node, _ := f.GetOrCreateNode(compute.OpTypeConcatenate, outputShape, operands, axis)
	return node, nil
}

// execConcatenate implements the Concatenate op using direct byte copying with offsets and strides.
func execConcatenate(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	axis := node.Data.(int) // Renamed from dimension
	outputShape := node.Shape
	if outputShape.IsDynamic() {
		concreteShape := outputShape.Clone()
		for d := range concreteShape.Rank() {
			if concreteShape.Dimensions[d] == shapes.DynamicDim {
				if d == axis {
					concatSize := 0
					for _, inputBuf := range inputs {
						concatSize += inputBuf.RawShape.Dimensions[d]
					}
					concreteShape.Dimensions[d] = concatSize
				} else {
					for _, inputBuf := range inputs {
						if inputBuf.RawShape.Dimensions[d] != shapes.DynamicDim {
							concreteShape.Dimensions[d] = inputBuf.RawShape.Dimensions[d]
							break
						}
					}
				}
			}
		}
		outputShape = concreteShape
	}
	dtype := outputShape.DType
	elemSize := dtype.Size()
	rank := outputShape.Rank()
	_ = inputsOwned // We don't reuse the inputs.

	// Allocate output buffer.
	output, err := backend.GetBuffer(outputShape)
	if err != nil {
		return nil, err
	}
	outputBytes, err := output.MutableBytes()
	if err != nil {
		return nil, err
	}

	// Calculate the size of the blocks before and after the concatenation axis.
	outerBlockSize := 1 // Number of independent blocks to copy
	for i := range axis {
		outerBlockSize *= outputShape.Dimensions[i]
	}
	innerBlockSize := 1 // Size of the innermost contiguous block (in elements)
	for i := axis + 1; i < rank; i++ {
		innerBlockSize *= outputShape.Dimensions[i]
	}
	innerBlockBytes := innerBlockSize * elemSize

	// Total size in bytes of one full "row" along the concatenation axis in the output.
	// This is the stride needed to jump from one outer block to the next in the output.
	outputConcatAxisStrideBytes := outputShape.Dimensions[axis] * innerBlockBytes

	// Current offset in bytes along the concatenation axis *within* an outer block in the output buffer.
	// This accumulates as we process each input tensor.
	outputAxisOffsetBytes := 0

	for _, inputBuf := range inputs {
		inputShape := inputBuf.RawShape
		inputDims := inputShape.Dimensions
		inputBytes, err := inputBuf.MutableBytes() // Use mutableBytes() for input
		if err != nil {
			return nil, err
		}

		// Size of the concatenation axis for this specific input.
		inputConcatAxisSize := inputDims[axis]

		// Total size in bytes to copy from this input *per outer block*.
		inputBlockBytes := inputConcatAxisSize * innerBlockBytes

		if concatWordsEnabled && inputBlockBytes <= smallConcatBlockBytes && concatWords32(outputBytes, inputBytes, inputBlockBytes,
			outputConcatAxisStrideBytes, outputAxisOffsetBytes, outerBlockSize) {
			outputAxisOffsetBytes += inputBlockBytes
			continue
		}

		// Iterate through all outer dimension blocks.
		for outerIdx := range outerBlockSize {
			// Calculate the starting byte position for the current outer block in the input.
			// This is simply the outer block index times the size of the block to copy for this input.
			inputStartOffset := outerIdx * inputBlockBytes

			// Calculate the starting byte position for the current outer block in the output.
			// This is the outer block index times the total output stride along the concat axis,
			// plus the accumulated offset from previous inputs along the concat axis.
			outputStartOffset := outerIdx*outputConcatAxisStrideBytes + outputAxisOffsetBytes

			// Copy the relevant block of bytes for the current outer block.
			copy(outputBytes[outputStartOffset:outputStartOffset+inputBlockBytes], inputBytes[inputStartOffset:inputStartOffset+inputBlockBytes])
		}

		// Update the offset for the next input along the concatenation axis.
		outputAxisOffsetBytes += inputBlockBytes
	}

	return output, nil
}

// concatWordsEnabled switches concatWords32 on (the tests turn it off to compare).
var concatWordsEnabled = true

// smallConcatBlockBytes is the largest block (the bytes one input contributes per outer index) that
// concatWords32 copies word by word instead of with a copy call per block.
const smallConcatBlockBytes = 32

// concatWords32 copies outerBlockSize blocks of blockBytes bytes (a multiple of 4, at most
// smallConcatBlockBytes) from input (consecutive) to output (outputStrideBytes apart, starting at
// outputOffsetBytes) as 32-bit words: a copy call per block cost more than the copy for LatFormer's
// factors, which concatenate blocks of one float. It returns false, copying nothing, where the sizes or the
// alignment do not allow it.
func concatWords32(output, input []byte, blockBytes, outputStrideBytes, outputOffsetBytes, outerBlockSize int) bool {
	if blockBytes%4 != 0 || outputStrideBytes%4 != 0 || outputOffsetBytes%4 != 0 || outerBlockSize == 0 ||
		uintptr(unsafe.Pointer(unsafe.SliceData(output)))%4 != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(input)))%4 != 0 ||
		len(input) < outerBlockSize*blockBytes || len(output) < (outerBlockSize-1)*outputStrideBytes+outputOffsetBytes+blockBytes {
		return false
	}
	words, stride := blockBytes/4, outputStrideBytes/4
	in := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(input))), outerBlockSize*words)
	out := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(output))), len(output)/4)[outputOffsetBytes/4:]
	if words == 1 {
		for i, v := range in {
			out[i*stride] = v
		}
		return true
	}
	for i := range outerBlockSize {
		o, w := out[i*stride:i*stride+words], in[i*words:(i+1)*words]
		for j := range o {
			o[j] = w[j]
		}
	}
	return true
}
