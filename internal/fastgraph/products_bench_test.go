// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package fastgraph_test

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/latformer/latformer/backend"
)

func randT(dims ...int) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
	tensors.MustMutableFlatData[float32](t, func(f []float32) {
		for i := range f {
			f[i] = float32(i%13) / 13
		}
	})
	return t
}

// The matrix products of the full attention's step on GoMLX's Go backend (backend.New), in the layouts the
// graph uses and the alternatives, per op (docs/bench.md, "Per op on compute v0.1.14"): go test -run '^$'
// -bench 'Layout|Factor|KroneckerTerms' ./internal/fastgraph

// BenchmarkLayoutSmallTimesSquare: products of an n x n operand with a narrow one (B = 8 examples), in the
// layouts of the attention's forward and backward (smallT.sq, sq.small) and the alternatives.
func BenchmarkLayoutSmallTimesSquare(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 400, 900} {
		const B, s = 8, 33
		sq, smallT, small := randT(B, n, n), randT(B, s, n), randT(B, n, s)
		for name, f := range map[string]func(sq, smallT, small *Node) *Node{
			"smallT.sq": func(sq, smallT, small *Node) *Node {
				return DotGeneral(smallT, []int{2}, []int{0}, sq, []int{1}, []int{0})
			},
			"sqT.small": func(sq, smallT, small *Node) *Node {
				return DotGeneral(sq, []int{1}, []int{0}, small, []int{1}, []int{0})
			},
			"transp(sq).small": func(sq, smallT, small *Node) *Node {
				return DotGeneral(TransposeAllDims(sq, 0, 2, 1), []int{2}, []int{0}, small, []int{1}, []int{0})
			},
			"sq.small(fwd)": func(sq, smallT, small *Node) *Node {
				return DotGeneral(sq, []int{2}, []int{0}, small, []int{1}, []int{0})
			},
			"small.sqT(Q.K^T-like)": func(sq, smallT, small *Node) *Node {
				return DotGeneral(small, []int{2}, []int{0}, small, []int{2}, []int{0})
			},
		} {
			exec := MustNewExec(be, f)
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				for b.Loop() {
					out := exec.MustExec(sq, smallT, small)
					out[0].FinalizeAll()
				}
			})
		}
	}
}

// BenchmarkFactorProducts: the dense lattice mask from its per-cell factors, [b, i, j, c, T] x [b, i, j, e, T],
// and the two products of its gradient, at canvas 30 (b = 16).
func BenchmarkFactorProducts(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, T := range []int{2, 4, 8} {
		const B, s = 16, 30
		l, r, dm := randT(B, s, s, s, T), randT(B, s, s, s, T), randT(B, s, s, s, s)
		for name, f := range map[string]func(l, r, dm *Node) *Node{
			"dense=l.rT": func(l, r, dm *Node) *Node {
				return DotGeneral(l, []int{4}, []int{0, 1, 2}, r, []int{4}, []int{0, 1, 2})
			},
			"dl=dM.r": func(l, r, dm *Node) *Node {
				return DotGeneral(dm, []int{4}, []int{0, 1, 2}, r, []int{3}, []int{0, 1, 2})
			},
			"dR=lT.dM": func(l, r, dm *Node) *Node {
				return DotGeneral(TransposeAllDims(l, 0, 1, 2, 4, 3), []int{4}, []int{0, 1, 2}, dm, []int{3}, []int{0, 1, 2})
			},
		} {
			exec := MustNewExec(be, f)
			b.Run(fmt.Sprintf("T=%d/%s", T, name), func(b *testing.B) {
				for b.Loop() {
					exec.MustExec(l, r, dm)[0].FinalizeAll()
				}
			})
		}
	}
}

