package sumsq

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// sumSqParSpec is sumSqSpec for the parallel backend.
//
//soac:fuse SumSqPar backend=parallel
func sumSqParSpec(xs []float64) float64 {
	sq := func(x float64) float64 { return x * x }
	return soac.Reduce(soac.Map(xs, sq), 0.0, func(a, b float64) float64 { return a + b })
}
