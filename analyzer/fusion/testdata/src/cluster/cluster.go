// Package cluster holds specs on which the clustering methods were
// compared with the exhaustive search.
package cluster

import "github.com/soacgen/soacgen/runtime/soac"

// branchBoth (randpipe seed 7007 spec5): p4 is copied into both branches,
// so the two reductions form one group with it.
func branchBoth(xs []int64, k int64, c float64) ([]float64, int64) {
	a1 := soac.Iota(0)
	a2 := soac.Map2(a1, a1, func(x int, y int) int64 { return (k | (-k)) })
	a3 := soac.Map3(a2, a1, a2, func(x int64, y int, z int64) float64 {
		if (8 - y) < 1 {
			return float64(z)
		}
		return c
	})
	p4 := soac.Map(xs, func(x int64) int64 { return ((x * x) >> 1) })
	var r5 int64
	if k > 0 {
		r5 = soac.Reduce(p4, 0, func(a, b int64) int64 { return a + b })
	} else {
		r5 = soac.Reduce(soac.Map(p4, func(x int64) int64 { return x / 3 }), 0, func(a, b int64) int64 { return a | b })
	}
	return a3, r5
}
