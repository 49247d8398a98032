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
	a4 := soac.Map(a2, func(x int64) int64 { // want `consumed-twice: a2 .* written out \(map-out\) for this one`
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
	w := soac.Map(x, func(e float64) float64 { return e / s }) // want `consumed-twice: x .* written out \(map-out\) for this one`
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

func one(p0 int64) int64 { return 1 }

func cube(p0 int64) int64 { return p0 * (p0 * p0) }

func xor(a, b int64) int64 { return a ^ b }

func maxOp(a, b int64) int64 { return max(a, b) }

// impureChain (randpipe seed 7001 spec6): p4 counts in cnt3, which q5's
// lambda reads.
func impureChain(xs []int64, ys []int64, fs []float64) (int64, []int64, []int64, int64, []float64) {
	n1 := len(fs)
	a2 := soac.Replicate(n1, float64((0 - 0.25)))
	cnt3 := int64(0)
	p4 := soac.Map(xs, func(x int64) int64 { cnt3++; return x + cnt3 }) // want `impure: p4 .*` `impure: a2 .*` `diag impure: .*`
	q5 := soac.Map(p4, func(v int64) int64 { return v*2 + cnt3 })
	a6 := soac.Map(a2, func(x float64) float64 {
		var out []float64
		out = append(out, min(min(x, x), (x+x)), (-0.5))
		if len(out) > 1 {
			out[1] = out[0] - out[1]
		}
		return out[1]
	})
	a7 := soac.Map(xs, one)
	var a8 []int64
	a8 = soac.Filter(xs, func(x int64) bool { return ((x % 7) % 7) != x })
	var a9 []int64
	a9 = soac.Scan(a8, 0, func(a, b int64) int64 { return a + b })
	s10 := soac.Reduce(q5, -1, func(a, b int64) int64 { return a & b })
	a11 := soac.StreamMap(a6, func(ch []float64) []float64 {
		out := make([]float64, len(ch))
		for i, v := range ch {
			out[i] = v + ((v / 2) - float64(1))
		}
		return out
	})
	return cnt3, a7, a9, s10, a11
}

// impureRebound (randpipe seed 7031 spec3): the impure a2 feeds a
// reduction whose result other SOACs read, and a2 is bound again.
func impureRebound(xs []int64, ys []int64, fs []float64, k int64) (int64, []int64, []int64, []float64, int64) {
	cnt1 := int64(0)
	a2 := soac.Map(xs, func(x int64) int64 { cnt1++; return max((-x), (x * k)) }) // want `impure: a2 .*` `diag impure: .*`
	s3 := soac.Reduce(a2, 0, xor)
	a4 := soac.Iota(len(ys))
	f5 := func(x int) int64 { return ((k | k) + (k >> 1)) }
	a6 := soac.Map(a4, f5)
	var a7 = soac.Map(fs, func(x float64) float64 {
		var out []float64
		out = append(out, (min(x, (-0.5)) * 1.5), float64((s3 & k)))
		if len(out) > 1 {
			out[1] = out[0] - out[1]
		}
		return out[1]
	})
	var a8 []int64
	a8 = soac.Replicate(len(a2), int64((s3 & k)))
	a2 = soac.Map(a8, func(x int64) int64 { return (x + x) })
	a9 := soac.Map(a7, func(x float64) float64 {
		var out []float64
		out = append(out, 2, ((x + x) - float64(s3)))
		if len(out) > 1 {
			out[1] = out[0] - out[1]
		}
		return out[1]
	})
	p10 := soac.Map(xs, cube)
	r11 := int64(-1)
	if k%2 == 0 { // p10 cannot panic: it runs in the branch only
		r11 = soac.Reduce(p10, -1<<63, maxOp)
	}
	return cnt1, a6, a2, a9, r11
}
