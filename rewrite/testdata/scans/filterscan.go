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

// ScanFilter: the filter keeps some of the scanned elements as they are
// produced (scanomap->filter).
//
//soac:fuse ScanFilter
func scanFilterSpec(xs []int) []int {
	run := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Filter(run, func(r int) bool { return r%3 == 0 })
}

// MapScanFilterSum: a scanomap whose scanned elements are filtered and
// the kept ones mapped, summed and also returned.
//
//soac:fuse MapScanFilterSum
func mapScanFilterSumSpec(xs []float64) ([]float64, float64) {
	run := soac.Scan(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), 0, func(a, b float64) float64 { return a + b })
	big := soac.Filter(run, func(r float64) bool { return r > 1 || r != r })
	return big, soac.Reduce(soac.Map(big, func(b float64) float64 { return b * b }), 0, func(a, b float64) float64 { return a + b })
}

// ScanFilterPanics: the predicate divides by a scanned element that may
// be zero: the spec's panic (from the lowest index) wins.
//
//soac:fuse ScanFilterPanics
func scanFilterPanicsSpec(xs []int) []int {
	run := soac.Scan(xs, 0, func(a, b int) int { return a ^ b })
	return soac.Filter(run, func(r int) bool { return 100/r > 2 })
}

// ScanFilterWhole: the predicate reads the whole scan (its last
// element), known only after the scan ran: not fused (used-before).
//
//soac:fuse ScanFilterWhole
func scanFilterWholeSpec(xs []int) []int {
	run := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Filter(run, func(r int) bool { return len(run) > 0 && 2*r > run[len(run)-1] })
}
