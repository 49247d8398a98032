package histogram

// This file holds a copy of histogramSpec with backend=opencl: the Map
// of values to bins runs into a device scratch buffer, one work-item per
// chunk counts its chunk's bins into its own row of nbins counts, and
// the rows are added by the operator's Map2 in chunk order. It is tested
// against the spec on the device (opencl_test.go) and benchmarked
// (examples/internal/clbench). The copy must stay identical to the spec
// apart from its name.

import "github.com/soacgen/soacgen/runtime/soac"

// histogramCLSpec is histogramSpec for the opencl backend.
//
//soac:fuse HistogramCL backend=opencl
func histogramCLSpec(xs []float64, lo, hi float64, nbins int) []int {
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

// histogramAutoSpec is histogramSpec for backend=auto: HistogramAuto
// runs the stream kernel on a GPU when launch's cost model says the call
// is large enough, else the parallel backend's code.
//
//soac:fuse HistogramAuto backend=auto
func histogramAutoSpec(xs []float64, lo, hi float64, nbins int) []int {
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