// BenchmarkFactorLayouts: the dense mask product with its batch axes merged, with the right-hand factor
// transposed, and as a broadcast multiplication and sum.
func BenchmarkFactorLayouts(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, T := range []int{4, 8} {
		const B, s = 16, 30
		n := B * s * s
		l, r := randT(B, s, s, s, T), randT(B, s, s, s, T)
		for name, f := range map[string]func(l, r *Node) *Node{
			"3 batch axes": func(l, r *Node) *Node { return DotGeneral(l, []int{4}, []int{0, 1, 2}, r, []int{4}, []int{0, 1, 2}) },
			"1 batch axis": func(l, r *Node) *Node {
				return DotGeneral(Reshape(l, n, s, T), []int{2}, []int{0}, Reshape(r, n, s, T), []int{2}, []int{0})
			},
			"1 batch axis, rT": func(l, r *Node) *Node {
				rt := TransposeAllDims(Reshape(r, n, s, T), 0, 2, 1)
				return DotGeneral(Reshape(l, n, s, T), []int{2}, []int{0}, rt, []int{1}, []int{0})
			},
			"broadcast mul-sum": func(l, r *Node) *Node {
				l5 := Reshape(l, n, s, 1, T)
				r5 := Reshape(r, n, 1, s, T)
				return ReduceSum(Mul(l5, r5), -1)
			},
		} {
			exec := MustNewExec(be, f)
			b.Run(fmt.Sprintf("T=%d/%s", T, name), func(b *testing.B) {
				for b.Loop() {
					exec.MustExec(l, r)[0].FinalizeAll()
				}
			})
		}
	}
}

// BenchmarkKroneckerTerms: the dense mask of one unrotated and one rotated term at canvas 30 (b = 16) and the
// gradients of their factors, as per-example products with block transposes, against the per-cell products.
func BenchmarkKroneckerTerms(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	const B, s = 16, 30
	a0, b0, a1, b1 := randT(B, s*s, 1), randT(B, s*s, 1), randT(B, s*s, 1), randT(B, s*s, 1)
	dm := randT(B, s, s, s, s)
	for name, f := range map[string]func(a0, b0, a1, b1, dm *Node) *Node{
		"forward: products+transposes": func(a0, b0, a1, b1, dm *Node) *Node {
			p0 := DotGeneral(a0, []int{2}, []int{0}, b0, []int{2}, []int{0}) // [b, (i,c), (j,e)]
			p1 := DotGeneral(a1, []int{2}, []int{0}, b1, []int{2}, []int{0}) // [b, (j,c), (i,e)]
			m0 := TransposeAllDims(Reshape(p0, B, s, s, s, s), 0, 1, 3, 2, 4)
			m1 := TransposeAllDims(Reshape(p1, B, s, s, s, s), 0, 3, 1, 2, 4)
			return Add(m0, m1)
		},
		"forward: broadcast muls": func(a0, b0, a1, b1, dm *Node) *Node {
			m0 := Mul(Reshape(a0, B, s, 1, s, 1), Reshape(b0, B, 1, s, 1, s))
			m1 := Mul(Reshape(a1, B, 1, s, s, 1), Reshape(b1, B, s, 1, 1, s))
			return Add(m0, m1)
		},
		"backward: transposes+products": func(a0, b0, a1, b1, dm *Node) *Node {
			d0 := Reshape(TransposeAllDims(dm, 0, 1, 3, 2, 4), B, s*s, s*s) // [b, (i,c), (j,e)]
			d1 := Reshape(TransposeAllDims(dm, 0, 2, 3, 1, 4), B, s*s, s*s) // [b, (j,c), (i,e)]
			da0 := DotGeneral(d0, []int{2}, []int{0}, b0, []int{1}, []int{0})
			db0 := DotGeneral(TransposeAllDims(a0, 0, 2, 1), []int{2}, []int{0}, d0, []int{1}, []int{0})
			da1 := DotGeneral(d1, []int{2}, []int{0}, b1, []int{1}, []int{0})
			db1 := DotGeneral(TransposeAllDims(a1, 0, 2, 1), []int{2}, []int{0}, d1, []int{1}, []int{0})
			return Add(Add(ReduceAllSum(da0), ReduceAllSum(db0)), Add(ReduceAllSum(da1), ReduceAllSum(db1)))
		},
	} {
		exec := MustNewExec(be, f)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				exec.MustExec(a0, b0, a1, b1, dm)[0].FinalizeAll()
			}
		})
	}
}

