// Package lochain holds pipelines written with samber/lo: chains of two
// or more calls, nested or through locals nothing else reads, are
// reported; single calls and slices read twice are not.
package lochain

import "github.com/samber/lo"

// Nested is a filter, a map and a sum, nested.
func Nested(xs []int) int {
	return lo.Sum(lo.Map(lo.Filter(xs, func(x, _ int) bool { return x > 0 }), func(x, _ int) int { return x * x })) // want `lo.Filter → lo.Map → lo.Sum makes 3 passes over its data and allocates 2 intermediate slices; one fused pass \(a runtime/soac spec with a //soac:fuse directive\) would allocate no slice`
}

// ThroughLocals is the same chain written one call a line.
func ThroughLocals(xs []float64) float64 {
	kept := lo.Filter(xs, func(x float64, _ int) bool { return x >= 0 })
	scaled := lo.Map(kept, func(x float64, _ int) float64 { return x / 2 })
	return lo.Reduce(scaled, func(a, x float64, _ int) float64 { return a + x }, 0) // want `lo.Filter → lo.Map → lo.Reduce makes 3 passes over its data and allocates 2 intermediate slices; one fused pass \(a runtime/soac spec with a //soac:fuse directive\) would allocate no slice`
}

// Slices ends in a slice: one fused pass allocates only its result.
func Slices(xs []int) []string {
	return lo.Map(lo.FilterMap(xs, func(x, _ int) (int, bool) { return x / 2, x%2 == 0 }), func(x, _ int) string { return string(rune('a' + x%26)) }) // want `lo.FilterMap → lo.Map makes 2 passes over its data and allocates 1 intermediate slice; one fused pass \(a runtime/soac spec with a //soac:fuse directive\) would allocate only its result`
}

// Counts counts mapped values twice: two chains of two.
func Counts(xs []int) (int, int) {
	return lo.Count(lo.Map(xs, func(x, _ int) int { return x % 3 }), 0), // want `lo.Map → lo.Count makes 2 passes`
		lo.CountBy(lo.Filter(xs, func(x, _ int) bool { return x > 9 }), func(x int) bool { return x < 99 }) // want `lo.Filter → lo.CountBy makes 2 passes`
}

// ReadTwice keeps its intermediate: another statement reads it, so the
// slice must exist and no chain is reported.
func ReadTwice(xs []int) (int, []int) {
	sq := lo.Map(xs, func(x, _ int) int { return x * x })
	return lo.Sum(sq), sq
}

// Reassigned assigns its local twice: not a chain.
func Reassigned(xs []int) int {
	ys := lo.Map(xs, func(x, _ int) int { return x + 1 })
	ys = xs
	return lo.Sum(ys)
}

// Single calls make one pass each: nothing to report.
func Single(xs []int) (int, []int) {
	return lo.SumBy(xs, func(x int) int { return x * 2 }), lo.Filter(xs, func(x, _ int) bool { return x != 0 })
}

// Loop is a hand loop, not lo: nothing to report.
func Loop(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x * x
	}
	return s
}
