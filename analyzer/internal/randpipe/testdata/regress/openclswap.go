// Regression spec (random, seed 130002, spec3): a loop reassigning a1
// and two scalars, StreamReds of the input and of a1, and a tuple swap
// of a Scan's output with a scratch slice before a Reduce that reads
// both the swapped array and s5; the opencl backend's s9 differed (45
// for 39 on 7 elements). The cause was not the swap: the loop's a1 was
// kept on the device for the Reduce after it in the body, but a1's
// value leaves the body (the next round, and s5's StreamRed after the
// loop) through its Go variable, which kept the loop's first value; s5,
// then s9, were wrong. swapReducedSpec is the smallest spec found that
// did the same.

package openclswap

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func op4(a, b int64) int64 {
	return a * b
}

func op5(a, b int64) int64 {
	return max(a, b)
}

// openclSwapSpec has shapes reassign-read, loop-carried, loop-range, double-buffer.
//
//soac:fuse OpenCLSwap
func openclSwapSpec(xs []int64, fs []float64, k int64, c float64) (int64, int64, []int64, []int64, []int64, int64) {
	a1 := soac.Map(xs, func(x int64) int64 {
		if (x + k) != 2 {
			return ((4 % 7) + (4 / 3))
		}
		return ((k / 3) % 7)
	})
	s2 := int64(4)
	s3 := soac.Reduce(xs, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	for _, it := range a1[:min(len(a1), 3)] {
		a1 = soac.Map2(a1, xs, func(x int64, y int64) int64 { return it })
		s2 = soac.Reduce(a1, 0, func(a, b int64) int64 { return a ^ b })
		s3 = soac.Reduce(soac.Map(a1, func(v int64) int64 { return v*2 - s3 + (s2 * it) }), 1, op4)
	}
	s4 := soac.StreamRed(xs, func(p, q int64) int64 { return p + q }, func(ch []int64) int64 {
		acc := int64(0)
		for _, v := range ch {
			acc = acc + (v + (((-1) % 7) & s2))
		}
		return acc
	})
	s5 := soac.StreamRed(a1, func(p, q int64) int64 { return p ^ q }, func(ch []int64) int64 {
		acc := int64(0)
		for _, v := range ch {
			acc = acc ^ (v + ((4 >> 1) % 7))
		}
		return acc
	})
	sc6 := make([]int64, len(xs))
	for i := range sc6 {
		sc6[i] = int64(i) * 3
	}
	if len(sc6) > 0 {
		sc6[0] = -1
	}
	a7 := soac.Scan(sc6, math.MinInt64, op5)
	a8 := soac.Map(a7, func(x int64) int64 { return s2 })
	s9 := int64(-2)
	sc6, a7 = a7, sc6
	s9 = soac.Reduce(soac.Map(a7, func(v int64) int64 { return v*2 - s9 + (s5) }), math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	a7, a8 = a8, a7
	return s3, s4, sc6, a7, a8, s9
}

// swapReducedSpec has shapes loop-range, loop-carried.
//
//soac:fuse SwapReduced
func swapReducedSpec(xs []int64) (int64, int64) {
	a1 := soac.Map(xs, func(x int64) int64 { return x + 1 })
	s3 := int64(0)
	for _, it := range a1[:min(len(a1), 3)] {
		a1 = soac.Map2(a1, xs, func(x int64, y int64) int64 { return it + x - y })
		s2 := soac.Reduce(a1, 0, func(a, b int64) int64 { return a ^ b })
		s3 = soac.Reduce(soac.Map(a1, func(v int64) int64 { return v*2 - s3 + s2 }), 0, func(a, b int64) int64 { return a + b })
	}
	s5 := soac.Reduce(a1, 0, func(a, b int64) int64 { return a ^ b })
	return s3, s5
}
