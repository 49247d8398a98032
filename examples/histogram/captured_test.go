package histogram

import (
	"github.com/soacgen/soacgen/runtime/parallel"
	"github.com/soacgen/soacgen/runtime/soac"
)

// histogramParCaptured is HistogramPar's parallel branch as the parallel
// backend generated it before its chunk functions declared their own
// copies of the function literals (hostgo.Func.LocalFuncsUsed): the chunk
// function calls fn, evaluated outside it, through the captured variable
// once per element, where the compiler inlines the literal into the cpu
// backend's loop. BenchmarkParPaired times it beside HistogramPar.
func histogramParCaptured(xs []float64, lo, hi float64, nbins int) []int {
	fn := soac.Opaque(func(x float64) int {
		return bin(x, lo, hi, nbins)
	})
	return parallel.StreamRedChunks(len(xs), 4546, false, make([]int, nbins), func(a, b []int) []int {
		out := make([]int, len(a))
		for i := range a {
			out[i] = a[i] + b[i]
		}
		return out
	}, func(lo, hi int, _ []int) []int {
		bins := make([]int, nbins)
		for i := lo; i < hi; i++ {
			bins[fn(xs[i])]++
		}
		return bins
	})
}
