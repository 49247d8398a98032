// Package nested holds lambdas with SOACs inside them, translated as
// sequential loops of one work-item.
package nested

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// matMul is examples/matmul: the outer Map in parallel, the inner
// Map-of-redomap per work-item.
func matMul(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float64) float64 { return x * y }),
				0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}

func add(a, b int) int { return a + b }

// sums reduces a captured slice, an Iota and a Replicate.
func sums(xs []int, ws []int, k int) []int {
	return soac.Map(xs, func(x int) int {
		s := soac.Reduce(ws, 0, add)
		t := soac.Reduce(soac.Map(soac.Iota(x%8), func(i int) int { return i * k }), 0, add)
		u := soac.Reduce(soac.Replicate(k, x), 0, add)
		if x > 0 && soac.Reduce(ws[1:], 0, add) > 3 {
			return s + t + u
		}
		return soac.Reduce(soac.Map3(ws, ws, ws, func(a, b, c int) int { return a*b - c }), x, add)
	})
}

// prefixes returns a scanned row per element.
func prefixes(rows [][]float32) [][]float32 {
	return soac.Map(rows, func(r []float32) []float32 {
		return soac.Scan(soac.Map(r, func(x float32) float32 { return float32(math.Abs(float64(x))) }), 0, func(a, b float32) float32 { return a + b })
	})
}
