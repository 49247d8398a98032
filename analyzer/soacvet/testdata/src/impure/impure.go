// Package impure has specs whose lambdas have side effects: soacgen never
// reorders such calls, which blocks their fusion.
package impure

import (
	"fmt"

	"github.com/soacgen/soacgen/runtime/soac"
)

func add(a, b float64) float64 { return a + b }

// logged prints every element it maps: fusing the map into the reduction
// would interleave the prints differently from the reference.
//
//soac:fuse Logged
func logged(xs []float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 {
		fmt.Println(x) // want `^the lambda of Map@impure.go:18:8 calls fmt.Println \(I/O\): Map@impure.go:18:8 is not fused and is never reordered$`
		return x * 2
	})
	return soac.Reduce(ys, 0, add)
}

// counted writes a captured variable from its lambda.
//
//soac:fuse Counted
func counted(xs []float64) float64 {
	n := 0
	ys := soac.Map(xs, func(x float64) float64 {
		n++ // want `^the lambda of Map@impure.go:30:8 writes captured variable n: Map@impure.go:30:8 is not fused and is never reordered$`
		return x * 2
	})
	return soac.Reduce(ys, 0, add) + float64(n)
}

// notASpec has the same impure lambda outside a spec: only specs are
// checked for purity.
func notASpec(xs []float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 {
		fmt.Println(x)
		return x * 2
	})
	return soac.Reduce(ys, 0, add)
}

// pure is a spec with pure lambdas: no finding.
//
//soac:fuse Pure
func pure(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * 2 }), 0, add)
}
