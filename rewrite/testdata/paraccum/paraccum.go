// Package paraccum holds reductions whose chunks the parallel backend
// folds into several accumulators (rewrite/backend/parallel paraccum.go):
// float and integer folds with commutative operators, a start that is
// not neutral, a fold beside a materialised map, a named operator kept
// to one accumulator beside a split one, and a map that may panic. The
// differential test runs them against their specs on inputs whose sums
// are exact in any order (the Args functions); paraccum_test.go checks
// real floats within rounding, bit-identical across GOMAXPROCS, and the
// panics' lowest index.
package paraccum

import (
	"math"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// SumSq: a sum of squares (examples/sumsq).
//
//soac:fuse SumSq backend=parallel
func accSumSqSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0.0, func(a, b float64) float64 { return a + b })
}

// Dot: a dot product (examples/dotprod).
//
//soac:fuse Dot backend=parallel
func accDotSpec(xs, ys []float64) float64 {
	return soac.Reduce(soac.Map2(xs, ys, func(x, y float64) float64 { return x * y }), 0.0, func(a, b float64) float64 { return a + b })
}

// Prod: a float product.
//
//soac:fuse Prod backend=parallel
func accProdSpec(xs []float64) float64 {
	return soac.Reduce(xs, 1.0, func(a, b float64) float64 { return a * b })
}

// SumFrom: a float sum from a start that is not neutral (the chunks'
// other accumulators start from -0).
//
//soac:fuse SumFrom backend=parallel
func accSumFromSpec(xs []float64, start float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), start, func(a, b float64) float64 { return a + b })
}

// Sum32: a float32 sum of squares.
//
//soac:fuse Sum32 backend=parallel
func accSum32Spec(xs []float32) float32 {
	return soac.Reduce(soac.Map(xs, func(x float32) float32 { return x * x }), float32(0), func(a, b float32) float32 { return a + b })
}

// IntFrom: an integer sum from a start that is not neutral (lower does
// not split it; the chunks do).
//
//soac:fuse IntFrom backend=parallel
func accIntFromSpec(xs []int) int {
	return soac.Reduce(soac.Map(xs, func(x int) int { return 3 * x }), 10, func(a, b int) int { return a + b })
}

// MapAndSum: the map's output materialised beside the sum.
//
//soac:fuse MapAndSum backend=parallel
func accMapAndSumSpec(xs []float64) ([]float64, float64) {
	ys := soac.Map(xs, func(x float64) float64 { return x - 0.5 })
	return ys, soac.Reduce(ys, 0.0, func(a, b float64) float64 { return a + b })
}

// SumAndOther: a fold split beside one whose operator lower does not
// recognise (two statements: not known to be commutative, so one
// accumulator, folded in order).
//
//soac:fuse SumAndOther backend=parallel
func accSumAndOtherSpec(xs []float64) (float64, float64) {
	ys := soac.Map(xs, func(x float64) float64 { return x * x })
	return soac.Reduce(ys, 0.0, func(a, b float64) float64 { return a + b }), soac.Reduce(ys, 0.0, func(a, b float64) float64 {
		s := a + b
		return s
	})
}

// Gather: a sum of weights read at indices; an index out of range
// panics (the lowest index's panic).
//
//soac:fuse Gather backend=parallel
func accGatherSpec(idx []int, ws []float64) float64 {
	return soac.Reduce(soac.Map(idx, func(i int) float64 { return ws[i] * 2 }), 0.0, func(a, b float64) float64 { return a + b })
}

// SumSqPos: a sum of the squares of the kept elements (a select: the
// dropped ones fold +0; examples/sumsqpos).
//
//soac:fuse SumSqPos backend=parallel
func accSumSqPosSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Reduce(soac.Map(pos, func(x float64) float64 { return x * x }), 0.0, func(a, b float64) float64 { return a + b })
}

// EvenGather: weights read at the even indices kept (a branch: the map
// may panic, so it runs for the kept elements only).
//
//soac:fuse EvenGather backend=parallel
func accEvenGatherSpec(idx []int, ws []float64) float64 {
	even := soac.Filter(idx, func(i int) bool { return i%2 == 0 })
	return soac.Reduce(soac.Map(even, func(i int) float64 { return ws[i] * 2 }), 0.0, func(a, b float64) float64 { return a + b })
}

// exact returns n floats whose sums, squares, halves and products of
// two are exact in any order: integers in [-1000, 1000], with a few
// signed zeros, infinities and NaNs.
func exact(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(2001) - 1000)
		switch r.IntN(4096) {
		case 0:
			xs[i] = math.Copysign(0, -1)
		case 1:
			xs[i] = math.Inf(1)
		case 2:
			xs[i] = math.Inf(-1)
		case 3:
			xs[i] = math.NaN()
		}
	}
	return xs
}

func accSumSqSpecArgs(r *rand.Rand, n int) []any { return []any{exact(r, n)} }

func accDotSpecArgs(r *rand.Rand, n int) []any { return []any{exact(r, n), exact(r, n)} }

// accProdSpecArgs: ±1, ±0, ±Inf and NaN, whose products are exact in any
// order (no overflow).
func accProdSpecArgs(r *rand.Rand, n int) []any {
	vals := []float64{1, -1, 1, -1, 1, -1, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}
	xs := make([]float64, n)
	for i := range xs {
		if r.IntN(1000) == 0 {
			xs[i] = vals[r.IntN(len(vals))]
		} else {
			xs[i] = vals[r.IntN(2)]
		}
	}
	return []any{xs}
}

func accSumFromSpecArgs(r *rand.Rand, n int) []any {
	return []any{exact(r, n), float64(r.IntN(21) - 10)}
}

func accSum32SpecArgs(r *rand.Rand, n int) []any {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(r.IntN(21) - 10) // sums of squares below 2^24
	}
	return []any{xs}
}

func accMapAndSumSpecArgs(r *rand.Rand, n int) []any { return []any{exact(r, n)} }

func accSumAndOtherSpecArgs(r *rand.Rand, n int) []any { return []any{exact(r, n)} }

func accSumSqPosSpecArgs(r *rand.Rand, n int) []any { return []any{exact(r, n)} }

func accEvenGatherSpecArgs(r *rand.Rand, n int) []any { return accGatherSpecArgs(r, n) }

// accGatherSpecArgs: indices into 100 integer weights, rarely out of range.
func accGatherSpecArgs(r *rand.Rand, n int) []any {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = r.IntN(100)
		if r.IntN(50000) == 0 {
			idx[i] = 100 + i
		}
	}
	ws := make([]float64, 100)
	for i := range ws {
		ws[i] = float64(r.IntN(2001) - 1000)
	}
	return []any{idx, ws}
}
