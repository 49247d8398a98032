// Package generators holds Iota and Replicate fused into their consumers.
package generators

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Weighted
func weightedSpec(xs []float64) float64 {
	is := soac.Iota(len(xs))
	ws := soac.Map2(is, xs, func(i int, x float64) float64 { return float64(i) * x })
	return soac.Reduce(ws, 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse SumTo
func sumToSpec(n int) int {
	sq := soac.Map(soac.Iota(n%1000), func(i int) int { return i * i })
	return soac.Reduce(sq, 0, func(a, b int) int { return a + b })
}

//soac:fuse Offsets
func offsetsSpec(xs []int, d int) []int {
	ds := soac.Replicate(len(xs), d)
	return soac.Map2(xs, ds, func(x, d int) int { return x + d })
}

//soac:fuse NegIota
func negIotaSpec(n int) []int {
	return soac.Map(soac.Iota(n%5-2), func(i int) int { return i + 1 })
}

const (
	weightedSpecAllocs = 0
	offsetsSpecAllocs  = 1
)
