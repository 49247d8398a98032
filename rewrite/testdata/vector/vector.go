// Package vector holds one spec per rule of the vector translator
// (rewrite/vector): kernels it writes vector forms for, at both widths
// or at 512 bits only, and kernels it refuses, each with its reason.
// rewrite/vector's tests read what it did with each; the differential
// test runs every one against its spec, also built with
// GOEXPERIMENT=simd at each vector width.
package vector

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Celsius is a named float type: its slices are viewed as float64 lanes.
type Celsius float64

// Poly is a float map whose products reach additions: its forms run
// only in builds that never contract them (an FMA).
//
//soac:fuse Poly
func polySpec(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return (x*1.5+2)*(x-0.25) - x*0.125 })
}

// Rounded rounds its products: its forms run in every build.
//
//soac:fuse Rounded
func roundedSpec(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return float64(x*1.5) + 2 })
}

// Ops uses every float operation with an exact vector form.
//
//soac:fuse Ops
func opsSpec(xs, ys []float64) []float64 {
	return soac.Map2(xs, ys, func(x, y float64) float64 {
		d := math.Sqrt(math.Abs(x)) / (y - 0.5)
		return -d
	})
}

// Select is an if whose arms return: both computed, one selected.
//
//soac:fuse Select
func selectSpec(xs []float32) []float32 {
	return soac.Map(xs, func(x float32) float32 {
		if x < 0 || x != x {
			return -x
		}
		return x * 2
	})
}

// Temps maps a named float type.
//
//soac:fuse Temps
func tempsSpec(ts []Celsius) []Celsius {
	return soac.Map(ts, func(t Celsius) Celsius { return t*9/5 + 32 })
}

// SumInt32 is an integer sum: in vector accumulators, exact.
//
//soac:fuse SumInt32
func sumInt32Spec(xs []int32) int32 {
	return soac.Reduce(xs, 7, func(a, b int32) int32 { return a + b })
}

// Product is an int64 product: AVX2 has no 64-bit multiply, so 512 bits
// only.
//
//soac:fuse Product
func productSpec(xs []int64) int64 {
	return soac.Reduce(soac.Map(xs, func(x int64) int64 { return x | 1 }), 1, func(a, b int64) int64 { return a * b })
}

// Bounds folds min and max of int32 and uint32.
//
//soac:fuse Bounds
func boundsSpec(xs []int32, us []uint32) (int32, uint32) {
	lo := soac.Reduce(xs, math.MaxInt32, func(a, b int32) int32 { return min(a, b) })
	hi := soac.Reduce(us, 0, func(a, b uint32) uint32 { return max(a, b) })
	return lo, hi
}

// Bits folds xor, or and and of shifted and masked ints.
//
//soac:fuse Bits
func bitsSpec(xs []uint64) (uint64, uint64, uint64) {
	ys := soac.Map(xs, func(x uint64) uint64 { return (x << 3) ^ (x>>61)&^0xff })
	a := soac.Reduce(ys, 0, func(a, b uint64) uint64 { return a ^ b })
	o := soac.Reduce(ys, 0, func(a, b uint64) uint64 { return a | b })
	n := soac.Reduce(ys, math.MaxUint64, func(a, b uint64) uint64 { return a & b })
	return a, o, n
}

// Bits512 uses one bit operation per value: 512 bits too (a chain of
// them, as in Bits, Go 1.26.8 compiles wrongly at 512 bits).
//
//soac:fuse Bits512
func bits512Spec(xs []int32) []int32 {
	return soac.Map(xs, func(x int32) int32 { return (x << 2) | (x >> 3) })
}

// CountBelow counts the elements under a captured bound: a filter read
// by a fold only, as a select.
//
//soac:fuse CountBelow
func countBelowSpec(xs []int, bound int) int {
	ones := soac.Map(soac.Filter(xs, func(x int) bool { return x < bound }), func(int) int { return 1 })
	return soac.Reduce(ones, 0, func(a, b int) int { return a + b })
}

// Indexed maps the index (Iota) and a Replicate.
//
//soac:fuse Indexed
func indexedSpec(n int, v int) []int {
	return soac.Map2(soac.Iota(n), soac.Replicate(n, v), func(i, w int) int { return i*w - 3 })
}

// Convert converts int32 to float32 (exact: both round to nearest).
//
//soac:fuse Convert
func convertSpec(xs []int32) []float32 {
	return soac.Map(xs, func(x int32) float32 { return float32(x) * 0.5 })
}

// Convert64 converts int64 to float64: AVX2 has no such instruction.
//
//soac:fuse Convert64
func convert64Spec(xs []int64) []float64 {
	return soac.Map(xs, func(x int64) float64 { return float64(x) })
}

// FloatSum keeps its left-to-right order: refused.
//
//soac:fuse FloatSum
func floatSumSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * 2 }), 0, func(a, b float64) float64 { return a + b })
}

