package normalize2

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// normalize2ParSpec is normalize2Spec for the parallel backend.
//
//soac:fuse Normalize2Par backend=parallel
func normalize2ParSpec(xs []float64) (ys1, ys2 []float64) {
	sum1 := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, func(a, b float64) float64 { return a + b })
	ys1 = soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 = soac.Map(xs, func(x float64) float64 { return x / sum2 })
	return ys1, ys2
}
