// Package fma holds specs whose lambdas are named functions and method
// values computing x*y + z: under FMA contraction (GOAMD64=v3, arm64) the
// generated code must contract exactly where the spec does. The method
// value runs the compiler's method-value wrapper in the spec (so the
// generated code calls it too), and a named function's result is rounded
// where the spec's call of it rounds it before the next lambda uses it.
package fma

import "github.com/soacgen/soacgen/runtime/soac"

// Scaler is an affine map.
type Scaler struct{ Factor, Offset float64 }

// Apply returns x*Factor + Offset.
func (s Scaler) Apply(x float64) float64 { return x*s.Factor + s.Offset }

// Count has no floating-point arithmetic: it is inlined.
func (s Scaler) Count(x int) int { return x/len("ab") + x%3 }

func sq(x float64) float64     { return x * x }
func add(a, b float64) float64 { return a + b }

//soac:fuse MethodMap
func methodMapSpec(s Scaler, xs []float64) []float64 {
	return soac.Map(xs, s.Apply)
}

//soac:fuse MethodSum
func methodSumSpec(s *Scaler, xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, s.Apply), 0, add)
}

//soac:fuse IntMethod
func intMethodSpec(s Scaler, xs []int) []int {
	return soac.Map(xs, s.Count)
}

//soac:fuse ScanSq
func scanSqSpec(xs []float64) []float64 {
	return soac.Scan(soac.Map(xs, sq), 0, add)
}

//soac:fuse SumSqNamed
func sumSqNamedSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, sq), 0, func(a, b float64) float64 { return a + b })
}
