package p

import "github.com/soacgen/soacgen/runtime/soac"

// normSpec is a spec whose pipeline fuses and whose generated code is up
// to date: no finding.
//
//soac:fuse Norm
func normSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0, add)
}

// Sum is one SOAC: nothing to fuse, no finding.
func Sum(xs []float64) float64 {
	return soac.Reduce(xs, 0, add)
}
