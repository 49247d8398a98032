package minmax

import "math"

// boundsHand is boundsSpec as one loop with one accumulator per bound.
func boundsHand(xs []int32) (lo, hi int32) {
	lo, hi = math.MaxInt32, math.MinInt32
	for _, x := range xs {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return lo, hi
}
