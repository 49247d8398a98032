package matmul

// This file holds a copy of matMulSpec with backend=opencl: one
// work-item per element of the product on the device (the grid form of
// the opencl backend), the inner product a dot product whose operands
// the work-group loads through local memory in tiles, each element
// summed left to right as the spec does. It is tested against the spec on the device (opencl_test.go)
// and benchmarked (examples/internal/clbench). The copy must stay
// identical to the spec apart from its name.

import "github.com/soacgen/soacgen/runtime/soac"

// matMulCLSpec is matMulSpec for the opencl backend.
//
//soac:fuse MatMulCL backend=opencl
func matMulCLSpec(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float64) float64 { return x * y }),
				0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}

// matMulAutoSpec is matMulSpec for backend=auto: MatMulAuto runs the
// grid kernel on a GPU when launch's cost model says the product is
// large enough, else the parallel backend's code.
//
//soac:fuse MatMulAuto backend=auto
func matMulAutoSpec(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float64) float64 { return x * y }),
				0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}
