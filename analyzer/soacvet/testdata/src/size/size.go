// Package size zips arrays of provably unequal lengths: the calls always
// panic.
package size

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

// positiveRatio zips a filter's output with its source, which differ in
// length unless every element is positive.
//
//soac:fuse PositiveRatio
func positiveRatio(xs []float64) []float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Map2(pos, xs, func(p, x float64) float64 { return p / x }) // want `combines pos \(filtered from xs\) with xs: their lengths differ unless the filter keeps every element`
}

// notASpec makes the same mistake outside a spec: size findings are
// reported everywhere.
func notASpec(xs []float64) []float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Map2(xs, pos, func(x, p float64) float64 { return p / x }) // want `combines pos \(filtered from xs\) with xs: their lengths differ unless the filter keeps every element`
}

// sameLength zips two maps of xs: equal lengths, no finding.
//
//soac:fuse SameLength
func sameLength(xs []float64) []float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	b := soac.Map(xs, func(x float64) float64 { return x - 1 })
	return soac.Map2(a, b, func(p, q float64) float64 { return p * q })
}
