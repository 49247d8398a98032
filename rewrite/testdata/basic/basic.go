// Package basic holds map chains, Map2 with either input fused, redomaps
// and map-out arrays.
package basic

import "github.com/soacgen/soacgen/runtime/soac"

func square(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

//soac:fuse MapChain
func mapChainSpec(xs []float64) []float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x + 1 })
	zs := soac.Map(ys, square)
	return soac.Map(zs, func(z float64) float64 { return z / 2 })
}

//soac:fuse SumSquares
func sumSquaresSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0.0, add)
}

//soac:fuse Dot
func dotSpec(xs, ys []float64) float64 {
	prods := soac.Map2(xs, ys, func(x, y float64) float64 { return x * y })
	return soac.Reduce(prods, 0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Map2Left
func map2LeftSpec(xs, ys []int) []int {
	as := soac.Map(xs, func(x int) int { return 3*x + 1 })
	return soac.Map2(as, ys, func(a, y int) int { return a - y })
}

//soac:fuse Map2Right
func map2RightSpec(xs, ys []int) []int {
	bs := soac.Map(ys, func(y int) int { return y * y })
	return soac.Map2(xs, bs, func(x, b int) int { return x ^ b })
}

//soac:fuse Map3Sum
func map3SumSpec(xs, ys, zs []float64) float64 {
	ws := soac.Map3(xs, ys, zs, func(x, y, z float64) float64 { return x*y + z })
	return soac.Reduce(ws, 1, func(a, b float64) float64 { return a*0.5 + b })
}

//soac:fuse MapOut
func mapOutSpec(xs []float64) (sq []float64, total float64) {
	sq = soac.Map(xs, square)
	total = soac.Reduce(sq, 0.0, add)
	return sq, total
}

//soac:fuse Named
func namedSpec(xs []int) (n int, s int) {
	n = len(xs)
	s = soac.Reduce(soac.Map(xs, func(x int) int { return x % 7 }), 0, func(a, b int) int { return a + b })
	return
}

//soac:fuse Variadic
func variadicSpec(scale float64, xs ...float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x * scale })
	return soac.Reduce(ys, 0.0, add)
}

// Allocations of the generated functions: only their outputs.
const (
	mapChainSpecAllocs   = 1
	sumSquaresSpecAllocs = 0
	dotSpecAllocs        = 0
	map2LeftSpecAllocs   = 1
	map3SumSpecAllocs    = 0
	mapOutSpecAllocs     = 1
	namedSpecAllocs      = 0
	variadicSpecAllocs   = 0
)
