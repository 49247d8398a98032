package mss

// mssHand is Kadane's algorithm, what a Go programmer writes for the maximal
// segment sum: one loop, two scalars. It is a cleverer algorithm than the
// spec's fold of 4-tuples (2 max operations per element instead of 5), and
// gives the same result for integers that do not overflow.
func mssHand(xs []int) int {
	best, cur := 0, 0
	for _, x := range xs {
		cur = max(cur+x, 0)
		best = max(best, cur)
	}
	return best
}
