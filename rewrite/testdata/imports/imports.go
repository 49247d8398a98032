// Package imports uses renamed and dot imports inside lambdas and specs.
package imports

import (
	m "math"

	. "github.com/soacgen/soacgen/runtime/soac"
)

//soac:fuse Norm
func normSpec(xs []float64) float64 {
	sq := Map(xs, func(x float64) float64 { return m.Abs(x) * x })
	return m.Sqrt(m.Abs(Reduce(sq, 0.0, func(a, b float64) float64 { return a + b })))
}

//soac:fuse Sqrts
func sqrtsSpec(xs []float64) []float64 {
	return Map(Map(xs, m.Abs), m.Sqrt)
}

const normSpecAllocs = 0
