package sumsqpos

// This file holds a copy of sumSqPosSpec with backend=opencl, so that
// soacgen's opencl backend is generated (its filter a select of the
// map-reduce kernel), tested against the spec on the device
// (opencl_test.go) and benchmarked (examples/internal/clbench). The copy
// must stay identical to the spec apart from its name.

import "github.com/soacgen/soacgen/runtime/soac"

// sumSqPosCLSpec is sumSqPosSpec for the opencl backend.
//
//soac:fuse SumSqPosCL backend=opencl
func sumSqPosCLSpec(xs []float64) float64 {
	return soac.Reduce(
		soac.Map(
			soac.Filter(xs, func(x float64) bool { return x > 0 }),
			func(x float64) float64 { return x * x }),
		0.0,
		func(a, b float64) float64 { return a + b })
}
