package fresh

import "github.com/soacgen/soacgen/runtime/soac"

// scaleSpec shifts and scales xs.
//
//soac:fuse Scale
func scaleSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x + 1 }), func(x float64) float64 { return x * k })
}

// Norm2 calls a generated function.
func Norm2(xs []float64) float64 { return SumSq(Scale(xs, 1)) }
