package p

import "github.com/soacgen/soacgen/runtime/soac"

// writeBetween writes xs between the map and the reduction that consumes
// it: fusing them would make the map read the written element.
//
//soac:fuse WriteBetween
func writeBetween(xs []float64) float64 {
	ys := soac.Map(xs, square)
	xs[0] = 100
	return soac.Reduce(ys, xs[0], add)
}
