package minmax

import (
	"math"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func([]int32) (int32, int32)
}{
	{"spec", boundsSpec},
	{"fused", Bounds},
	{"hand", boundsHand},
	{"lo", boundsLo},
	{"iter", boundsIter},
}

// boundsLo uses lo.Min and lo.Max: two passes (and lo returns 0, not the
// extremes, for an empty slice).
func boundsLo(xs []int32) (int32, int32) {
	if len(xs) == 0 {
		return math.MaxInt32, math.MinInt32
	}
	return lo.Min(xs), lo.Max(xs)
}

// boundsIter is two iterator chains: one per bound, so two passes.
func boundsIter(xs []int32) (int32, int32) {
	low := seq.Reduce(seq.Values(xs), int32(math.MaxInt32), func(a, b int32) int32 { return min(a, b) })
	high := seq.Reduce(seq.Values(xs), int32(math.MinInt32), func(a, b int32) int32 { return max(a, b) })
	return low, high
}
