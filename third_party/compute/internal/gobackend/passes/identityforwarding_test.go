package passes_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	_ "github.com/gomlx/compute/internal/gobackend/ops"
	_ "github.com/gomlx/compute/internal/gobackend/passes"
	"github.com/gomlx/compute/shapes"
)

// TestIdentityForwarding: the users of Identity nodes (a chain of two, as StopGradient of a custom-gradient
// identity gives) read the operand after compilation, an Identity that is an output stays, and the values
// are those of the graph as written: z = (x + y) * x', out2 = x' with x' = Identity(Identity(x)).
func TestIdentityForwarding(t *testing.T) {
	backend := compute.MustNew()
	defer backend.Finalize()
	builder := backend.Builder("IdentityForwarding").(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)
	shape := shapes.Make(dtypes.Float32, 2, 3)
	x, _ := main.Parameter("x", shape, nil)
	y, _ := main.Parameter("y", shape, nil)
	id1, _ := main.Identity(x)
	id2, _ := main.Identity(id1)
	sum, _ := main.Add(id2, y)
	z, _ := main.Mul(sum, id2)
	if err := main.Return([]compute.Value{z, id2}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("Compile: %+v", err)
	}
	xNode, sumNode, zNode := x.(*gobackend.Node), sum.(*gobackend.Node), z.(*gobackend.Node)
	if sumNode.Inputs[0] != xNode || zNode.Inputs[1] != xNode {
		t.Errorf("Add and Mul read %s and %s, want the parameter x", sumNode.Inputs[0].OpType, zNode.Inputs[1].OpType)
	}
	if out := main.Outputs[1]; out.OpType != compute.OpTypeIdentity {
		t.Errorf("the Identity output became %s", out.OpType)
	}
	xData, yData := []float32{1, -2, 3, 0.5, 5, -6}, []float32{10, 20, 30, 40, 50, 60}
	xBuf, _ := backend.BufferFromFlatData(0, xData, shape)
	yBuf, _ := backend.BufferFromFlatData(0, yData, shape)
	outs, err := exec.Execute([]compute.Buffer{xBuf, yBuf}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, got2 := outs[0].(*gobackend.Buffer).Flat.([]float32), outs[1].(*gobackend.Buffer).Flat.([]float32)
	for i := range xData {
		if want := (xData[i] + yData[i]) * xData[i]; got[i] != want || got2[i] != xData[i] {
			t.Errorf("value %d: z = %g (want %g), x' = %g (want %g)", i, got[i], want, got2[i], xData[i])
		}
	}
}
