// Package parscan holds the kernels the parallel backend runs as a
// two-pass chunked loop (parallel.Carried): a scan whose elements another
// member reads, a scan beside a fold or a filter's output, two scans, a
// scan of a filter's kept elements, two outputs of kept elements; folds
// and scans whose start is not their operator's neutral element; the
// same with panicking lambdas whose message names the element (the
// lowest index must win); scans and filters of a scan's elements, whose
// chunk totals need that scan's carry first (parallel.CarriedLevels);
// scans whose chunks keep their local prefixes for pass 2
// (parallel.CarriedLocal) in an output or a scratch array.
package parscan

import (
	"fmt"
	"math"

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

// parScanMapSpec: a float scan read by a map.
//
//soac:fuse ScanMap backend=parallel
func parScanMapSpec(xs []float64) []float64 {
	ps := soac.Scan(xs, 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(ps, func(p float64) float64 { return p * 0.5 })
}

// scanMapIntSpec: an integer scan from a given start, stored and read by
// a zip with its input.
//
//soac:fuse ScanMapInt backend=parallel
func scanMapIntSpec(xs []int, start int) ([]int, []int) {
	ps := soac.Scan(xs, start, func(a, b int) int { return a + b })
	return ps, soac.Map2(ps, xs, func(p, x int) int { return p*3 - x })
}

// parScanReduceSpec: a scan beside a fold of its elements.
//
//soac:fuse ScanReduce backend=parallel
func parScanReduceSpec(xs []int) int {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Reduce(ps, -1<<62, func(a, b int) int { return max(a, b) })
}

// parScanOutSpec: a float scan, stored, beside a fold of its elements.
//
//soac:fuse ScanOut backend=parallel
func parScanOutSpec(xs []float64) ([]float64, float64) {
	ps := soac.Scan(xs, 0.0, func(a, b float64) float64 { return a + b })
	s := soac.Reduce(ps, 0.0, func(a, b float64) float64 { return a + b })
	return ps, s
}

// twoScansSpec: two scans of one map, the second from a start that is
// not neutral (1 for +).
//
//soac:fuse TwoScans backend=parallel
func twoScansSpec(xs []int32) ([]int32, []int32) {
	a := soac.Map(xs, func(x int32) int32 { return x + 1 })
	b := soac.Scan(a, 1, func(p, q int32) int32 { return p + q })
	c := soac.Scan(a, 1, func(p, q int32) int32 { return p * q })
	return b, c
}

// parFilterScanSpec: a float scan of a filter's kept elements, from a start
// that is not neutral.
//
//soac:fuse FilterScan backend=parallel
func parFilterScanSpec(xs []float64) []float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Scan(pos, 0.5, func(a, b float64) float64 { return a + b })
}

// parFilterScanMapReduceSpec: the kept elements, a map of their scan and a
// fold of it.
//
//soac:fuse FilterScanMapReduce backend=parallel
func parFilterScanMapReduceSpec(xs []int) ([]int, []int, int) {
	odd := soac.Filter(soac.Map(xs, func(x int) int { return x * 3 }), func(x int) bool { return x%2 != 0 })
	run := soac.Scan(odd, 0, func(a, b int) int { return a + b })
	sq := soac.Map(run, func(r int) int { return r * r })
	return odd, sq, soac.Reduce(run, -1<<62, func(a, b int) int { return max(a, b) })
}

// twoFiltersSpec: the kept elements of a filter and of a filter of them.
//
//soac:fuse TwoFilters backend=parallel
func twoFiltersSpec(xs []int) ([]int, []int) {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return pos, soac.Filter(pos, func(x int) bool { return x%2 == 0 })
}

// parStartTenSpec: a sum from 10, which every chunk but the first starts
// from 0 instead.
//
//soac:fuse StartTen backend=parallel
func parStartTenSpec(xs []int) int {
	return soac.Reduce(xs, 10, func(a, b int) int { return a + b })
}

// productSpec: a product from 3 (chunks but the first from 1).
//
//soac:fuse Product backend=parallel
func productSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return x | 1 })
	return soac.Reduce(ys, 3, func(a, b int) int { return a * b })
}

// xorSpec: a xor from a given start.
//
//soac:fuse Xor backend=parallel
func xorSpec(xs []uint32, start uint32) uint32 {
	return soac.Reduce(xs, start, func(a, b uint32) uint32 { return a ^ b })
}

