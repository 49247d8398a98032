// Package branches holds a producer consumed on disjoint branches, and
// control flow around kernels.
package branches

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Branch
func branchSpec(xs []int, c bool) int {
	ys := soac.Map(xs, func(x int) int { return x * 3 })
	if c {
		return soac.Reduce(ys, 0, func(a, b int) int { return a + b })
	} else {
		return soac.Reduce(ys, 0, func(a, b int) int { return max(a, b) })
	}
}

//soac:fuse Loop
func loopSpec(xs []int, k int) int {
	total := 0
	for j := 0; j < k%4; j++ {
		total += soac.Reduce(soac.Map(xs, func(x int) int { return x + j }), 0, func(a, b int) int { return a + b })
	}
	switch {
	case total > 10:
		total = soac.Reduce(soac.Filter(xs, func(x int) bool { return x > total%7 }), total, func(a, b int) int { return a - b })
	default:
		total++
	}
	return total
}

//soac:fuse ShadowedInput
func shadowedInputSpec(xs []int, c bool) int {
	k := 3
	ys := soac.Map(xs, func(x int) int { return x * k })
	if c {
		xs := []int{1, 2}
		k := 100
		_, _ = xs, k
		return soac.Reduce(ys, 0, func(a, b int) int { return a + b })
	} else {
		return soac.Reduce(ys, 1, func(a, b int) int { return a*3 + b })
	}
}
