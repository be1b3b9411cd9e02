package passes

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(90, &IdentityForwarding{})
}

// IdentityForwarding makes the users of an Identity node read its operand instead.
//
// Identity computes nothing, but its executor copies the operand whenever the operand is still used elsewhere
// (it may only hand over a buffer it owns). GoMLX emits Identity for StopGradient and for custom gradients
// (IdentityWithCustomGradient), whose operand is usually used elsewhere too: each such node copied a whole
// tensor per execution. After this pass the Identity nodes are left without users (dead-code elimination skips
// them), except those that are a function's outputs, which keep their copy. Values do not change: no op writes
// into an input it does not own, and ownership is counted after the passes.
type IdentityForwarding struct{}

// Name implements gobackend.GraphTransformation.
func (p *IdentityForwarding) Name() string {
	return "IdentityForwarding"
}

// Apply implements gobackend.GraphTransformation: every input that is an Identity node of the same function
// (through chains of them) is replaced by the Identity's operand.
func (p *IdentityForwarding) Apply(b *gobackend.Builder) (bool, error) {
	for _, f := range b.Functions {
		for _, node := range f.Nodes {
			if node.OpType == compute.OpTypeIdentity && slices.Contains(f.Outputs, node) {
				continue
			}
			for i, input := range node.Inputs {
				for input.OpType == compute.OpTypeIdentity && len(input.Inputs) == 1 &&
					input.Function == node.Function && input.Inputs[0].Function == node.Function {
					input = input.Inputs[0]
				}
				node.Inputs[i] = input
			}
		}
	}
	return false, nil
}
