// Package scans holds scanomaps, scan->map and scan->reduce.
package scans

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse PrefixSquares
func prefixSquaresSpec(xs []int) []int {
	return soac.Scan(soac.Map(xs, func(x int) int { return x * x }), 0, func(a, b int) int { return a + b })
}

//soac:fuse ScanMap
func scanMapSpec(xs []float64) []float64 {
	ps := soac.Scan(xs, 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(ps, func(p float64) float64 { return p * 0.5 })
}

//soac:fuse ScanReduce
func scanReduceSpec(xs []int) int {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Reduce(ps, -1<<62, func(a, b int) int { return max(a, b) })
}

//soac:fuse ScanOut
func scanOutSpec(xs []float64) ([]float64, float64) {
	ps := soac.Scan(xs, 1.0, func(a, b float64) float64 { return a*0.9 + b })
	s := soac.Reduce(ps, 0.0, func(a, b float64) float64 { return a + b })
	return ps, s
}

const (
	prefixSquaresSpecAllocs = 1
	scanMapSpecAllocs       = 1
	scanReduceSpecAllocs    = 0
)
