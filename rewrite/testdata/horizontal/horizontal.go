// Package horizontal holds normalize2: two kernels over one array.
package horizontal

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Normalize2
func normalize2Spec(xs []float64) (ys1, ys2 []float64) {
	sum1 := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, func(a, b float64) float64 { return a + b })
	ys1 = soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 = soac.Map(xs, func(x float64) float64 { return x / sum2 })
	return ys1, ys2
}

//soac:fuse MinMax
func minMaxSpec(xs []int) (int, int) {
	lo := soac.Reduce(xs, 1<<62, func(a, b int) int { return min(a, b) })
	hi := soac.Reduce(xs, -1<<62, func(a, b int) int { return max(a, b) })
	return lo, hi
}

const (
	normalize2SpecAllocs = 2
	minMaxSpecAllocs     = 0
)
