package histogram

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(xs []float64, lo, hi float64, nbins int) []int
}{
	{"spec", histogramSpec},
	{"fused", Histogram},
	{"hand", histogramHand},
	{"lo", histogramLo},
	{"iter", histogramIter},
}

// histogramLo maps to bin indices with lo.Map and counts them with lo.Reduce
// into one bins slice.
func histogramLo(xs []float64, low, high float64, nbins int) []int {
	idx := lo.Map(xs, func(x float64, _ int) int { return bin(x, low, high, nbins) })
	return lo.Reduce(idx, func(bins []int, i int, _ int) []int {
		bins[i]++
		return bins
	}, make([]int, nbins))
}

// histogramIter is one chain: map to bin indices, fold into the bins.
func histogramIter(xs []float64, low, high float64, nbins int) []int {
	return seq.Reduce(
		seq.Map(seq.Values(xs), func(x float64) int { return bin(x, low, high, nbins) }),
		make([]int, nbins),
		func(bins []int, i int) []int {
			bins[i]++
			return bins
		})
}
