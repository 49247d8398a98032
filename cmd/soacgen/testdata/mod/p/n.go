package p

import "github.com/soacgen/soacgen/runtime/soac"

// This file puts normalize2 where docs/contract.md's report example has it.

//go:generate go run github.com/soacgen/soacgen/cmd/soacgen

// normalize2Spec divides xs by its sum and by the sum of its positive elements.
//
//soac:fuse Normalize2
func normalize2Spec(xs []float64) (ys1, ys2 []float64) {
	sum1 := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, func(a, b float64) float64 { return a + b })
	ys1 = soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 = soac.Map(xs, func(x float64) float64 { return x / sum2 })
	return ys1, ys2
}

// sumSquares is not a spec: it has no //soac:fuse directive.
func sumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b })
}

// scaleSpec is a spec with a backend of its own.
//
//soac:fuse Scale backend=opencl
func scaleSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x * k }), func(x float64) float64 { return x + 1 })
}
