package sumsqpos

// This file holds copies of sumSqPosSpec and ordersTotalSpec with
// backend=opencl, so that soacgen's opencl backend is generated (the
// filter a select of the map-reduce kernel), tested against the specs on
// the device (opencl_test.go) and benchmarked (examples/internal/clbench).
// The copies must stay identical to the specs apart from their names.

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

// ordersTotalCLSpec is ordersTotalSpec (orders.go) for the opencl
// backend: a struct input with a uint8 field, filtered on it.
//
//soac:fuse OrdersTotalCL backend=opencl
func ordersTotalCLSpec(os []Order) float64 {
	shipped := soac.Filter(os, func(o Order) bool { return o.Status == Shipped })
	return soac.Reduce(
		soac.Map(shipped, func(o Order) float64 { return o.Price * o.Qty }),
		0.0,
		func(a, b float64) float64 { return a + b })
}
