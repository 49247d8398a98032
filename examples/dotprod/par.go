package dotprod

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// dotParSpec is dotSpec for the parallel backend.
//
//soac:fuse DotPar backend=parallel
func dotParSpec(xs, ys []float64) float64 {
	return soac.Reduce(
		soac.Map2(xs, ys, func(x, y float64) float64 { return x * y }),
		0.0,
		func(a, b float64) float64 { return a + b })
}
