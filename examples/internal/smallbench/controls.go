package smallbench

// This file holds second copies of three examples' specs for the cpu
// backend (sumsq.SumSq, sumsqpos.SumSqPos, prefixsum.ChunkedSums), so
// that BenchmarkSmallPaired can pair a cpu function with its own
// identical code at another address: the ratio such an A/A pair measures
// is what code placement alone (alignment, branch predictor and cache
// aliasing) moves a call of a few nanoseconds, the noise floor against
// which the parallel functions' ratios are read. The copies must stay
// identical to the specs apart from their names (TestControlsMatch).

//go:generate go run github.com/soacgen/soacgen/cmd/soacgen

import "github.com/soacgen/soacgen/runtime/soac"

// sumSqCopySpec is sumsq's sumSqSpec.
//
//soac:fuse SumSqCopy
func sumSqCopySpec(xs []float64) float64 {
	sq := func(x float64) float64 { return x * x }
	return soac.Reduce(soac.Map(xs, sq), 0.0, func(a, b float64) float64 { return a + b })
}

// sumSqPosCopySpec is sumsqpos's sumSqPosSpec.
//
//soac:fuse SumSqPosCopy
func sumSqPosCopySpec(xs []float64) float64 {
	return soac.Reduce(
		soac.Map(
			soac.Filter(xs, func(x float64) bool { return x > 0 }),
			func(x float64) float64 { return x * x }),
		0.0,
		func(a, b float64) float64 { return a + b })
}

// chunkedSumsCopySpec is prefixsum's chunkedSumsSpec.
//
//soac:fuse ChunkedSumsCopy
func chunkedSumsCopySpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 3*x + 1
		}
		return out
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}