// Quotient divides integers, which may panic: refused.
//
//soac:fuse Quotient
func quotientSpec(xs []int64) []int64 {
	return soac.Map(xs, func(x int64) int64 { return 100 / (x | 1) })
}

// Prefix is an integer scan: each vector's prefix in registers, then
// the carry.
//
//soac:fuse Prefix
func prefixSpec(xs []int64) []int64 {
	return soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
}

// PrefixFrom starts its scan from a captured value that is not the
// operator's identity, and wraps around.
//
//soac:fuse PrefixFrom
func prefixFromSpec(xs []int32, start int32) []int32 {
	return soac.Scan(xs, start, func(a, b int32) int32 { return a + b })
}

// RunningMax scans with max over a map, whose result a later map reads.
//
//soac:fuse RunningMax
func runningMaxSpec(xs []int32) []int32 {
	ys := soac.Map(xs, func(x int32) int32 { return x*3 - 7 })
	ms := soac.Scan(ys, math.MinInt32, func(a, b int32) int32 { return max(a, b) })
	return soac.Map2(ms, ys, func(m, y int32) int32 { return m - y })
}

// RunningMin is a scan with min on unsigned lanes.
//
//soac:fuse RunningMin
func runningMinSpec(xs []uint64) []uint64 {
	return soac.Scan(xs, math.MaxUint64, func(a, b uint64) uint64 { return min(a, b) })
}

// PrefixXor is a scan with ^: its prefix steps chain bit operations,
// which keeps it to 256 bits.
//
//soac:fuse PrefixXor
func prefixXorSpec(xs []uint32) []uint32 {
	return soac.Scan(xs, 0, func(a, b uint32) uint32 { return a ^ b })
}

// PrefixProduct scans with * on int64: 512 bits only.
//
//soac:fuse PrefixProduct
func prefixProductSpec(xs []int64) []int64 {
	return soac.Scan(xs, 1, func(a, b int64) int64 { return a * b })
}

// ScanSum scans and folds the scan's elements in the same loop.
//
//soac:fuse ScanSum
func scanSumSpec(xs []int64) ([]int64, int64) {
	ps := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	return ps, soac.Reduce(ps, 0, func(a, b int64) int64 { return a + b })
}

// FloatPrefix is a float scan: refused, its order is kept.
//
//soac:fuse FloatPrefix
func floatPrefixSpec(xs []float64) []float64 {
	return soac.Scan(xs, 0, func(a, b float64) float64 { return a + b })
}

// KeptPrefix scans a filter's kept elements: refused.
//
//soac:fuse KeptPrefix
func keptPrefixSpec(xs []int64) []int64 {
	return soac.Scan(soac.Filter(xs, func(x int64) bool { return x > 0 }), 0, func(a, b int64) int64 { return a + b })
}

// Kept stores a filter's kept elements: compressed into place
// (AVX-512 only).
//
//soac:fuse Kept
func keptSpec(xs []float64) []float64 {
	return soac.Filter(soac.Map(xs, func(x float64) float64 { return x + 1 }), func(x float64) bool { return x > 0 })
}

// KeptMapped stores the kept elements and a map of them, and counts
// them.
//
//soac:fuse KeptMapped
func keptMappedSpec(xs []int64, lim int64) ([]int64, []int64, int64) {
	kept := soac.Filter(xs, func(x int64) bool { return x > lim && x&1 == 0 })
	halves := soac.Map(kept, func(x int64) int64 { return x >> 1 })
	n := soac.Reduce(soac.Map(kept, func(int64) int64 { return 1 }), 0, func(a, b int64) int64 { return a + b })
	return kept, halves, n
}

// Mixed mixes 32- and 64-bit lanes: refused.
//
//soac:fuse Mixed
func mixedSpec(xs []int32, ys []float64) []float64 {
	return soac.Map2(xs, ys, func(x int32, y float64) float64 { return y * 2 })
}

// FloatMinMax uses min and max on floats, whose NaN and ±0 rules no
// one instruction has: composed.
//
//soac:fuse FloatMinMax
func floatMinMaxSpec(xs, ys []float64) []float64 {
	return soac.Map2(xs, ys, func(x, y float64) float64 { return max(x, 0) + min(x, y, -0.0) })
}

// Relu32 is max on float32.
//
//soac:fuse Relu32
func relu32Spec(xs []float32) []float32 {
	return soac.Map(xs, func(x float32) float32 { return max(x, 0) })
}

// Exp calls math.Exp, which has no vector form proven exact: refused.
//
//soac:fuse Exp
func expSpec(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return math.Exp(x) })
}

// Truncate converts float64 to int64, whose out-of-range results Go
// leaves to the implementation: refused.
//
//soac:fuse Truncate
func truncateSpec(xs []float64) []int64 {
	return soac.Map(xs, func(x float64) int64 { return int64(x) })
}

// Named calls a named function: refused.
//
//soac:fuse Named
func namedSpec(xs []float64) []float64 {
	return soac.Map(xs, half)
}

func half(x float64) float64 { return x / 2 }
