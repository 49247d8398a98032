// Package parnested holds reductions nested in the lambda of a parallel
// kernel, which the parallel backend folds over several accumulators
// from 8 elements on (rewrite/backend/parallel parnested.go): row sums
// of float64, float32 and int, a float product, a start that is not the
// operator's neutral element, a matrix product, a sum and a count of a
// filter's kept elements, an inner map that may panic, a sum of row
// sums (the outer fold as well), and two that keep one accumulator: a
// named operator and an expensive element. The differential test runs them against
// their specs on inputs whose sums are exact in any order (the Args
// functions); parnested_test.go checks real floats bit for bit against
// the documented association, within rounding of the spec, the same
// under GOMAXPROCS 1, 2 and 8, and the panics' lowest index.
package parnested

import (
	"math"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// RowSums: the sum of each row.
//
//soac:fuse RowSums backend=parallel
func pnRowSumsSpec(xss [][]float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	})
}

// RowSq32: the float32 sum of squares of each row.
//
//soac:fuse RowSq32 backend=parallel
func pnRowSq32Spec(xss [][]float32) []float32 {
	return soac.Map(xss, func(xs []float32) float32 {
		return soac.Reduce(soac.Map(xs, func(x float32) float32 { return x * x }), float32(0), func(a, b float32) float32 { return a + b })
	})
}

// RowInts: an integer sum from a start that is not neutral (lower
// does not split it; the nested loop does, the others from 0).
//
//soac:fuse RowInts backend=parallel
func pnRowIntsSpec(xss [][]int) []int {
	return soac.Map(xss, func(xs []int) int {
		return soac.Reduce(soac.Map(xs, func(x int) int { return 3 * x }), 10, func(a, b int) int { return a + b })
	})
}

// RowProds: the float product of each row.
//
//soac:fuse RowProds backend=parallel
func pnRowProdsSpec(xss [][]float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(xs, 1.0, func(a, b float64) float64 { return a * b })
	})
}

// RowFrom: a float sum from a captured start (not provably neutral: the
// other accumulators start from -0).
//
//soac:fuse RowFrom backend=parallel
func pnRowFromSpec(xss [][]float64, bias float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), bias, func(a, b float64) float64 { return a + b })
	})
}

// MatMul: the product of a and the transpose of bt (examples/matmul).
//
//soac:fuse MatMul backend=parallel
func pnMatMulSpec(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float64) float64 { return x * y }), 0.0, func(s, t float64) float64 { return s + t })
		})
	})
}

// RowPos: the sum of the squares of each row's positive elements (a
// filter's kept elements: a select, the dropped ones folding +0).
//
//soac:fuse RowPos backend=parallel
func pnRowPosSpec(xss [][]float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
		return soac.Reduce(soac.Map(pos, func(x float64) float64 { return x * x }), 0.0, func(a, b float64) float64 { return a + b })
	})
}

// RowCount: the number of each row's elements above a threshold (an
// integer fold of a filter's kept elements: lower keeps one accumulator
// where there is a filter; the nested loop splits it).
//
//soac:fuse RowCount backend=parallel
func pnRowCountSpec(xss [][]int, t int) []int {
	return soac.Map(xss, func(xs []int) int {
		big := soac.Filter(xs, func(x int) bool { return x > t })
		return soac.Reduce(soac.Map(big, func(int) int { return 1 }), 0, func(a, b int) int { return a + b })
	})
}

func pnRowCountSpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, func(r *rand.Rand, n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(100)
		}
		return xs
	}), r.IntN(100)}
}

// RowGather: each row's sum of weights read at its indices; an index
// out of range panics (the spec's of the lowest row, and lowest index in
// it).
//
//soac:fuse RowGather backend=parallel
func pnRowGatherSpec(rows [][]int, ws []float64) []float64 {
	return soac.Map(rows, func(idx []int) float64 {
		return soac.Reduce(soac.Map(idx, func(i int) float64 { return ws[i] * 2 }), 0.0, func(a, b float64) float64 { return a + b })
	})
}

