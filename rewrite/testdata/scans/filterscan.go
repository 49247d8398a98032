package scans

import "github.com/soacgen/soacgen/runtime/soac"

// FilterScan: the scan folds only the kept elements and appends each
// running value (filter->scanomap).
//
//soac:fuse FilterScan
func filterScanSpec(xs []float64) []float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Scan(pos, 0.5, func(a, b float64) float64 { return a + b })
}

// FilterScanMapReduce: a map of the scanned kept elements and a
// reduction over them, with the filter's output also returned.
//
//soac:fuse FilterScanMapReduce
func filterScanMapReduceSpec(xs []int) ([]int, []int, int) {
	odd := soac.Filter(soac.Map(xs, func(x int) int { return x * 3 }), func(x int) bool { return x%2 != 0 })
	run := soac.Scan(odd, 0, func(a, b int) int { return a + b })
	sq := soac.Map(run, func(r int) int { return r * r })
	return odd, sq, soac.Reduce(run, -1<<62, func(a, b int) int { return max(a, b) })
}

// FilterScanPanics: the scan's operator may panic (integer division by a
// kept element that may be zero); the map before the filter may panic
// too: the kernel re-runs unfused on a panic, so the spec's panic wins.
//
//soac:fuse FilterScanPanics
func filterScanPanicsSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return 60 / (x%7 + 1) })
	kept := soac.Filter(ys, func(y int) bool { return y%3 != 1 })
	return soac.Scan(kept, 1, func(a, b int) int { return a/(b-2) + b })
}
