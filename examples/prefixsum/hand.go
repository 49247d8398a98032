package prefixsum

import "math"

// prefixSumsHand is prefixSumsSpec as one loop into a preallocated slice.
func prefixSumsHand(xs []int) []int {
	out := make([]int, len(xs))
	acc := 0
	for i, x := range xs {
		acc += 3*x + 1
		out[i] = acc
	}
	return out
}

// prefixSqrtsHand is prefixSqrtsSpec as one loop into a preallocated slice,
// adding left to right from 0 as soac.Scan does.
func prefixSqrtsHand(xs []float64) []float64 {
	out := make([]float64, len(xs))
	acc := 0.0
	for i, x := range xs {
		acc += math.Sqrt(x)
		out[i] = acc
	}
	return out
}
