package histogram

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// histogramParSpec is histogramSpec for the parallel backend.
//
//soac:fuse HistogramPar backend=parallel
func histogramParSpec(xs []float64, lo, hi float64, nbins int) []int {
	idx := soac.Map(xs, func(x float64) int { return bin(x, lo, hi, nbins) })
	return soac.StreamRed(idx,
		func(a, b []int) []int {
			return soac.Map2(a, b, func(x, y int) int { return x + y })
		},
		func(chunk []int) []int {
			bins := make([]int, nbins)
			for _, i := range chunk {
				bins[i]++
			}
			return bins
		})
}
