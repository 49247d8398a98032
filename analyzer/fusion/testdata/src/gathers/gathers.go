// Package gathers holds index reads (gather.go): a consumer's literal
// reads a producer's output ys only as ys[p], p its Iota element and
// len(ys) provably the Iota's length, and the negatives where any of
// these fails, which keep two kernels (used-before).
package gathers

import "github.com/soacgen/soacgen/runtime/soac"

func tabulate(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[i] })
}

// overXs: ys is a map over xs and n := len(xs).
func overXs(xs []float64) float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x * 2 })
	zs := soac.Map(soac.Iota(n), func(i int) float64 { return ys[i] + ys[i] })
	return soac.Reduce(zs, 0, func(a, b float64) float64 { return a + b })
}

// sameN: both Iotas have the length n given apart from xs.
func sameN(n int, xs []int32) []int32 {
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] })
}

// filtered: a filter's predicate reads ys at the index.
func filtered(xs []int32) []int {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x % 3 })
	return soac.Filter(soac.Iota(n), func(i int) bool { return ys[i] == 0 })
}

// mapOut: ys is also returned: it is written out.
func mapOut(xs []int32) ([]int32, []int32) {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return ys, soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * 2 })
}

// shifted reads ys[i+1].
func shifted(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i+1] })
}

// otherLen: ys has n+1 elements.
func otherLen(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n+1), func(i int) int32 { return int32(i) })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] + xs[i] })
}

// unknownLen: ys is a map over ws, whose length is not known to be n.
func unknownLen(xs, ws []int32) []int32 {
	n := len(xs)
	ys := soac.Map(ws, func(w int32) int32 { return w * 2 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] + xs[i] })
}

// reassigned: the index is reassigned before the read.
func reassigned(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 {
		i = n - 1 - i
		return ys[i]
	})
}

// whole also reads len(ys).
func whole(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] + int32(len(ys)) })
}

// nested reads ys[i] inside a nested literal.
func nested(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 {
		get := func() int32 { return ys[i] }
		return get()
	})
}

// written writes ys[i] in the consumer.
func written(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 {
		ys[i]++
		return ys[i]
	})
}