// floatStartSpec: a float sum from a given start (chunks but the first
// from -0, which leaves every float unchanged).
//
//soac:fuse FloatStart backend=parallel
func floatStartSpec(xs []float64, start float64) float64 {
	return soac.Reduce(xs, start, func(a, b float64) float64 { return a + b })
}

// parStartGivenSpec: an integer scan from a given start (parallel.ScanExact).
//
//soac:fuse StartGiven backend=parallel
func parStartGivenSpec(xs []int, start int) []int {
	return soac.Scan(xs, start, func(a, b int) int { return a + b })
}

// floatScanStartSpec: a float scan from a given start (parallel.Scan).
//
//soac:fuse FloatScanStart backend=parallel
func floatScanStartSpec(xs []float64, start float64) []float64 {
	return soac.Scan(xs, start, func(a, b float64) float64 { return a + b })
}

// filterSumStartSpec: a filter's kept elements and their sum from 7
// (parallel.FilterFold).
//
//soac:fuse FilterSumStart backend=parallel
func filterSumStartSpec(xs []int) ([]int, int) {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return pos, soac.Reduce(pos, 7, func(a, b int) int { return a + b })
}

// checkedScanMapSpec: the map before the scan panics (pass 1 meets it).
//
//soac:fuse CheckedScanMap backend=parallel
func checkedScanMapSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return check(x) })
	ps := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Map(ps, func(p int) int { return p * 2 })
}

// scanMapCheckedSpec: the map after the scan panics (pass 2 only).
//
//soac:fuse ScanMapChecked backend=parallel
func scanMapCheckedSpec(xs []int) []int {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Map2(ps, xs, func(p, x int) int { return p + check(x) })
}

// filterScanCheckedSpec: the filter's predicate panics; its kept
// elements are scanned and stored.
//
//soac:fuse FilterScanChecked backend=parallel
func filterScanCheckedSpec(xs []int) ([]int, []int) {
	kept := soac.Filter(xs, func(x int) bool { return check(x)%2 == 0 })
	return kept, soac.Scan(kept, 0, func(a, b int) int { return a + b })
}

// scanOfScanSpec: a scan of a map of a scan: the second scan's chunk
// totals need the first scan's carry (parallel.CarriedLevels, 2 levels).
//
//soac:fuse ScanOfScan backend=parallel
func scanOfScanSpec(xs []int) []int {
	a := soac.Scan(xs, 0, func(p, q int) int { return p + q })
	b := soac.Map(a, func(v int) int { return v * 2 })
	return soac.Scan(b, 0, func(p, q int) int { return p + q })
}

// scanBesideSelectSpec: a scan beside a filter whose kept elements the
// sequential loop stores at their count for every element (a select);
// a chunk stores only its kept elements.
//
//soac:fuse ScanBesideSelect backend=parallel
func scanBesideSelectSpec(xs []int) ([]int, []int) {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return ps, pos
}

// twoSelectsSpec: the kept elements of two filters of one array, both
// selects.
//
//soac:fuse TwoSelects backend=parallel
func twoSelectsSpec(xs []int) ([]int, []int) {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	neg := soac.Filter(xs, func(x int) bool { return x < -500 })
	return pos, neg
}

// floatScanOfScanSpec: Futhark's maposcanomaposcan: a float scan of a map
// of a scan, a map of it and a product of the middle map.
//
//soac:fuse FloatScanOfScan backend=parallel
func floatScanOfScanSpec(arr []float64) (float64, []float64, []float64, []float64, []float64) {
	sa := soac.Scan(arr, 0.0, func(a, b float64) float64 { return a + b })
	b := soac.Map(sa, func(v float64) float64 { return v * 2 })
	sb := soac.Scan(b, 0.0, func(a, b float64) float64 { return a + b })
	c := soac.Map(sb, func(v float64) float64 { return v + 5 })
	r := soac.Reduce(b, 1.0, func(a, b float64) float64 { return a * b })
	return r, sa, b, sb, c
}

// filterOfScanSpec: the positive running totals and a scan of them, from
// a start that is not neutral: one kernel (scanomap->filter,
// filter->scanomap), the kept count and the second scan a level after the
// first scan's carry.
//
//soac:fuse FilterOfScan backend=parallel
func filterOfScanSpec(xs []int) ([]int, []int) {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	pos := soac.Filter(ps, func(p int) bool { return p > 0 })
	return pos, soac.Scan(pos, 3, func(a, b int) int { return a + b })
}

