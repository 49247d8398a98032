package prefixsum

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// halfSqrtsCLSpec is halfSqrtsSpec generated for the opencl backend: the
// scan and the map reading it run as two launches on the device, the
// scan kept there between them.
//
//soac:fuse HalfSqrtsCL backend=opencl
func halfSqrtsCLSpec(xs []float64) []float64 {
	ps := soac.Scan(soac.Map(xs, math.Sqrt), 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(ps, func(p float64) float64 { return p * 0.5 })
}
