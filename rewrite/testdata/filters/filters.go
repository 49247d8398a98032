// Package filters holds filter chains, filter->redomap and filter->map.
package filters

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse FilterChain
func filterChainSpec(xs []int) []int {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return soac.Filter(pos, func(x int) bool { return x%2 == 0 })
}

//soac:fuse SumPositive
func sumPositiveSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sq := soac.Map(pos, func(x float64) float64 { return x * x })
	return soac.Reduce(sq, 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse FilterMap
func filterMapSpec(xs []int) []int {
	small := soac.Filter(xs, func(x int) bool { return x < 50 })
	return soac.Map(small, func(x int) int { return x * 10 })
}

//soac:fuse MapFilter
func mapFilterSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return x * 3 })
	return soac.Filter(ys, func(y int) bool { return y%2 == 0 })
}

//soac:fuse FilterMax
func filterMaxSpec(xs []float64, lo float64) (float64, int) {
	above := soac.Filter(xs, func(x float64) bool { return x > lo })
	m := soac.Reduce(above, lo, func(a, b float64) float64 { return max(a, b) })
	return m, len(above)
}

const sumPositiveSpecAllocs = 0

// The filters below become selects (no branch): pure, panic-free, cheap
// lambdas after the filter, and reductions whose neutral element leaves the
// accumulator unchanged or that are on integers.

//soac:fuse IntSumSel
func intSumSelSpec(xs []int) int {
	odd := soac.Filter(xs, func(x int) bool { return x%2 != 0 })
	return soac.Reduce(soac.Map(odd, func(x int) int { return x * x }), 0, func(a, b int) int { return a + b })
}

//soac:fuse IntMaxSel
func intMaxSelSpec(xs []int) int {
	neg := soac.Filter(xs, func(x int) bool { return x < 0 })
	return soac.Reduce(neg, -7, func(a, b int) int { return max(a, b) })
}

//soac:fuse MaskAnd
func maskAndSpec(xs []uint8) uint8 {
	big := soac.Filter(xs, func(x uint8) bool { return x > 100 })
	return soac.Reduce(big, 0xff, func(a, b uint8) uint8 { return a & b })
}

type celsius float64

//soac:fuse Float32Sum
func float32SumSpec(xs []float32) float32 {
	pos := soac.Filter(xs, func(x float32) bool { return x >= 0 })
	return soac.Reduce(pos, 0, func(a, b float32) float32 { return a + b })
}

//soac:fuse NamedProduct
func namedProductSpec(xs []celsius) celsius {
	small := soac.Filter(xs, func(x celsius) bool { return x < 2 && x > -2 })
	return soac.Reduce(small, 1, func(a, b celsius) celsius { return b * a })
}

// The filters below keep their branch.

type order struct {
	ID     int64
	Status uint8
	Price  float64
	Qty    float64
}

// A select would compute price*qty for every order and fold it masked:
// more extra work than the misprediction it saves (selectBudget).
//
//soac:fuse OrderTotal
func orderTotalSpec(os []order) float64 {
	shipped := soac.Filter(os, func(o order) bool { return o.Status == 2 })
	return soac.Reduce(soac.Map(shipped, func(o order) float64 { return o.Price * o.Qty }), 0.0, func(a, b float64) float64 { return a + b })
}

type wide struct{ A, B, C, D, E, F, G, H float64 }

// A select would store all 64 bytes of every element at the kept count.
//
//soac:fuse KeepWide
func keepWideSpec(xs []wide) []wide {
	return soac.Filter(xs, func(w wide) bool { return w.A > 0 })
}

// 1 is not the neutral element of +: a select would add 1 for every
// dropped element.
//
//soac:fuse NotNeutral
func notNeutralSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Reduce(pos, 1.0, func(a, b float64) float64 { return a + b })
}

// The map may panic on dropped elements (out of range).
//
//soac:fuse GuardedIndex
func guardedIndexSpec(xs []int, tbl []int) int {
	in := soac.Filter(xs, func(x int) bool { return x >= 0 && x < len(tbl) })
	return soac.Reduce(soac.Map(in, func(x int) int { return tbl[x] }), 0, func(a, b int) int { return a + b })
}

// A float operator that is not a plain + or *: folding a dropped
// element's neutral would change the rounding.
//
//soac:fuse NotExactFloat
func notExactFloatSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Reduce(pos, 0.0, func(a, b float64) float64 { return a*0.5 + b })
}

// Kept strings hold references: the output keeps its appends.
//
//soac:fuse KeepStrings
func keepStringsSpec(xs []string) []string {
	return soac.Filter(xs, func(s string) bool { return len(s) > 3 })
}