// scanCheckedScanSpec: the map between two scans panics on the first
// scan's values (pass 1 of the second level meets it).
//
//soac:fuse ScanCheckedScan backend=parallel
func scanCheckedScanSpec(xs []int) []int {
	a := soac.Scan(xs, 0, func(p, q int) int { return p + q })
	b := soac.Map(a, func(v int) int { return check(v) })
	return soac.Scan(b, 0, func(p, q int) int { return p + q })
}

// twoPanicsSpec: the map before the scan and the zip after it may both
// panic: the kernel reruns its members unfused on a panic, so that the
// spec's first panic (the first map's, at any index) wins over the
// zip's at a lower index.
//
//soac:fuse TwoPanics backend=parallel
func twoPanicsSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return check(x) })
	ps := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Map2(ps, xs, func(p, x int) int { return p + check(x+1) })
}

// sqrtScanMapSpec: HalfSqrts on integer-valued floats: pass 1 keeps the
// scan's local prefixes in the map's output, pass 2 leaves out the
// Sqrt (parallel.CarriedLocal).
//
//soac:fuse SqrtScanMap backend=parallel
func sqrtScanMapSpec(xs []float64) []float64 {
	ps := soac.Scan(soac.Map(xs, func(x float64) float64 { return math.Floor(math.Sqrt(math.Abs(x))) }), 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(ps, func(p float64) float64 { return p * 0.5 })
}

// scanZipMappedSpec: the map before the scan is also read after it, so
// pass 2 computes it again; the zip's output holds the local prefixes.
//
//soac:fuse ScanZipMapped backend=parallel
func scanZipMappedSpec(xs []float64) []float64 {
	ms := soac.Map(xs, func(x float64) float64 { return math.Floor(math.Sqrt(math.Abs(x))) })
	ps := soac.Scan(ms, 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map2(ms, ps, func(m, p float64) float64 { return p - m })
}

// mapOutScanSpec: the map before the scan is an output of the scan's
// type, written before the scan reads its element: the local prefixes
// go to the later map's output, never to it.
//
//soac:fuse MapOutScan backend=parallel
func mapOutScanSpec(xs []int) ([]int, []int) {
	ms := soac.Map(xs, func(x int) int { return x * 2 })
	ps := soac.Scan(ms, 0, func(a, b int) int { return a + b })
	return ms, soac.Map(ps, func(p int) int { return p + 1 })
}

// expScanMaxSpec: an expensive map before a scan that only a fold reads:
// no output holds the local prefixes, which a scratch array does.
//
//soac:fuse ExpScanMax backend=parallel
func expScanMaxSpec(xs []float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return math.Floor(math.Exp(x / 300)) })
	ps := soac.Scan(ys, 0.0, func(a, b float64) float64 { return a + b })
	return soac.Reduce(ps, -1.0, func(a, b float64) float64 { return math.Max(a, b) })
}

// scratchCheckedSpec: ExpScanMax on integers with the map panicking
// (pass 1 meets it).
//
//soac:fuse ScratchChecked backend=parallel
func scratchCheckedSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return int(math.Exp(float64(check(x) % 7))) })
	ps := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Reduce(ps, -1<<62, func(a, b int) int { return max(a, b) })
}

// scratchScanCheckedSpec: the same with the zip after the scan panicking
// (pass 2 only).
//
//soac:fuse ScratchScanChecked backend=parallel
func scratchScanCheckedSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return int(math.Exp(float64(x % 7))) })
	ps := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Reduce(soac.Map2(ps, xs, func(p, x int) int { return p + check(x) }), -1<<62, func(a, b int) int { return max(a, b) })
}

// gatherScanFilterSpec: a map over Iota reads a zip of a scan's elements
// at the index (an index read: in the kernel the zip's element stands for
// it) and a filter keeps some of the map's elements: the filter's kept
// count in pass 1 needs the zip, which needs the scan's carry first
// (CarriedLevels). A pass that leaves out the zip leaves the read naming
// no array.
//
//soac:fuse GatherScanFilter backend=parallel
func gatherScanFilterSpec(xs []int) []int {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	zs := soac.Map2(xs, ps, func(x, p int) int { return p - 2*x })
	ms := soac.Map(soac.Iota(len(xs)), func(j int) int { return zs[j] * 3 })
	return soac.Filter(ms, func(m int) bool { return m > 0 })
}

// scanReadSpec: a map reads a scan's elements at the index, as a member
// reading the scan as its input would: pass 2 continues the scan from
// its carry, so each read is the running value (Carried).
//
//soac:fuse ScanRead backend=parallel
func scanReadSpec(xs []int) []int {
	ps := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Map(soac.Iota(len(xs)), func(j int) int { return ps[j]*2 - xs[j] })
}
