// Package gas has a pipeline of three SOACs, which the gas test fuses
// with and without a limit.
package gas

import "github.com/soacgen/soacgen/runtime/soac"

func sq(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

func sumQuads(xs []float64) float64 {
	return soac.Reduce(soac.Map(soac.Map(xs, sq), sq), 0, add)
}
