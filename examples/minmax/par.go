package minmax

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// boundsParSpec is boundsSpec for the parallel backend.
//
//soac:fuse BoundsPar backend=parallel
func boundsParSpec(xs []int32) (lo, hi int32) {
	lo = soac.Reduce(xs, math.MaxInt32, func(a, b int32) int32 { return min(a, b) })
	hi = soac.Reduce(xs, math.MinInt32, func(a, b int32) int32 { return max(a, b) })
	return lo, hi
}
