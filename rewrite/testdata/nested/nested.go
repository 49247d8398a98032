// Package nested holds nested kernels: matrix multiplication as nested maps.
package nested

import (
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

//soac:fuse MatMul
func matMulSpec(a [][]float64, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			prods := soac.Map2(row, col, func(x, y float64) float64 { return x * y })
			return soac.Reduce(prods, 0.0, func(p, q float64) float64 { return p + q })
		})
	})
}

func matMulSpecArgs(r *rand.Rand, n int) []any {
	m := 1
	for m*m < n {
		m++
	}
	m = min(m, 40)
	k := r.IntN(3) + m
	mk := func(rows, cols int) [][]float64 {
		out := make([][]float64, rows)
		for i := range out {
			out[i] = make([]float64, cols)
			for j := range out[i] {
				out[i][j] = r.Float64()*4 - 2
			}
		}
		return out
	}
	return []any{mk(m, k), mk(m, k)}
}

//soac:fuse RowSums
func rowSumsSpec(xss [][]int) []int {
	return soac.Map(xss, func(xs []int) int {
		return soac.Reduce(soac.Map(xs, func(x int) int { return x * 2 }), 0, func(a, b int) int { return a + b })
	})
}

const rowSumsSpecAllocs = 1

//soac:fuse RowDots
func rowDotsSpec(xss [][]int, ys []int) []int {
	return soac.Map(xss, func(xs []int) int {
		if len(xs) == 0 {
			return -1
		}
		prods := soac.Map2(xs, ys, func(x, y int) int { return x * y })
		return soac.Reduce(prods, xs[0], func(a, b int) int { return a + b })
	})
}

func rowDotsSpecArgs(r *rand.Rand, n int) []any {
	m := min(n, 50)
	xss := make([][]int, m)
	for i := range xss {
		xss[i] = make([]int, 5+r.IntN(2)-r.IntN(2)*5)
		for j := range xss[i] {
			xss[i][j] = r.IntN(100)
		}
	}
	ys := make([]int, 5)
	for j := range ys {
		ys[j] = r.IntN(100)
	}
	return []any{xss, ys}
}
