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

func h1(x int64) bool { return x > 0 }

func op2(a, b int64) int64 { return min(a, b) }

// nested (randpipe seed 1000 spec3): a filter, reductions over it and
// SOACs nested in a lambda that reads them. a4 needs s3 complete, so a2
// fuses into s3's kernel and is written out for a4 (map-out).
func nested(xs []int64, ys []int64) ([]int64, []int64) {
	s1 := soac.Reduce(ys, 0, func(a, b int64) int64 { return a | b })
	a2 := soac.Filter(ys, h1)
	s3 := soac.Reduce(a2, 1<<62, op2)
	a4 := soac.Map(a2, func(x int64) int64 { // a2 fuses into s3's kernel, written out for a4 (map-out)
		return soac.Reduce(soac.Map(soac.Iota(3), func(i int) int64 { return ((s1 - s3) ^ s1) }), 1, func(a, b int64) int64 { return a * b })
	})
	p5 := soac.Filter(xs, func(x int64) bool { return x != 3 })
	q6 := soac.Map2(xs, p5, func(a, b int64) int64 { return a - 2*b }) // want `panic-order: .*` `diag size: .*` `size-mismatch: .*`
	var a7 []int64
	a7 = soac.Map(a4, func(x int64) int64 { return (((-2) >> 1) & x) })
	return q6, a7
}

func add(a, b float64) float64 { return a + b }

// mapOutThree: w needs s complete, so x shares a group with s and v,
// which run before w, and is written out for w (map-out); the clustering
// {x, s}, {v, w} is legal too, and dearer.
func mapOutThree(a []float64) ([]float64, []float64) {
	x := soac.Map(a, func(e float64) float64 { return e + 1 })
	s := soac.Reduce(x, 0.0, add)
	v := soac.Map(x, func(e float64) float64 { return e * 2 })
	w := soac.Map(x, func(e float64) float64 { return e / s })
	return v, w
}

// effectsBeside: the impure map fuses into the reduction right after it
// (effects in order); t, over the same array, never joins that group.
func effectsBeside(xs []float64) (float64, float64, []float64) {
	var log []float64
	x := soac.Map(xs, func(v float64) float64 {
		log = append(log, v) // want `diag impure: .*`
		return v * 2
	})
	s := soac.Reduce(x, 0, func(a, b float64) float64 { return a + b })
	t := soac.Reduce(xs, 0, func(a, b float64) float64 { return a + b })
	return s, t, log
}
