// Package extest holds what the examples' tests and benchmarks share: the
// input sizes, seeded random inputs, bit-exact comparisons and panic capture.
package extest

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Sizes returns the input sizes every example is tested on: 0, 1, 7, 1000 and,
// unless short is set, 1e6 (large enough to cross many soac.ChunkSize chunks
// and to make a wrong accumulation order visible in floating point).
func Sizes(short bool) []int {
	if short {
		return []int{0, 1, 7, 1000}
	}
	return []int{0, 1, 7, 1000, 1_000_000}
}

// BenchSize is one input size of the benchmarks, with the name that appears
// in the sub-benchmark path ("n=1e3").
type BenchSize struct {
	Name string
	N    int
}

// BenchSizes are the benchmark sizes: 1e3 (in L1, call overhead visible) and
// 1e6 (8 MB of float64, past L2, so passes over memory count).
var BenchSizes = []BenchSize{{"n=1e3", 1_000}, {"n=1e6", 1_000_000}}

// Rand returns a generator seeded from seed and n, so that every size gets its
// own reproducible input.
func Rand(seed uint64, n int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(n)))
}

// Floats returns n floats drawn uniformly from [lo, hi).
func Floats(r *rand.Rand, n int, lo, hi float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*r.Float64()
	}
	return xs
}

// Ints returns n ints drawn uniformly from [lo, hi).
func Ints(r *rand.Rand, n int, lo, hi int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = lo + r.IntN(hi-lo)
	}
	return xs
}

// SameFloat reports whether a and b have the same bits (so 0 and -0 differ,
// and a NaN equals the same NaN).
func SameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b)
}

// DiffFloats describes the first difference between got and want — in
// nil-ness, length, or the bits of an element — or returns "" when they are
// identical.
func DiffFloats(got, want []float64) string {
	if (got == nil) != (want == nil) {
		return fmt.Sprintf("nil-ness differs: got nil=%v, want nil=%v", got == nil, want == nil)
	}
	if len(got) != len(want) {
		return fmt.Sprintf("length %d, want %d", len(got), len(want))
	}
	for i := range got {
		if !SameFloat(got[i], want[i]) {
			return fmt.Sprintf("element %d is %v (%#x), want %v (%#x)",
				i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	return ""
}

// Panic calls f and returns the value it panicked with, or nil if it returned.
func Panic(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// Unchanged returns a check that xs still holds what it holds now; the
// examples use it to catch an implementation that writes its input.
func Unchanged[T comparable](xs []T) func() bool {
	saved := append([]T(nil), xs...)
	return func() bool {
		if len(saved) != len(xs) {
			return false
		}
		for i := range saved {
			if saved[i] != xs[i] {
				return false
			}
		}
		return true
	}
}
