// Regression spec (random, seed 610004, spec7): a7 is a Map of an Iota
// of len(a2) (len(xs)), zipped with gs by a9's Map2 in one kernel that
// reads gs. Where the lengths differ the spec's Map2 panics; the opencl
// kernel ran over gs's length, computing the Iota's elements from the
// index, and returned results. zipIotaSpec is the smallest spec found
// that did the same.

package openclzipgen

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func h9(p0 int64) int64 {
	return (p0 + (p0 >> 1))
}

func op10(a, b int64) int64 {
	return a * b
}

// spec7 has shapes reassign-read, self-assign, closure-assign.
//
//soac:fuse Fused7
func spec7(xs []int64, fs []float64, gs []float64, k int64) (int64, int64, []float64, []float64, []float64) {
	a1 := xs
	a2 := soac.Scan(a1, 0, func(a, b int64) int64 { return a + b })
	s3 := int64(1)
	s4 := soac.Reduce(a2, 0, func(a, b int64) int64 { return a + b })
	upd5 := func() { s4 = soac.Reduce(a1, 0, func(a, b int64) int64 { return a + b }) }
	a1 = soac.Map(a2, h9)
	upd5()
	a1 = a1
	s3 = soac.Reduce(a1, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	s6 := soac.Reduce(a1, 0, func(a, b int64) int64 { return a ^ b })
	a7 := soac.Map(soac.Iota(len(a2)), func(i int) int64 {
		if i%2 == 0 {
			return a2[i]
		}
		e := a2[i] * 2
		_ = e
		return (s6 + (s4 / 3))
	})
	var s8 int64
	s8 = soac.Reduce(a7, 1, op10)
	a9 := soac.Map2(a7, gs, func(x int64, y float64) float64 {
		if (y - y) >= float64(s4) {
			return ((y - y) - float64(s6))
		}
		return 0
	})
	a10 := a9
	a11 := soac.Scan(a10, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	a12 := a10
	s13 := 0.0
	a11 = soac.Map2(a11, a12, func(x float64, y float64) float64 { return (-(-(-0.5))) })
	a14 := soac.Map(a11, func(x float64) float64 { return float64((k >> 1)) })
	a15 := soac.Map(a10, func(x float64) float64 { return (s13 + (x + float64(s4))) })
	return s3, s8, a12, a14, a15
}

// zipIotaSpec has shapes reassign-read.
//
//soac:fuse ZipIota
func zipIotaSpec(xs []int64, gs []float64, k int64) (int64, []float64) {
	a7 := soac.Map(soac.Iota(len(xs)), func(i int) int64 { return int64(i) + k })
	s8 := soac.Reduce(a7, 1, op10)
	a9 := soac.Map2(a7, gs, func(x int64, y float64) float64 { return float64(x) - y })
	return s8, a9
}