// BenchmarkMaskFactors: the dense lattice mask from its factors (T = 2 terms, b = 16) and the two products of its
// gradient, at canvas 10, 20 and 30, in three layouts:
//   - "per-cell": before #63, per query cell on the whole batch, n products of [l × T]·[T × l] per example with the
//     right factor as [.., l, T] (the backend's transposed layout; its gradient transposed back);
//   - "per-cell-8-slices-rT": since #63, the same in 8 slices of 2 examples, as the attention computes it at canvas
//     30 (fastgraph.InBatchChunks), with the right factor as Rᵀ [.., T, l] (LatticeMask.Factors), whose gradient
//     comes out in that layout;
//   - "by-axis": one product per example and outer query axis, with L [b, p, x, T] broadcast over o (measured and
//     not taken: each term group then needs its own query order, and the orders cost two n x n copies).
//
// Each variant returns its outputs, so no extra pass over them is timed.
func BenchmarkMaskFactors(b *testing.B) {
	be, err := backend.New()
	if err != nil {
		b.Fatal(err)
	}
	const B, T, slices = 16, 2, 8
	for _, s := range []int{10, 20, 30} {
		cell, cellR, cellRT, dm := randT(B, s, s, s, T), randT(B, s, s, s, T), randT(B, s, s, T, s), randT(B, s, s, s, s)
		l, r := randT(B, s, s, T), randT(B, s, s, T)
		bcast := func(l *Node) *Node {
			d := l.Shape().Dimensions
			return BroadcastToDims(Reshape(l, d[0], 1, d[1], d[2], d[3]), d[0], s, d[1], d[2], d[3])
		}
		sliced := func(f func(xs ...*Node) []*Node, xs ...*Node) []*Node {
			var outs []*Node
			for k := range slices {
				cut := make([]*Node, len(xs))
				for i, x := range xs {
					cut[i] = Slice(x, AxisRange(k*B/slices, (k+1)*B/slices))
				}
				outs = append(outs, f(cut...)...)
			}
			return outs
		}
		batch := []int{0, 1, 2}
		for name, f := range map[string]func(cell, cellR, cellRT, l, r, dm *Node) []*Node{
			"per-cell/forward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				return []*Node{DotGeneral(cell, []int{4}, batch, cellR, []int{4}, batch)}
			},
			"per-cell/backward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				dl := DotGeneral(dm, []int{4}, batch, cellR, []int{3}, batch)
				dR := DotGeneral(TransposeAllDims(cell, 0, 1, 2, 4, 3), []int{4}, batch, dm, []int{3}, batch)
				return []*Node{dl, TransposeAllDims(dR, 0, 1, 2, 4, 3)}
			},
			"per-cell-8-slices-rT/forward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				return sliced(func(xs ...*Node) []*Node {
					return []*Node{DotGeneral(xs[0], []int{4}, batch, xs[1], []int{3}, batch)}
				}, cell, cellRT)
			},
			"per-cell-8-slices-rT/backward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				return sliced(func(xs ...*Node) []*Node {
					dl := DotGeneral(xs[2], []int{4}, batch, xs[1], []int{4}, batch)
					drT := DotGeneral(TransposeAllDims(xs[0], 0, 1, 2, 4, 3), []int{4}, batch, xs[2], []int{3}, batch)
					return []*Node{dl, drT}
				}, cell, cellRT, dm)
			},
			"by-axis/forward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				return []*Node{DotGeneral(bcast(l), []int{4}, []int{0, 1}, r, []int{3}, []int{0, 1})}
			},
			"by-axis/backward": func(cell, cellR, cellRT, l, r, dm *Node) []*Node {
				d := Reshape(dm, B, s, s, s, s)
				dl := ReduceSum(DotGeneral(d, []int{4}, []int{0, 1}, r, []int{2}, []int{0, 1}), 1)
				dr := DotGeneral(bcast(TransposeAllDims(l, 0, 3, 1, 2)), []int{3, 4}, []int{0, 1}, d, []int{2, 3}, []int{0, 1})
				return []*Node{dl, dr}
			},
		} {
			exec := MustNewExec(be, f)
			b.Run(fmt.Sprintf("canvas=%d/%s", s, name), func(b *testing.B) {
				for b.Loop() {
					for _, o := range exec.MustExec(cell, cellR, cellRT, l, r, dm) {
						o.FinalizeAll()
					}
				}
			})
		}
	}
}
