package p

import "github.com/soacgen/soacgen/runtime/soac"

// scaledSpec scales xs by k. The test generates Scaled, then changes this
// body, so that the generated code is stale.
//
//soac:fuse Scaled
func scaledSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, square), func(x float64) float64 { return x * k })
}
