// Package refusals holds pipelines the engine must not fuse: the generated
// code must still compute what the spec computes.
package refusals

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse WriteBetween
func writeBetweenSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return x + 1 })
	if len(xs) > 0 {
		xs[0] = 1000
	}
	zs := soac.Map(xs, func(x int) int { return x * 2 })
	return soac.Reduce(soac.Map2(ys, zs, func(a, b int) int { return a + b }), 0, func(a, b int) int { return a + b })
}

//soac:fuse Reassigned
func reassignedSpec(xs []int) int {
	k := 2
	ys := soac.Map(xs, func(x int) int { return x * k })
	k = 5
	return soac.Reduce(ys, k, func(a, b int) int { return a + b })
}

//soac:fuse LengthPanic
func lengthPanicSpec(xs, ys []int) []int {
	as := soac.Map(xs, func(x int) int { return 100 / (x%5 + 1) })
	return soac.Map2(as, ys, func(a, y int) int { return a + y })
}

// Impure: both maps append to the same captured slice; run in one loop
// they would interleave the appends.
//
//soac:fuse Impure
func impureSpec(xs []int) (int, []int) {
	var seen []int
	ys := soac.Map(xs, func(x int) int { seen = append(seen, x); return x + 1 })
	zs := soac.Map(xs, func(x int) int { seen = append(seen, -x); return x * 2 })
	return soac.Reduce(soac.Map2(ys, zs, func(a, b int) int { return a + b }), 0, func(a, b int) int { return a + b }), seen
}
