package matmul

// This file holds two products in a row for the opencl backend,
// c·(a·btᵀ)ᵀ: the first product, p, stays on the device for the second,
// whose inner Map runs over p's rows (launch.KeepRows, RowsDev): it is
// neither downloaded nor uploaded again. Tested against the spec on the
// device and benchmarked against the round trip (chain_test.go).

import "github.com/soacgen/soacgen/runtime/soac"

// matMulChainCLSpec returns c·pᵀ for p = a·btᵀ.
//
//soac:fuse MatMulChainCL backend=opencl
func matMulChainCLSpec(a, bt, c [][]float64) [][]float64 {
	p := soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float64) float64 { return x * y }), 0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
	return soac.Map(c, func(row []float64) []float64 {
		return soac.Map(p, func(col []float64) float64 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float64) float64 { return x * y }), 0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}