// Total: the sum of the row sums (the outer fold a reduction too).
//
//soac:fuse Total backend=parallel
func pnTotalSpec(xss [][]float64) float64 {
	return soac.Reduce(soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	}), 0.0, func(a, b float64) float64 { return a + b })
}

// RowNamed: a sum whose operator lower does not recognise (two
// statements: not known to be commutative): one accumulator, in order.
//
//soac:fuse RowNamed backend=parallel
func pnRowNamedSpec(xss [][]float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(xs, 0.0, func(a, b float64) float64 {
			s := a + b
			return s
		})
	})
}

// RowExp: a sum of exponentials, an element estimated above
// accumMaxNanos: one accumulator, in order.
//
//soac:fuse RowExp backend=parallel
func pnRowExpSpec(xss [][]float64) []float64 {
	return soac.Map(xss, func(xs []float64) float64 {
		return soac.Reduce(soac.Map(xs, func(x float64) float64 { return math.Exp(x) }), 0.0, func(a, b float64) float64 { return a + b })
	})
}

// shape returns the row lengths of an input of size n: up to 300 rows
// of 0 to 40 elements, mostly around the 8 where the sums split.
func shape(r *rand.Rand, n int) []int {
	ls := make([]int, min(n, 300))
	for i := range ls {
		if r.IntN(4) == 0 {
			ls[i] = r.IntN(41)
		} else {
			ls[i] = r.IntN(13)
		}
	}
	return ls
}

// exact returns n floats whose sums, squares, halves and products of
// two are exact in any order: integers in [-1000, 1000], with a few
// signed zeros, infinities and NaNs.
func exact(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(2001) - 1000)
		switch r.IntN(512) {
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

// rows returns rows of the lengths shape gives, each from row.
func rows[T any](r *rand.Rand, n int, row func(r *rand.Rand, n int) []T) [][]T {
	var xss [][]T
	for _, l := range shape(r, n) {
		xss = append(xss, row(r, l))
	}
	return xss
}

func pnRowSumsSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, exact)} }

func pnRowSq32SpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, func(r *rand.Rand, n int) []float32 {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(r.IntN(21) - 10) // sums of squares below 2^24
		}
		return xs
	})}
}

// pnRowProdsSpecArgs: ±1, ±0, ±Inf and NaN, whose products are exact in
// any order.
func pnRowProdsSpecArgs(r *rand.Rand, n int) []any {
	vals := []float64{1, -1, 1, -1, 1, -1, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}
	return []any{rows(r, n, func(r *rand.Rand, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			if r.IntN(50) == 0 {
				xs[i] = vals[r.IntN(len(vals))]
			} else {
				xs[i] = vals[r.IntN(2)]
			}
		}
		return xs
	})}
}

func pnRowFromSpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, exact), float64(r.IntN(21) - 10)}
}

func pnMatMulSpecArgs(r *rand.Rand, n int) []any {
	m := min(n, 30)
	k := r.IntN(20)
	mk := func(rows int) [][]float64 {
		out := make([][]float64, rows)
		for i := range out {
			out[i] = exact(r, k)
		}
		return out
	}
	return []any{mk(m), mk(m/2 + 1)}
}

func pnRowPosSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, exact)} }

// pnRowGatherSpecArgs: indices into 100 integer weights, rarely out of
// range.
func pnRowGatherSpecArgs(r *rand.Rand, n int) []any {
	idx := rows(r, n, func(r *rand.Rand, n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(100)
			if r.IntN(2000) == 0 {
				xs[i] = 100 + i
			}
		}
		return xs
	})
	ws := make([]float64, 100)
	for i := range ws {
		ws[i] = float64(r.IntN(2001) - 1000)
	}
	return []any{idx, ws}
}

func pnTotalSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, exact)} }

func pnRowNamedSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, exact)} }

// pnRowExpSpecArgs: any floats (one accumulator: the spec's order).
func pnRowExpSpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, func(r *rand.Rand, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.Float64()*4 - 2
		}
		return xs
	})}
}
