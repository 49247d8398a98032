// Package parallel holds pipelines for the parallel backend, one per
// runtime shape (For, Reduce, Scan, FilterFold, streams, a nested
// kernel), on integers or exact float maps so that the differential test
// compares bit for bit; panicking lambdas whose message names the element
// (the lowest index must win); and an impure kernel, which falls back to
// cpu with a warning.
package parallel

import (
	"fmt"

	"github.com/soacgen/soacgen/runtime/soac"
)

// check panics on some elements with a message naming the element, so
// that the panic of the lowest index is told from the others.
func check(x int) int {
	if x%97 == 13 {
		panic(fmt.Sprint("bad element ", x))
	}
	return x
}

//soac:fuse Scale backend=parallel
func scaleSpec(xs []float64, k float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return x*k + 1 })
}

//soac:fuse Checked backend=parallel
func checkedSpec(xs []int) []int {
	return soac.Map(xs, func(x int) int { return check(x) * 3 })
}

//soac:fuse SumChecked backend=parallel
func sumCheckedSpec(xs []int) (int, int) {
	ys := soac.Map(xs, func(x int) int { return check(x) })
	s := soac.Reduce(ys, 0, func(a, b int) int { return a + b })
	m := soac.Reduce(ys, 0, func(a, b int) int { return max(a, b) })
	return s, m
}

//soac:fuse Divide backend=parallel
func divideSpec(xs []int) int {
	return soac.Reduce(soac.Map(xs, func(x int) int { return 1000 / (x % 11) }), 0, func(a, b int) int { return a ^ b })
}

//soac:fuse Prefix backend=parallel
func prefixSpec(xs []int) []int {
	return soac.Scan(soac.Map(xs, func(x int) int { return x % 1000 }), 0, func(a, b int) int { return a + b })
}

//soac:fuse PrefixFloat backend=parallel
func prefixFloatSpec(xs []float64) []float64 {
	return soac.Scan(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Evens backend=parallel
func evensSpec(xs []int) []int {
	return soac.Filter(xs, func(x int) bool { return x%2 == 0 })
}

//soac:fuse EvensCount backend=parallel
func evensCountSpec(xs []int) ([]int, int) {
	ev := soac.Filter(soac.Map(xs, func(x int) int { return check(x) / 3 }), func(x int) bool { return x%2 == 0 })
	n := soac.Reduce(soac.Map(xs, func(x int) int { return x & 1 }), 0, func(a, b int) int { return a + b })
	return ev, n
}

//soac:fuse RowSums backend=parallel
func rowSumsSpec(rows [][]int) []int {
	return soac.Map(rows, func(r []int) int {
		return soac.Reduce(r, 0, func(a, b int) int { return a + b })
	})
}

//soac:fuse ChunkSum backend=parallel
func chunkSumSpec(xs []int) int {
	return soac.StreamRed(xs, func(a, b int) int { return a + b }, func(c []int) int {
		s := 0
		for _, x := range c {
			s += check(x)
		}
		return s
	})
}

//soac:fuse ChunkDouble backend=parallel
func chunkDoubleSpec(xs []int) []int {
	return soac.StreamMap(xs, func(c []int) []int {
		out := make([]int, len(c))
		for i, x := range c {
			out[i] = 2 * x
		}
		return out
	})
}

var seen int

//soac:fuse Impure backend=parallel
func impureSpec(xs []int) int {
	return soac.Reduce(soac.Map(xs, func(x int) int { seen++; return x }), 0, func(a, b int) int { return a + b })
}

// startTenSpec starts its sum at 10, which is not +'s neutral element:
// only the first chunk starts from it, the others from 0, so that it is
// added once.
//
//soac:fuse StartTen backend=parallel
func startTenSpec(xs []int) int {
	return soac.Reduce(xs, 10, func(a, b int) int { return a + b })
}

// startGivenSpec scans from a start that is not a constant: the first
// chunk scans from it, the others from 0.
//
//soac:fuse StartGiven backend=parallel
func startGivenSpec(xs []int, start int) []int {
	return soac.Scan(xs, start, func(a, b int) int { return a + b })
}

// startMaxSpec starts max at any value: max is idempotent, so it runs in
// parallel.
//
//soac:fuse StartMax backend=parallel
func startMaxSpec(xs []int, start int) int {
	return soac.Reduce(xs, start, func(a, b int) int { return max(a, b) })
}

// Map2Fma zips a map's output with xs through a literal that may fuse
// y*m + x into an FMA (called through soac.Opaque); when the lengths
// differ, the kernel's unfused code raises Map2's panic, and must not
// call the chunk functions' copy of the literal (declared only in the
// parallel branch).
//
//soac:fuse Map2Fma backend=parallel
func map2FmaSpec(xs, ys []float64, m float64) []float64 {
	sq := soac.Map(ys, func(y float64) float64 { return y * y })
	return soac.Map2(sq, xs, func(y, x float64) float64 { return y*m + x })
}
