package sumsqpos

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// ordersTotalParSpec is ordersTotalSpec for the parallel backend.
//
//soac:fuse OrdersTotalPar backend=parallel
func ordersTotalParSpec(os []Order) float64 {
	shipped := soac.Filter(os, func(o Order) bool { return o.Status == Shipped })
	return soac.Reduce(
		soac.Map(shipped, func(o Order) float64 { return o.Price * o.Qty }),
		0.0,
		func(a, b float64) float64 { return a + b })
}

// sumSqPosParSpec is sumSqPosSpec for the parallel backend.
//
//soac:fuse SumSqPosPar backend=parallel
func sumSqPosParSpec(xs []float64) float64 {
	return soac.Reduce(
		soac.Map(
			soac.Filter(xs, func(x float64) bool { return x > 0 }),
			func(x float64) float64 { return x * x }),
		0.0,
		func(a, b float64) float64 { return a + b })
}
