// Package indexreads holds lambdas that read captured arrays only at
// their iteration index (the fusion engine's index reads, ys[i] over an
// Iota of ys's length): TestIndexReadsGolden translates each with
// Unit.LambdaReads, every read of a captured slice at a parameter being
// the element the caller passes; TestGolden translates them as plain
// lambdas, the slices captured.
package indexreads

import "github.com/soacgen/soacgen/runtime/soac"

type pt struct {
	x, y int32
}

// one reads ys twice, beside the index and a capture.
func one(ys []int32, k int32) []int32 {
	return soac.Map(soac.Iota(len(ys)), func(i int) int32 {
		if ys[i] > k {
			return ys[i] - k
		}
		return ys[i] + int32(i)
	})
}

// two reads two arrays, each a parameter of its own, in the order of
// their first reads.
func two(zs, ys []float64) []float64 {
	return soac.Map(soac.Iota(len(ys)), func(i int) float64 { return zs[i]*2 - ys[i] + zs[i]/5 })
}

// zipped reads ys at the index of a Map2's second input; xs[0] is not an
// index read (a captured slice, bounds-checked).
func zipped(zs []float32, ys []float32, xs []float32) []float32 {
	return soac.Map2(zs, soac.Iota(len(ys)), func(z float32, i int) float32 { return z/ys[i] + xs[0] })
}

// fields reads a struct element and its fields.
func fields(ps []pt) []int32 {
	return soac.Map(soac.Iota(len(ps)), func(i int) int32 {
		p := ps[i]
		return p.x*ps[i].y - int32(i)
	})
}

// keep is a filter predicate reading ys at the index.
func keep(ys []int32) []int {
	return soac.Filter(soac.Iota(len(ys)), func(i int) bool { return ys[i]%2 != 0 })
}
