package prefixsum

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// prefixSumsParSpec is prefixSumsSpec for the parallel backend.
//
//soac:fuse PrefixSumsPar backend=parallel
func prefixSumsParSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return 3*x + 1 })
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}

// prefixSqrtsParSpec is prefixSqrtsSpec for the parallel backend.
//
//soac:fuse PrefixSqrtsPar backend=parallel
func prefixSqrtsParSpec(xs []float64) []float64 {
	return soac.Scan(soac.Map(xs, math.Sqrt), 0.0, func(a, b float64) float64 { return a + b })
}

// halfSqrtsParSpec is halfSqrtsSpec for the parallel backend: a scan
// whose elements a map reads (parallel.CarriedLocal).
//
//soac:fuse HalfSqrtsPar backend=parallel
func halfSqrtsParSpec(xs []float64) []float64 {
	ps := soac.Scan(soac.Map(xs, math.Sqrt), 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(ps, func(p float64) float64 { return p * 0.5 })
}

// chunkedSumsParSpec is chunkedSumsSpec for the parallel backend: a
// stream followed by a scan (lower.ChunkedThen).
//
//soac:fuse ChunkedSumsPar backend=parallel
func chunkedSumsParSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 3*x + 1
		}
		return out
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}
