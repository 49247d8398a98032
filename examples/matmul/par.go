package matmul

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names. The rows run in
// parallel; each inner product of 8 elements or more is summed over 4
// interleaved accumulators (rewrite/backend/parallel parnested.go), so
// the results differ from the spec's by rounding, the same bits for any
// number of cores.

import "github.com/soacgen/soacgen/runtime/soac"

// matMulParSpec is matMulSpec for the parallel backend.
//
//soac:fuse MatMulPar backend=parallel
func matMulParSpec(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float64) float64 { return x * y }),
				0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}
